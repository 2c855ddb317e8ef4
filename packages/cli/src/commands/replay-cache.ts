/**
 * `episodic replay-cache ACTION --cache SPEC`: operates a reasoning replay cache
 * (list, delete, clear, sweep, stats) in a file (`FileReplayCache` log) or in
 * PostgreSQL/PGlite (`PostgresReplayCache`), with text or JSON output.
 */
import {
  type ManagedReplayCache,
  type ReplayCacheReport,
  type ReplayDeleteFilter,
  type ReplayEntry,
} from '@episodic/core/reasoning';
import { FileReplayCache } from '@episodic/core/node';
import { openPGlite, PostgresReplayCache } from '@episodic/postgres';
import { checkedPath, UnusableFileError } from '../checked-file.js';
import { assertPGliteDatabase } from '../store-source.js';
import { type Command, ExitCode, parseCommandArgs, UsageError } from '../command.js';
import { formatTable } from '../text-table.js';

const options = {
  cache: { type: 'string' },
  schema: { type: 'string' },
  provider: { type: 'string' },
  model: { type: 'string' },
  'tool-call-id': { type: 'string' },
  limit: { type: 'string' },
  'ttl-ms': { type: 'string' },
  json: { type: 'boolean' },
} as const;

const actions = ['list', 'delete', 'clear', 'sweep', 'stats'] as const;
type Action = (typeof actions)[number];

/** Largest replay log opened (256 MiB): the log is read whole into one string. */
const MAX_CACHE_LOG_BYTES = 256 * 2 ** 20;

/** Bounds so large that opening a cache to operate on it never evicts what it holds. */
const unbounded = { maxEntries: Number.MAX_SAFE_INTEGER, maxTokens: Number.MAX_SAFE_INTEGER };

/** An opened cache and how to let it go. */
interface OpenedCache {
  cache: ManagedReplayCache;
  close(): Promise<void>;
}

function positiveInteger(name: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new UsageError(`--${name} must be a positive integer (got '${text}')`);
  return value;
}

/** Opens the cache SPEC names: postgres://..., pglite:DIR, or a file cache's log. */
async function openCache(spec: string, schema: string | undefined, ttlMs: number | undefined): Promise<OpenedCache> {
  const bounds = { ...unbounded, ...(ttlMs ? { ttlMs } : {}) };
  if (/^postgres(ql)?:\/\//.test(spec)) {
    const cache = new PostgresReplayCache({ connectionString: spec, schema, poolSize: 2, ...bounds });
    return { cache, close: () => cache.close() };
  }
  if (spec.startsWith('pglite:')) {
    // Every action operates on a cache that exists: none creates a database.
    assertPGliteDatabase(spec, spec.slice('pglite:'.length));
    const pglite = await openPGlite(spec.slice('pglite:'.length));
    const cache = new PostgresReplayCache({ pglite, schema, ...bounds });
    return { cache, close: () => pglite.close() };
  }
  const cache = await FileReplayCache.open({ path: await checkedLog(spec), ...bounds });
  return { cache, close: () => cache.close() };
}

/**
 * The replay log's real path, checked: a regular file under the cap. A link is
 * resolved here so that delete, clear and sweep rewrite the file it points to
 * instead of replacing the link with a new file.
 */
async function checkedLog(spec: string): Promise<string> {
  try {
    return await checkedPath(spec, { what: 'the replay log --cache', maxBytes: MAX_CACHE_LOG_BYTES });
  } catch (error) {
    if (error instanceof UnusableFileError && error.reason === 'ENOENT') {
      throw new UsageError(`--cache ${spec}: no such file; give postgres://..., pglite:DIR or a replay log file`);
    }
    throw error;
  }
}

function deleteFilter(values: { provider?: string; model?: string; 'tool-call-id'?: string }): ReplayDeleteFilter {
  if (values['tool-call-id'] !== undefined) return { toolCallId: values['tool-call-id'] };
  if (values.provider !== undefined) return { provider: values.provider, ...(values.model ? { model: values.model } : {}) };
  if (values.model !== undefined) return { model: values.model };
  throw new UsageError('delete needs --tool-call-id, --provider or --model (use clear to delete everything)');
}

/** The tool-call id of a key, or `-` for a message key. */
function toolCallIdOf(entry: ReplayEntry): string {
  return entry.key.startsWith('call\u0000') ? (entry.key.split('\u0000').at(-1) ?? '') : '-';
}

const iso = (ms: number | undefined) => (ms === undefined ? '-' : new Date(ms).toISOString());

function listText(entries: readonly ReplayEntry[]): string {
  const rows = entries.map((entry) => [
    iso(entry.storedAt),
    entry.provider,
    entry.model,
    toolCallIdOf(entry),
    String(entry.tokens),
  ]);
  const columns = [
    { header: 'stored at' },
    { header: 'provider' },
    { header: 'model' },
    { header: 'tool call' },
    { header: 'tokens', align: 'right' as const },
  ];
  return `${formatTable(columns, rows)}\n${entries.length} entr${entries.length === 1 ? 'y' : 'ies'}\n`;
}

function statsText(report: ReplayCacheReport): string {
  const lines = [
    `entries      ${report.entries} (memory ${report.memoryEntries}, persistent ${report.persistentEntries})`,
    `size         ${report.tokens} tokens, ${report.chars} characters`,
    `oldest       ${iso(report.oldest)}`,
    `newest       ${iso(report.newest)}`,
    `lookups      ${report.hits} hits, ${report.misses} misses (this process)`,
  ];
  const groups = Object.entries(report.byModel).map(([name, group]) => [name, String(group.entries), String(group.tokens)]);
  const table = formatTable([{ header: 'provider/model' }, { header: 'entries', align: 'right' }, { header: 'tokens', align: 'right' }], groups);
  return `${lines.join('\n')}\n\n${table}\n`;
}

async function runAction(action: Action, cache: ManagedReplayCache, values: Parameters<typeof deleteFilter>[0] & { limit?: string }) {
  switch (action) {
    case 'list':
      return cache.list({
        ...(values.provider ? { provider: values.provider } : {}),
        ...(values.model ? { model: values.model } : {}),
        limit: positiveInteger('limit', values.limit) ?? 100,
      });
    case 'delete':
      return { deleted: await cache.delete(deleteFilter(values)) };
    case 'clear':
      return { deleted: await cache.clear() };
    case 'sweep':
      return { deleted: await cache.sweep() };
    default:
      return cache.report();
  }
}

function textOf(action: Action, result: unknown): string {
  if (action === 'list') return listText(result as ReplayEntry[]);
  if (action === 'stats') return statsText(result as ReplayCacheReport);
  const deleted = (result as { deleted: number }).deleted;
  return `Deleted ${deleted} entr${deleted === 1 ? 'y' : 'ies'}.\n`;
}

/** `episodic replay-cache`. */
export const replayCacheCommand: Command = {
  name: 'replay-cache',
  summary: 'List, delete, clear, sweep or report on a reasoning replay cache',
  usage: 'episodic replay-cache list|delete|clear|sweep|stats --cache FILE|postgres://...|pglite:DIR [options]',
  help: `Operates the reasoning replay cache an agent writes (FileReplayCache log, or the
PostgreSQL/PGlite table episodic_replay_cache):
  list    entries, newest first (--provider, --model, --limit, default 100)
  delete  entries of one tool call (--tool-call-id), a provider and/or a model
  clear   every entry
  sweep   entries older than the time to live (--ttl-ms, default 2 hours)
  stats   entries, size, age, and entries and tokens by provider/model
A file cache is rewritten atomically after delete, clear and sweep; do not run it
while an agent process writes the same file.

Options:
      --cache SPEC        The replay log file, postgres://..., or pglite:DIR
      --schema NAME       The PostgreSQL schema (default public)
      --provider NAME     Only this provider (list, delete)
      --model ID          Only this model (list, delete)
      --tool-call-id ID   The tool call whose reasoning to delete
      --limit N           Most entries listed (default 100)
      --ttl-ms N          The cache's time to live in ms (default 7200000)
      --json              Print JSON`,

  async run(argv, io) {
    const { values, positionals } = parseCommandArgs(argv, options);
    const [action, extra] = positionals;
    if (!actions.includes(action as Action)) {
      throw new UsageError(action === undefined ? 'missing action' : `unknown action '${action}' (${actions.join(', ')})`);
    }
    if (extra !== undefined) throw new UsageError(`unexpected argument '${extra}'`);
    if (values.cache === undefined) throw new UsageError('missing --cache');
    const opened = await openCache(values.cache, values.schema, positiveInteger('ttl-ms', values['ttl-ms']));
    try {
      const result = await runAction(action as Action, opened.cache, values);
      io.stdout.write(values.json ? `${JSON.stringify(result, null, 2)}\n` : textOf(action as Action, result));
    } finally {
      await opened.close();
    }
    return ExitCode.ok;
  },
};
