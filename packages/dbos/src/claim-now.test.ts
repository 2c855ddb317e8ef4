/**
 * An episode a worker starts runs at once, without waiting for the queue's poll
 * (claim-now.ts), and the claim keeps the queue's order: a session's next episode
 * does not start while its previous one runs. Real PostgreSQL; the poll is made slow
 * (5 s) so only the claim can start an episode sooner.
 */
import { Agent, type EpisodeRequest, type ModelRequest } from '@episodic/core';
import { createApproximateCounter, scriptedModel } from '@episodic/core/testing';
import { PostgresSessionStore } from '@episodic/postgres';
import { serverPerFile } from '@episodic/postgres/testing';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DbosEpisodes } from './dbos-episodes.js';

const server = serverPerFile();
beforeAll(() => server.url().then(() => {}, () => {}), 120_000);
afterAll(() => server.stop());

const POLL_MS = 5_000;

it('starts an episode enqueued by a worker at once, and a session\'s next episode only after it', async () => {
  const url = await server.url();
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  for (const schema of ['claim_test', 'claim_test_sys']) await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  const store = new PostgresSessionStore({ pool, schema: 'claim_test' });
  await store.migrate();
  const steps = (request: ModelRequest) =>
    request.messages.at(-1)?.role === 'tool'
      ? { text: `Done ${request.messages.filter((message) => message.role === 'user').length}.` }
      : { text: 'Working.', toolCalls: [{ id: `call_${request.messages.length}`, name: 'wait', args: {} }] };
  const wait = {
    spec: { name: 'wait', description: 'Takes a while.', inputSchema: { type: 'object' } },
    execute: async () => {
      await new Promise((resolve) => setTimeout(resolve, 300));
      return { content: 'waited' };
    },
  };
  const tokenizer = createApproximateCounter();
  const agent = new Agent({ model: scriptedModel({ steps }), tools: [wait], store, tokenizer, budget: 100_000 });
  const events: string[] = [];
  const name = (request: EpisodeRequest) => `${request.sessionId}/${request.episode}`;
  const observe = {
    start: (request: EpisodeRequest) => events.push(`start ${name(request)}`),
    end: (request: EpisodeRequest) => events.push(`end ${name(request)}`),
  };
  const episodes = await DbosEpisodes.launch({ agent, databaseUrl: url, schema: 'claim_test_sys', queuePollMs: POLL_MS, leaseMs: 10_000, observe });
  try {
    const began = performance.now();
    await episodes.start({ sessionId: 'now', episode: 0, input: 'Go.' });
    expect(await episodes.result('now', 0)).toEqual({ status: 'finished', reason: 'done', text: 'Done 1.' });
    // Well before the queue's first poll (at least POLL_MS after launch).
    expect(performance.now() - began).toBeLessThan(POLL_MS / 2);

    await episodes.start({ sessionId: 'order', episode: 0, input: 'First.' });
    await episodes.start({ sessionId: 'order', episode: 1, input: 'Second.' });
    expect(await episodes.result('order', 1)).toEqual({ status: 'finished', reason: 'done', text: 'Done 2.' });
    expect(events.filter((event) => event.includes('order/'))).toEqual(['start order/0', 'end order/0', 'start order/1', 'end order/1']);
  } finally {
    await episodes.shutdown();
    await store.close();
    await pool.end();
  }
}, 120_000);
