/**
 * Reading a session straight from a session store (`--store SPEC --session ID`), or
 * another agent's recording (`--from SOURCE FILE`), instead of a transcript file.
 * SPEC is:
 * - `postgres://...` or `postgresql://...`: a PostgreSQL server (`--schema` picks the schema);
 * - `pglite:DIR`, or a directory holding a PGlite data directory (`PG_VERSION`): embedded PGlite;
 * - any other directory: a `FileSessionStore` directory (`<id>.jsonl` files).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { EpisodicError, type Message, type SessionStore } from '@episodic/core';
import { FileSessionStore } from '@episodic/core/node';
import { openPGlite, PostgresSessionStore } from '@episodic/postgres';
import { onePositional, UsageError } from './command.js';
import type { ImportResult } from './import/import-result.js';
import { importSession, parseImportSource } from './import/import-session.js';
import { readInput } from './read-input.js';

/** The options every command that reads a session takes. */
export const storeOptions = {
  from: { type: 'string', short: 'f' },
  lossy: { type: 'boolean' },
  store: { type: 'string' },
  session: { type: 'string' },
  schema: { type: 'string' },
} as const;

/** The help lines of {@link storeOptions}. */
export const storeHelp = `  -f, --from SOURCE  Read another agent's recording: claude-code, codex, pi, gemini-cli,
                     aider, openai-chat, anthropic-messages (as episodic import does)
      --lossy        With --from: read it even when conversation content is left out
      --store SPEC   Read the session from a store instead of a file: postgres://...,
                     pglite:DIR, or a file store directory (with --session)
      --session ID   The session to read from --store
      --schema NAME  The PostgreSQL schema of the store (default public)`;

/** An opened store, with a name fit to print (no password) and how to let it go. */
export interface OpenedStore {
  store: SessionStore;
  label: string;
  /** Applies the Postgres store's migrations; undefined for a file store. */
  migrate?: () => Promise<number[]>;
  close(): Promise<void>;
}

/**
 * Opens the store SPEC names (see above). A command that only reads passes
 * `create: false`: a PGlite directory that holds no database is then an error
 * naming the command that creates one, instead of a new empty database.
 */
export async function openStore(spec: string, schema?: string, options: { create?: boolean } = {}): Promise<OpenedStore> {
  if (/^postgres(ql)?:\/\//.test(spec)) {
    const store = new PostgresSessionStore({ connectionString: spec, schema, poolSize: 2 });
    if (options.create === false && !(await store.hasTables())) {
      await store.close();
      throw new EpisodicError(
        'store_not_found',
        `${withoutPassword(spec)}: no session tables in schema ${schema ?? 'public'}; nothing was created (episodic migrate --store URL creates them)`,
      );
    }
    return { store, label: withoutPassword(spec), migrate: () => store.migrate(), close: () => store.close() };
  }
  const directory = spec.startsWith('pglite:') ? spec.slice('pglite:'.length) : spec;
  if (spec.startsWith('pglite:') || existsSync(join(directory, 'PG_VERSION'))) {
    if (options.create === false) assertPGliteDatabase(spec, directory);
    const pglite = await openPGlite(directory);
    if (options.create === false) await assertSessionTables(pglite, spec, schema);
    const store = new PostgresSessionStore({ pglite, schema });
    return {
      store,
      label: `pglite:${directory}`,
      migrate: () => store.migrate(),
      close: async () => {
        await store.close();
        await pglite.close();
      },
    };
  }
  if (!existsSync(directory)) {
    throw new EpisodicError(
      'unreadable_input',
      `--store ${spec}: no such directory; give postgres://..., pglite:DIR or a file store directory`,
    );
  }
  return { store: new FileSessionStore({ directory }), label: directory, close: async () => {} };
}

/**
 * The transcript a command reads: `--store` with `--session`, or the one positional
 * (a file, or `-` for standard input). Returns it with the name to show for it.
 * `command` is the command's name, to suggest `--from` when the file is another
 * agent's recording.
 */
export async function readSessionSource(
  values: { store?: string; session?: string; schema?: string; from?: string; lossy?: boolean },
  positionals: readonly string[],
  stdin: Readable,
  command?: string,
): Promise<{ source: string; messages: Message[]; imported?: ImportResult }> {
  if (values.store === undefined) {
    if (values.session !== undefined) throw new UsageError('--session needs --store');
    const source = onePositional(positionals, 'transcript file (or - for standard input)');
    if (values.from === undefined) return { source, messages: await readInput(source, stdin, command) };
    const imported = await importSession(parseImportSource(values.from), source, stdin, { lossy: values.lossy === true });
    return { source, messages: imported.messages, imported };
  }
  if (values.from !== undefined) throw new UsageError('give --from with a recording file, not with --store');
  if (positionals.length > 0) throw new UsageError('give a transcript file or --store, not both');
  if (values.session === undefined) throw new UsageError('--store needs --session ID');
  const opened = await openStore(values.store, values.schema, { create: false });
  try {
    const stored = await opened.store.load(values.session);
    if (!stored) {
      throw new EpisodicError('session_not_found', `no session "${values.session}" in ${opened.label}: check the id`);
    }
    return { source: `${opened.label} session ${values.session}`, messages: stored.messages };
  } finally {
    await opened.close();
  }
}

/** Refuses a PGlite directory without a database: opening it would create one. */
export function assertPGliteDatabase(spec: string, directory: string): void {
  if (existsSync(join(directory, 'PG_VERSION'))) return;
  const what = existsSync(directory) ? 'holds no PGlite database' : 'does not exist';
  throw new EpisodicError(
    'store_not_found',
    `${spec}: ${directory} ${what}; nothing was created (episodic migrate --store ${spec} creates one)`,
  );
}

/** Refuses a PGlite database without the session tables: reading would create them (the first use migrates). */
async function assertSessionTables(pglite: Awaited<ReturnType<typeof openPGlite>>, spec: string, schema = 'public'): Promise<void> {
  const found = await pglite.query<{ name: string | null }>('select to_regclass($1)::text as name', [`"${schema}".episodic_sessions`]);
  if (found.rows[0]?.name) return;
  await pglite.close();
  throw new EpisodicError(
    'store_not_found',
    `${spec}: no session tables in schema ${schema}; nothing was created (episodic migrate --store ${spec} creates them)`,
  );
}

/** The URL without its password, for messages and output. */
function withoutPassword(spec: string): string {
  try {
    const url = new URL(spec);
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    return 'the PostgreSQL server';
  }
}
