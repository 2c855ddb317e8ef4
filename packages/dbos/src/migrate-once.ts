/**
 * DBOS's system tables, created or migrated by one process at a time. DBOS migrates
 * at launch without a lock: workers launched together race through the same DDL
 * ("deadlock detected", "duplicate key value violates unique constraint
 * pg_type_typname_nsp_index", "tuple concurrently updated"), and two that record
 * the version at once can leave two version rows that no later start gets past
 * (`dbos_migrations_pkey`). Here each launch first migrates under a PostgreSQL
 * advisory lock on the database (released with its connection if the process dies);
 * the processes after the first find nothing to do. DBOS then launches with
 * `runMigrations: false`, only checking the tables.
 */
import { migrateSystemDatabase } from '@dbos-inc/dbos-sdk/internal/system_database';
import { GlobalLogger } from '@dbos-inc/dbos-sdk/internal/telemetry/logs';
import pg from 'pg';

/** How often a launch waiting for another's migration tries the lock again. */
const LOCK_POLL_MS = 100;

/** Migrates DBOS's tables in `schema` of `databaseUrl` (creating the database if missing), one process at a time. */
export async function migrateOnce(databaseUrl: string, schema: string): Promise<void> {
  const client = await connectCreating(databaseUrl);
  const lock = `episodic.dbos.migrate.${schema}`;
  try {
    // Polled, not waited for in one statement: a statement waiting for the lock holds a snapshot,
    // which the holder's online migrations (CREATE INDEX CONCURRENTLY) would wait out for ever.
    for (;;) {
      const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS locked', [lock]);
      if (rows[0]?.locked) break;
      await new Promise((resolve) => setTimeout(resolve, LOCK_POLL_MS));
    }
    try {
      // `DBOS.migrate` with the log level DbosEpisodes launches DBOS with (its own logs every migration).
      await migrateSystemDatabase(databaseUrl, new GlobalLogger(undefined, { logLevel: 'error' }), schema);
    } finally {
      await client.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [lock]).catch(() => {});
    }
  } finally {
    await client.end().catch(() => {});
  }
}

/** A connection to the database of `url`, created first when it does not exist (as DBOS would at launch). */
async function connectCreating(url: string): Promise<pg.Client> {
  try {
    return await connect(url);
  } catch (error) {
    if ((error as { code?: string }).code !== '3D000') throw error;
  }
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  target.pathname = '/postgres';
  const admin = await connect(target.toString());
  try {
    await admin.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`).catch((error: { code?: string }) => {
      // Another process made it first (42P04; 23505 when the two collide in the catalog).
      if (error.code !== '42P04' && error.code !== '23505') throw error;
    });
  } finally {
    await admin.end().catch(() => {});
  }
  return connect(url);
}

async function connect(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  // A dropped connection surfaces on the query that needs it; it must not end the process.
  client.on('error', () => {});
  try {
    await client.connect();
    return client;
  } catch (error) {
    await client.end().catch(() => {});
    throw error;
  }
}
