// examples/basics/dbos.ts against a real PostgreSQL server (EPISODIC_PG_URL when set,
// else a throwaway one): the payment waits, is listed, approved, and the episode finishes.
import { serverPerFile } from '@episodic/postgres/testing';
import { afterAll, expect, it } from 'vitest';
import { runExample } from './run-example.js';

const server = serverPerFile();
afterAll(() => server.stop());

it('dbos: the call waits, is listed with its episode, approved from the client, and the episode finishes', { timeout: 120_000 }, async () => {
  const lines = await runExample('dbos', { DATABASE_URL: await server.url() });
  expect(lines).toEqual(['waiting: pay({"invoice":"42"}) in episode 0', 'finished: Invoice 42 is paid.']);
});
