// examples/basics/postgres-store.ts against a real PostgreSQL server: EPISODIC_PG_URL
// when set, else a throwaway one (initdb/pg_ctl); without either the test fails.
import { serverPerFile } from '@episodic/postgres/testing';
import pg from 'pg';
import { afterAll, expect, it } from 'vitest';
import { runExample } from './run-example.js';

const server = serverPerFile();
afterAll(() => server.stop());

it('postgres-store: a session saved by one agent is reopened by id and answers from its history', { timeout: 120_000 }, async () => {
  const url = await server.url();
  const lines = await runExample('postgres-store', { DATABASE_URL: url });
  expect(lines).toHaveLength(1);
  const [, id] = /^(.+): 4 messages; answer: Teal\.$/.exec(lines[0] ?? '') ?? [];
  expect(id, lines[0]).toBeTruthy();
  // The messages are rows in the database, not only in the process.
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const rows = await client.query<{ count: string }>('select count(*) from public.episodic_messages where session_id = $1', [id]);
    expect(rows.rows[0]?.count).toBe('4');
  } finally {
    await client.end();
  }
});
