/**
 * Secrets and DBOS's journal, from the attacker's side, against a real PostgreSQL
 * server: a tool prints a key and another fails with one in its message. DBOS keeps
 * each step's output in `operation_outputs`; that store must hold `[redacted]` where
 * the transcript does, never the key.
 */
import { Agent, type ModelRequest } from '@episodic/core';
import { createApproximateCounter, scriptedModel } from '@episodic/core/testing';
import { PostgresSessionStore } from '@episodic/postgres';
import { serverPerFile } from '@episodic/postgres/testing';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { EpisodesClient } from './dbos-client.js';
import { DbosEpisodes } from './dbos-episodes.js';

const server = serverPerFile();
beforeAll(() => server.url().then(() => {}, () => {}), 120_000);
afterAll(() => server.stop());

const secret = 'sk-planted-dbos-0b7d5e913c2a';

it("records tool outputs and tool failures in operation_outputs without the agent's secrets", async () => {
  const url = await server.url();
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  for (const schema of ['dbos_secrets', 'dbos_secrets_sys']) await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  const store = new PostgresSessionStore({ pool, schema: 'dbos_secrets' });
  await store.migrate();
  const steps = (request: ModelRequest) =>
    request.messages.some((message) => message.role === 'tool')
      ? { text: 'Done.' }
      : { toolCalls: [{ id: 'call_1', name: 'print_env', args: {} }, { id: 'call_2', name: 'call_api', args: {} }] };
  const printEnv = {
    spec: { name: 'print_env', description: 'Prints the environment.', inputSchema: { type: 'object' } },
    execute: async () => ({ content: `PAYMENTS_KEY=${secret}` }),
  };
  const callApi = {
    spec: { name: 'call_api', description: 'Calls the API.', inputSchema: { type: 'object' } },
    execute: async () => {
      throw new Error(`401: key ${secret} revoked`);
    },
  };
  const agent = new Agent({
    model: scriptedModel({ steps }),
    tools: [printEnv, callApi],
    store,
    secrets: [secret],
    context: { tokenizer: createApproximateCounter(), budget: 100_000 },
  });
  const episodes = await DbosEpisodes.launch({ agent, databaseUrl: url, schema: 'dbos_secrets_sys', leaseMs: 2_000 });
  const client = await EpisodesClient.create({ databaseUrl: url, schema: 'dbos_secrets_sys' });
  try {
    await client.start({ sessionId: 's1', episode: 0, input: 'Check the key.' });
    expect(await episodes.result('s1', 0)).toEqual({ status: 'finished', reason: 'done', text: 'Done.' });
    const tools = ((await store.load('s1'))?.messages ?? []).filter((message) => message.role === 'tool');
    expect(tools.map((message) => message.content)).toEqual([
      'PAYMENTS_KEY=[redacted]',
      'Tool "call_api" failed: 401: key [redacted] revoked',
    ]);
    const { rows } = await pool.query<{ output: string | null; error: string | null }>(
      'SELECT output, error FROM "dbos_secrets_sys".operation_outputs',
    );
    const journal = rows.map((row) => `${row.output ?? ''} ${row.error ?? ''}`).join('\n');
    expect(journal).toContain('PAYMENTS_KEY=[redacted]');
    expect(journal).not.toContain(secret);
  } finally {
    await client.close();
    await episodes.shutdown();
    await store.close();
    await pool.end();
  }
}, 120_000);
