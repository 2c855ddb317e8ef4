import { PGlite } from '@electric-sql/pglite';
import { PostgresReplayCache } from '@episodic/postgres';
import { afterAll, beforeAll } from 'vitest';
import { replayCacheConformance } from '../reasoning/replay-cache-conformance.js';
import { sessionStoreConformance } from './conformance.js';
import { freshSchema, pgliteFactory } from './postgres-fixtures.js';
import { postgresOperations } from './postgres-operations.js';

let pglite: PGlite;
// Starting PGlite (PostgreSQL in WASM) takes seconds on a busy machine: once per file.
beforeAll(async () => {
  pglite = await PGlite.create();
}, 180_000);
afterAll(() => pglite?.close());

sessionStoreConformance('pglite', pgliteFactory(() => pglite), { takeover: true });

postgresOperations('pglite', {
  connection: async () => ({ pglite }),
  sql: async (text, params) => (await pglite.query<Record<string, unknown>>(text, params)).rows,
});

const cacheSchemas = new WeakMap<object, string>();
replayCacheConformance(
  'pglite',
  async (bounds) => {
    const schema = freshSchema();
    const cache = new PostgresReplayCache({ pglite, schema, ...bounds });
    cacheSchemas.set(cache, schema);
    return cache;
  },
  // A real outage: the cache's table is gone (dropped under it).
  async (cache) => {
    await cache.list();
    await pglite.query(`DROP SCHEMA "${cacheSchemas.get(cache)}" CASCADE`);
    return cache;
  },
);
