/**
 * @episodic/dbos in one process against a real PostgreSQL server: an episode runs as
 * a workflow, and a call that needs approval waits durably until a client (which
 * has not launched DBOS: any process) sends the decision. Recovery across worker
 * processes is tested by the worker pool's DBOS fault run (examples/worker-pool).
 */
import { Agent, type ModelRequest } from '@episodic/core';
import { createApproximateCounter } from '@episodic/core/testing';
import { scriptedModel } from '@episodic/core/testing';
import { PostgresSessionStore } from '@episodic/postgres';
import { serverPerFile } from '@episodic/postgres/testing';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { EpisodesClient } from './dbos-client.js';
import { DbosEpisodes } from './dbos-episodes.js';

const server = serverPerFile();
beforeAll(() => server.url().then(() => {}, () => {}), 120_000);
afterAll(() => server.stop());

it('runs an episode as a workflow whose approval is a durable wait, decided from a client', async () => {
  const url = await server.url();
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  // A server named by EPISODIC_PG_URL outlives the run: start from nothing.
  for (const schema of ['dbos_test', 'dbos_test_sys']) await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  const store = new PostgresSessionStore({ pool, schema: 'dbos_test' });
  await store.migrate();
  let payments = 0;
  const steps = (request: ModelRequest) =>
    request.messages.some((message) => message.role === 'tool')
      ? { text: 'Paid.' }
      : { text: 'Paying.', toolCalls: [{ id: 'call_1', name: 'pay', args: { invoice: '42' } }] };
  const pay = {
    spec: { name: 'pay', description: 'Pays an invoice.', inputSchema: { type: 'object' } },
    idempotent: false,
    needsApproval: true,
    execute: async () => ({ content: `payment ${(payments += 1)}` }),
  };
  const tokenizer = createApproximateCounter();
  const agent = new Agent({ model: scriptedModel({ steps }), tools: [pay], store, context: { tokenizer, budget: 100_000 } });
  const episodes = await DbosEpisodes.launch({ agent, databaseUrl: url, schema: 'dbos_test_sys', leaseMs: 2_000 });
  const client = await EpisodesClient.create({ databaseUrl: url, schema: 'dbos_test_sys' });
  try {
    await client.start({ sessionId: 's1', episode: 0, input: 'Pay invoice 42.' });
    // Paused on the call: the assistant message is stored, the call has no result, nothing was paid.
    for (let tries = 0; tries < 400; tries += 1) {
      if (((await store.load('s1'))?.messages.length ?? 0) >= 2) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await store.load('s1'))?.messages.map((message) => message.role)).toEqual(['user', 'assistant']);
    expect(payments).toBe(0);
    expect((await client.statuses()).map((status) => status.status)).toEqual(['PENDING']);

    await client.approve({ sessionId: 's1', episode: 0, callId: 'call_1' }, { decision: 'approved', note: 'ok' });
    expect(await episodes.result('s1', 0)).toEqual({ status: 'finished', reason: 'done', text: 'Paid.' });
    expect(payments).toBe(1);
    const messages = (await store.load('s1'))?.messages ?? [];
    expect(messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(messages[2]).toMatchObject({ role: 'tool', toolCallId: 'call_1', approval: { decision: 'approved' } });
    // A workflow id is run once: starting the episode again changes nothing.
    await client.start({ sessionId: 's1', episode: 0, input: 'Pay invoice 42.' });
    expect(await episodes.result('s1', 0)).toEqual({ status: 'finished', reason: 'done', text: 'Paid.' });
    expect((await store.load('s1'))?.messages).toHaveLength(4);
  } finally {
    await client.close();
    await episodes.shutdown();
    await store.close();
    await pool.end();
  }
}, 120_000);
