/**
 * What the Postgres store tests share: one database per test file (a real server, or
 * one PGlite instance: starting PGlite costs seconds), a fresh schema per test, and
 * the conformance factories over them.
 */
import { randomBytes } from 'node:crypto';
import type { PGlite } from '@electric-sql/pglite';
import { PostgresSessionStore } from '@episodic/postgres';
import pg from 'pg';
import type { StoreFactory } from './conformance.js';
import { crashWriterProcess } from './crash-writer.js';

/** Lease time in the tests: long enough for a loaded CI machine, short enough to wait for a takeover. */
export const testLeaseMs = 3_000;

/** A schema no other test uses. */
export function freshSchema(): string {
  return `test_${randomBytes(6).toString('hex')}`;
}

/** Conformance stores on one PGlite instance; a writer "dies" by closing its store without releasing. */
export function pgliteFactory(pglite: () => PGlite): StoreFactory {
  return async () => {
    const schema = freshSchema();
    const open = async () => new PostgresSessionStore({ pglite: pglite(), schema, leaseMs: testLeaseMs });
    const store = await open();
    return {
      store,
      reopen: open,
      crashWriter: async (id, messages) => {
        const writer = await open();
        const lease = await writer.acquire(id);
        await writer.append(id, messages, { lease, expectedLength: lease.length });
        await writer.close();
      },
      takeoverMs: testLeaseMs,
      remove: async (id) => void (await store.delete(id)),
      cleanup: async () => {
        await store.close();
        await pglite().exec(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      },
    };
  };
}

/** Conformance stores on a server; a writer dies for real: a child process killed with SIGKILL. */
export function serverFactory(url: () => Promise<string>): StoreFactory {
  return async () => {
    const schema = freshSchema();
    const connectionString = await url();
    const opened: PostgresSessionStore[] = [];
    const open = async () => {
      const store = new PostgresSessionStore({ connectionString, schema, leaseMs: testLeaseMs, poolSize: 4 });
      opened.push(store);
      return store;
    };
    const store = await open();
    return {
      store,
      reopen: open,
      remove: async (id) => void (await store.delete(id)),
      crashWriter: (id, messages) =>
        crashWriterProcess(
          { kind: 'postgres', connectionString, schema, leaseMs: testLeaseMs, id, messages },
          'packages/postgres/dist/index.js',
        ),
      takeoverMs: testLeaseMs,
      cleanup: async () => {
        for (const store of opened) await store.close();
        await dropSchema(connectionString, schema);
      },
    };
  };
}

/** Drops a test schema on a server. */
export async function dropSchema(connectionString: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  } finally {
    await client.end();
  }
}
