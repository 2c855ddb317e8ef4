/**
 * The store suites against a real PostgreSQL server: EPISODIC_PG_URL when set (it
 * must answer), else a throwaway server started here (initdb/pg_ctl). Without
 * either the tests fail, saying how to get a server.
 */
import { PostgresReplayCache } from '@episodic/postgres';
import { type LocalServer, serverForTests } from '@episodic/postgres/testing';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { replayCacheConformance } from '../reasoning/replay-cache-conformance.js';
import { sessionStoreConformance } from './conformance.js';
import { dropSchema, freshSchema, serverFactory } from './postgres-fixtures.js';
import { postgresOperations } from './postgres-operations.js';

let server: LocalServer | undefined;
let admin: pg.Pool | undefined;
beforeAll(async () => {
  server = await serverForTests();
  admin = new pg.Pool({ connectionString: server.url, max: 2 });
}, 120_000);
afterAll(async () => {
  await admin?.end();
  await server?.stop();
});

function url(): string {
  if (!server) throw new Error('no PostgreSQL server: see the beforeAll failure above');
  return server.url;
}

sessionStoreConformance('postgres server', serverFactory(url), { takeover: true });

postgresOperations('postgres server', {
  connection: () => ({ connectionString: url() }),
  sql: async (text, params) => (await admin!.query(text, params)).rows,
});

const cacheSchemas: string[] = [];
afterAll(async () => {
  for (const schema of cacheSchemas) await dropSchema(url(), schema);
});
replayCacheConformance('postgres server', async (bounds) => {
  const schema = freshSchema();
  cacheSchemas.push(schema);
  return new PostgresReplayCache({ connectionString: url(), schema, poolSize: 2, ...bounds });
});
