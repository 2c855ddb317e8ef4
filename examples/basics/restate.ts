/**
 * Durable episodes on Restate: each session is a Restate virtual object (its single
 * writer) and each episode a workflow whose model calls and tool executions are
 * journaled steps; a call that needs approval is a durable promise that survives the
 * death of the worker and of the server, decided from any process.
 *
 * Needs a Restate server: RESTATE_INGRESS_URL and RESTATE_ADMIN_URL (e.g.
 * http://localhost:8080 and http://localhost:9070), and DATABASE_URL for the session
 * store (a memory store without it). Offline model by default; set ANTHROPIC_API_KEY
 * to ask Claude instead.
 */
import { Agent, MemorySessionStore } from '@episodic/core';
import { scriptedModel } from '@episodic/core/testing';
import { PostgresSessionStore } from '@episodic/postgres';
import { createAnthropicAdapter } from '@episodic/providers/anthropic';
import { EpisodesClient, serveEpisodes } from '@episodic/restate';
import { defineTool } from '@episodic/tools';
import { z } from 'zod';

const ingressUrl = process.env.RESTATE_INGRESS_URL;
const adminUrl = process.env.RESTATE_ADMIN_URL;
if (!ingressUrl || !adminUrl) throw new Error('Set RESTATE_INGRESS_URL and RESTATE_ADMIN_URL to a Restate server, e.g. http://localhost:8080 and :9070');

const pay = defineTool({
  name: 'pay',
  description: 'Pays an invoice.',
  input: z.object({ invoice: z.string() }),
  // Never run twice after a crash, and never without a person's go-ahead.
  idempotent: false,
  needsApproval: true,
  execute: ({ invoice }) => `paid invoice ${invoice}`,
});
const model = process.env.ANTHROPIC_API_KEY
  ? createAnthropicAdapter({ model: 'claude-sonnet-4-6' })
  : scriptedModel({ steps: (request) =>
      request.messages.at(-1)?.role === 'tool'
        ? { text: 'Invoice 42 is paid.' }
        : { toolCalls: [{ name: 'pay', args: { invoice: '42' } }] } });
const databaseUrl = process.env.DATABASE_URL;
const store = databaseUrl ? new PostgresSessionStore({ connectionString: databaseUrl }) : new MemorySessionStore();

// In every worker process: an HTTP/2 endpoint the Restate server calls.
const endpoint = await serveEpisodes({ agent: new Agent({ model, tools: [pay], store }) });
// Once per deployment (here, for this one endpoint): tell the server where the endpoint is.
const registered = await fetch(`${adminUrl}/deployments`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ uri: endpoint.url, force: true }),
});
if (!registered.ok) throw new Error(`registering ${endpoint.url}: ${registered.status} ${await registered.text()}`);

// In any process: a client of the server's ingress.
const client = new EpisodesClient(ingressUrl);
try {
  const sessionId = `invoice-${Date.now()}`;
  // Episode 0 is the session's first: the number is the send's idempotency key.
  await client.send({ sessionId, episode: 0, input: 'Pay invoice 42.' });

  // A person sees what waits, in which episode, and decides it.
  let waiting = await client.pending(sessionId);
  while (waiting.length === 0) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    waiting = await client.pending(sessionId);
  }
  for (const call of waiting) {
    console.log(`waiting: ${call.toolName}(${JSON.stringify(call.args)}) in episode ${call.episode}`);
    await client.approve({ sessionId, callId: call.callId }, { decision: 'approved' });
  }

  const summary = await client.result(sessionId, 0);
  console.log(`${summary.status}: ${summary.text}`);
} finally {
  await endpoint.close();
  if (store instanceof PostgresSessionStore) await store.close();
}
