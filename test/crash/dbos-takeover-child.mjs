// One worker process of dbos-takeover.test.ts: launches @episodic/dbos (the built
// package) with a one-step agent on the PostgreSQL session store and prints `ready`,
// then `start <workflow id>` and `end <workflow id>`. With `hang`, every model call
// waits forever, so the test can kill the process in the middle of an episode.
// Usage: node dbos-takeover-child.mjs '{"url":"postgres://...","schema":"t1","executorId":"d","hang":true}'
import { Agent } from '@episodic/core';
import { createApproximateCounter, scriptedModel } from '@episodic/core/testing';
import { DbosEpisodes } from '@episodic/dbos';
import { PostgresSessionStore } from '@episodic/postgres';
import pg from 'pg';

const config = JSON.parse(process.argv[2] ?? '{}');
const pool = new pg.Pool({ connectionString: config.url, max: 4 });
pool.on('error', () => {});
const store = new PostgresSessionStore({ pool, schema: `${config.schema}_store`, leaseMs: 1_000 });
const steps = () => (config.hang ? new Promise(() => {}) : { text: 'Done.' });
const agent = new Agent({ model: scriptedModel({ steps }), store, context: { tokenizer: createApproximateCounter(), budget: 100_000 } });
const id = (request) => `${request.sessionId}/${request.episode}`;
await DbosEpisodes.launch({
  agent,
  databaseUrl: config.url,
  schema: `${config.schema}_dbos`,
  executorId: config.executorId,
  concurrency: 1,
  leaseMs: 1_000,
  observe: {
    start: (request) => process.stdout.write(`start ${id(request)}\n`),
    end: (request) => process.stdout.write(`end ${id(request)}\n`),
  },
});
process.stdout.write('ready\n');
