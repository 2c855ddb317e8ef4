/**
 * Durable episodes on DBOS: each episode is a workflow on the PostgreSQL the session
 * store uses; every model call and tool execution is a checkpointed step, and a call
 * that needs approval waits durably until someone decides it, from any process. A
 * worker that dies mid-episode costs nothing finished: a live worker replays it.
 *
 * Needs DATABASE_URL (e.g. postgres://user:pass@localhost:5432/app). Offline model
 * by default; set ANTHROPIC_API_KEY to ask Claude instead.
 */
import { Agent } from '@episodic/core';
import { scriptedModel } from '@episodic/core/testing';
import { DbosEpisodes, EpisodesClient } from '@episodic/dbos';
import { PostgresSessionStore } from '@episodic/postgres';
import { createAnthropicAdapter } from '@episodic/providers/anthropic';
import { defineTool } from '@episodic/tools';
import { z } from 'zod';

const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) throw new Error('Set DATABASE_URL to a PostgreSQL database, e.g. postgres://localhost/app');

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

const store = new PostgresSessionStore({ connectionString: databaseUrl });
// In every worker process: launch once (workers may start together).
const episodes = await DbosEpisodes.launch({ agent: new Agent({ model, tools: [pay], store }), databaseUrl });
// In any process (a web server, a CLI): a client, which launches nothing.
const client = await EpisodesClient.create({ databaseUrl });
try {
  const sessionId = `invoice-${Date.now()}`;
  // Episode 0 is the session's first: the number is the start's idempotency key.
  await client.start({ sessionId, episode: 0, input: 'Pay invoice 42.' });

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
  await client.close();
  await episodes.shutdown();
  await store.close();
}
