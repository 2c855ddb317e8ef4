/**
 * The store suites against a real PostgreSQL server: EPISODIC_PG_URL when set (it
 * must answer), else a throwaway server started here (initdb/pg_ctl). Without
 * either every test fails, saying how to get a server.
 */
import { PostgresReplayCache } from '@episodic/postgres';
import { serverPerFile } from '@episodic/postgres/testing';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { replayCacheConformance } from '../reasoning/replay-cache-conformance.js';
import { sessionStoreConformance } from './conformance.js';
import { dropSchema, freshSchema, serverFactory } from './postgres-fixtures.js';
import { postgresOperations } from './postgres-operations.js';

const server = serverPerFile();
let admin: pg.Pool | undefined;
// Starts the server before the first test's clock runs; a failure is each test's to report.
beforeAll(() => server.url().then(() => {}, () => {}), 120_000);
afterAll(async () => {
  await admin?.end();
  await server.stop();
});

async function sql(text: string, params?: unknown[]) {
  admin ??= new pg.Pool({ connectionString: await server.url(), max: 2 });
  return (await admin.query(text, params)).rows;
}

sessionStoreConformance('postgres server', serverFactory(server.url), { takeover: true });

postgresOperations('postgres server', { connection: async () => ({ connectionString: await server.url() }), sql });

const cacheSchemas: string[] = [];
afterAll(async () => {
  for (const schema of cacheSchemas) await dropSchema(await server.url(), schema);
});
replayCacheConformance(
  'postgres server',
  async (bounds) => {
    const schema = freshSchema();
    const connectionString = await server.url();
    cacheSchemas.push(schema);
    return new PostgresReplayCache({ connectionString, schema, poolSize: 2, ...bounds });
  },
  // A real outage: the cache's connections are gone (its pool ended).
  async (cache) => {
    await cache.list();
    await cache.close?.();
    return cache;
  },
);
