/**
 * The stores' tables, as numbered migrations. Each runs once, in order, inside one
 * transaction that holds an advisory lock, so many workers starting together apply
 * it exactly once; a database already migrated costs one query. The version table
 * is `<schema>.episodic_migrations`. Migrations are never edited once released: a
 * change is a new migration.
 */
import { EpisodicError, InvalidArgumentError } from '@episodic/core';
import type { Database } from './database.js';
import { connectionFailure } from './database-errors.js';

/** One schema change. */
export interface Migration {
  version: number;
  name: string;
  /** The statements, for the schema (already quoted) given. */
  statements(schema: string): string[];
}

/** Every migration, oldest first. */
export const migrations: readonly Migration[] = [
  {
    version: 1,
    name: 'sessions and their messages',
    statements: (schema) => [
      `CREATE TABLE ${schema}.episodic_sessions (
        id text PRIMARY KEY CHECK (id ~ '^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$'),
        message_count integer NOT NULL DEFAULT 0 CHECK (message_count >= 0),
        pack_state json,
        reasoning_sidecar json,
        lease_token bigint NOT NULL DEFAULT 0,
        lease_holder text,
        lease_expires_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CHECK ((lease_holder IS NULL) = (lease_expires_at IS NULL))
      )`,
      `CREATE INDEX episodic_sessions_updated_at ON ${schema}.episodic_sessions (updated_at)`,
      // previous_seq points at the message before: the foreign key makes a gap in a
      // transcript impossible, the primary key a duplicate.
      `CREATE TABLE ${schema}.episodic_messages (
        session_id text NOT NULL REFERENCES ${schema}.episodic_sessions (id) ON DELETE CASCADE,
        seq integer NOT NULL CHECK (seq >= 0),
        previous_seq integer GENERATED ALWAYS AS (CASE WHEN seq > 0 THEN seq - 1 END) STORED,
        message json NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (session_id, seq),
        FOREIGN KEY (session_id, previous_seq) REFERENCES ${schema}.episodic_messages (session_id, seq) ON DELETE CASCADE
      )`,
    ],
  },
  {
    version: 2,
    name: 'reasoning replay cache',
    statements: (schema) => [
      `CREATE SEQUENCE ${schema}.episodic_replay_recency`,
      `CREATE TABLE ${schema}.episodic_replay_cache (
        key text PRIMARY KEY,
        provider text NOT NULL,
        model text NOT NULL,
        parts json NOT NULL,
        tokens integer NOT NULL CHECK (tokens >= 0),
        stored_at bigint NOT NULL,
        recency bigint NOT NULL DEFAULT nextval('${schema}.episodic_replay_recency')
      )`,
      `CREATE INDEX episodic_replay_cache_recency ON ${schema}.episodic_replay_cache (recency)`,
      `CREATE INDEX episodic_replay_cache_stored_at ON ${schema}.episodic_replay_cache (stored_at)`,
    ],
  },
  {
    version: 3,
    name: 'approval decisions',
    // The session's approval record (core's ApprovalRecord): decisions not yet acted on.
    statements: (schema) => [`ALTER TABLE ${schema}.episodic_sessions ADD COLUMN approvals json`],
  },
  {
    version: 4,
    name: 'lease tokens from one sequence',
    // Tokens per row started again at 1 when a session was deleted and created again, so a
    // writer of the deleted session passed the fencing check of the new one. One sequence
    // for the schema never repeats a token; it starts above every token handed out so far.
    statements: (schema) => [
      `CREATE SEQUENCE ${schema}.episodic_lease_tokens`,
      `SELECT setval('${schema}.episodic_lease_tokens', COALESCE(MAX(lease_token), 0) + 1, false)
         FROM ${schema}.episodic_sessions`,
    ],
  },
];

/** The newest schema version this package knows. */
export const SCHEMA_VERSION = migrations.at(-1)!.version;

const schemaName = /^[a-z_][a-z0-9_]{0,62}$/;

/** The schema name, checked and quoted for SQL (default `public`). */
export function quoteSchema(schema = 'public'): string {
  if (!schemaName.test(schema)) {
    throw new InvalidArgumentError(
      `invalid schema ${JSON.stringify(schema)}: use 1 to 63 lower-case letters, digits or "_", not starting with a digit.`,
    );
  }
  return `"${schema}"`;
}

/** The database's schema is newer than this package: running old code on it is unsafe. */
export class SchemaTooNewError extends EpisodicError {
  constructor(schema: string, found: number) {
    super(
      'schema_too_new',
      `${schema} is at episodic schema version ${found}, newer than this @episodic/postgres knows (${SCHEMA_VERSION}): upgrade @episodic/postgres on this worker.`,
    );
  }
}

/** Applies the migrations the database lacks; returns the versions applied now. */
export async function migrate(database: Database, schema: string): Promise<number[]> {
  const quoted = quoteSchema(schema);
  try {
    return await applyMigrations(database, schema, quoted);
  } catch (error) {
    throw connectionFailure(error, `migrating schema ${schema}`);
  }
}

async function applyMigrations(database: Database, schema: string, quoted: string): Promise<number[]> {
  return database.transaction(async (transaction) => {
    // Serializes concurrent migrators; released at commit.
    await transaction.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`episodic migrations ${schema}`]);
    // Checked first: CREATE SCHEMA IF NOT EXISTS needs the CREATE privilege even when the schema exists.
    const found = await transaction.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema]);
    if (found.length === 0) await transaction.query(`CREATE SCHEMA ${quoted}`);
    await transaction.query(
      `CREATE TABLE IF NOT EXISTS ${quoted}.episodic_migrations (
        version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    const rows = await transaction.query<{ version: number }>(`SELECT version FROM ${quoted}.episodic_migrations`);
    const done = new Set(rows.map((row) => Number(row.version)));
    const newest = Math.max(0, ...done);
    if (newest > SCHEMA_VERSION) throw new SchemaTooNewError(schema, newest);
    const applied: number[] = [];
    for (const migration of migrations) {
      if (done.has(migration.version)) continue;
      for (const statement of migration.statements(quoted)) await transaction.query(statement);
      await transaction.query(`INSERT INTO ${quoted}.episodic_migrations (version, name) VALUES ($1, $2)`, [
        migration.version,
        migration.name,
      ]);
      applied.push(migration.version);
    }
    return applied;
  });
}

/**
 * Runs {@link migrate} on the first call and shares its outcome with later calls;
 * a failure is not kept, so once its cause is fixed (the server is up) the next call
 * tries again.
 */
export function migrateOnce(database: Database, schema: string): () => Promise<unknown> {
  let ready: Promise<unknown> | undefined;
  return () => {
    ready ??= migrate(database, schema).catch((error: unknown) => {
      ready = undefined;
      throw error;
    });
    return ready;
  };
}
