/**
 * Approvals on Restate from the attacker's side, against a real Restate server: a
 * decision sent before the call exists is refused and decides nothing later; a
 * `null` decision is refused before it is recorded and does not wedge the episode;
 * `approve()` is safe to retry; a session id the store refuses fails the episode
 * for good instead of being retried forever.
 */
import { Agent, DurableApprovalError, InvalidArgumentError, MemorySessionStore, type ModelRequest } from '@episodic/core';
import { createApproximateCounter, scriptedModel } from '@episodic/core/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { EpisodesClient } from './episodes-client.js';
import { RestateEpisodeError } from './restate-episode-error.js';
import { serveEpisodes } from './serve-episodes.js';
import { EPISODE_WORKFLOW } from './service-names.js';
import { RestateServer } from './testing/restate-server.js';

let server: RestateServer;
let payments = 0;
let proposeAt = 0;
let close: (() => Promise<void>) | undefined;
beforeAll(async () => {
  server = await RestateServer.start();
  // The model proposes the payment only once `proposeAt` has passed: a pre-approval comes first.
  const steps = async (request: ModelRequest) => {
    if (request.messages.at(-1)?.role === 'tool') return { text: 'Paid.' };
    while (Date.now() < proposeAt) await new Promise((resolve) => setTimeout(resolve, 20));
    return { text: 'Paying.', toolCalls: [{ id: 'call_1', name: 'pay', args: { amount: 999 } }] };
  };
  const pay = {
    spec: { name: 'pay', description: 'Pays.', inputSchema: { type: 'object' } },
    idempotent: false,
    needsApproval: true,
    execute: async () => ({ content: `payment ${(payments += 1)}` }),
  };
  const store = new MemorySessionStore();
  const agent = new Agent({ model: scriptedModel({ steps }), tools: [pay], store, context: { tokenizer: createApproximateCounter() } });
  const endpoint = await serveEpisodes({ agent });
  close = () => endpoint.close();
  await server.register(endpoint.url);
}, 90_000);
afterAll(async () => {
  await close?.();
  await server?.stop();
});

async function waitUntil(condition: () => Promise<boolean>): Promise<void> {
  for (let tries = 0; tries < 400; tries += 1) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('timed out');
}

it('refuses a decision for a call not proposed yet; the call, once proposed, still waits for a person', async () => {
  payments = 0;
  proposeAt = Date.now() + 1_500;
  const client = new EpisodesClient(server.ingressUrl);
  await client.send({ sessionId: 'early', episode: 0, input: 'Pay 999.' });
  const early = client.approve({ sessionId: 'early', episode: 0, callId: 'call_1' }, { decision: 'approved' });
  await expect(early).rejects.toBeInstanceOf(DurableApprovalError);
  await expect(early).rejects.toMatchObject({ code: 'approval_not_pending' });
  // Also straight to the handler, around the client's own check.
  const raw = await fetch(`${server.ingressUrl}/${EPISODE_WORKFLOW}/early%2F0/approve`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ callId: 'call_1', decision: { decision: 'approved' } }),
  });
  expect(raw.status).toBe(404);
  await waitUntil(async () => (await client.pending('early')).length > 0);
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(payments).toBe(0);
  expect(await client.pending('early')).toEqual([{ sessionId: 'early', episode: 0, callId: 'call_1', toolName: 'pay', args: { amount: 999 } }]);
  expect((await client.state('early', 0)).status).toBe('pending');
  // No episode number needed once the call waits.
  await client.approve({ sessionId: 'early', callId: 'call_1' }, { decision: 'rejected', reason: 'not this one' });
  expect(await client.result('early', 0)).toEqual({ status: 'finished', reason: 'done', text: 'Paid.' });
  expect(payments).toBe(0);
  // Asking about an episode not started yet changes nothing for it: it runs, waits and is decided as usual.
  await expect(client.approve({ sessionId: 'early', episode: 1, callId: 'call_1' }, { decision: 'approved' })).rejects.toMatchObject({
    code: 'approval_not_pending',
  });
  await client.send({ sessionId: 'early', episode: 1, input: 'Pay 999 again.' });
  await waitUntil(async () => (await client.pending('early')).length > 0);
  const [again] = await client.pending('early');
  expect(again).toMatchObject({ episode: 1, toolName: 'pay' });
  await client.approve({ sessionId: 'early', callId: again!.callId }, { decision: 'approved' });
  expect(await client.result('early', 1)).toMatchObject({ status: 'finished', text: 'Paid.' });
  expect(payments).toBe(1);
}, 60_000);

it('refuses a null decision before recording it; the episode still takes a valid one; approve() is safe to retry', async () => {
  payments = 0;
  proposeAt = 0;
  const client = new EpisodesClient(server.ingressUrl);
  await client.send({ sessionId: 'nulls', episode: 0, input: 'Pay 999.' });
  await waitUntil(async () => (await client.pending('nulls')).length > 0);
  await expect(client.approve({ sessionId: 'nulls', episode: 0, callId: 'call_1' }, null as never)).rejects.toBeInstanceOf(InvalidArgumentError);
  const raw = await fetch(`${server.ingressUrl}/${EPISODE_WORKFLOW}/nulls%2F0/approve`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ callId: 'call_1', decision: null }),
  });
  expect(raw.status).toBe(400);
  expect(await client.pending('nulls')).toHaveLength(1);
  await client.approve({ sessionId: 'nulls', episode: 0, callId: 'call_1' }, { decision: 'approved', note: 'ok' });
  // A retry (the answer was lost) succeeds; another decision is refused with its own code.
  await client.approve({ sessionId: 'nulls', episode: 0, callId: 'call_1' }, { decision: 'approved', note: 'ok' });
  expect(await client.result('nulls', 0)).toMatchObject({ status: 'finished', text: 'Paid.' });
  await client.approve({ sessionId: 'nulls', episode: 0, callId: 'call_1' }, { decision: 'approved', note: 'ok' });
  await expect(client.approve({ sessionId: 'nulls', episode: 0, callId: 'call_1' }, { decision: 'rejected' })).rejects.toMatchObject({
    code: 'approval_decided_otherwise',
  });
  expect(payments).toBe(1);
}, 60_000);

it('a session id the store refuses ends the episode with an error instead of being retried forever', async () => {
  const client = new EpisodesClient(server.ingressUrl);
  await client.send({ sessionId: '..hostile', episode: 0, input: 'hi' });
  const failed = await Promise.race([
    client.result('..hostile', 0).then(
      () => 'finished',
      (error: unknown) => error,
    ),
    new Promise((resolve) => setTimeout(() => resolve('still retrying'), 15_000)),
  ]);
  expect(failed).toBeInstanceOf(RestateEpisodeError);
  expect(failed).toMatchObject({ code: 'restate_episode_failed', message: expect.stringContaining('invalid session id') });
}, 60_000);
