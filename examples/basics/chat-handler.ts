/**
 * A chat endpoint you mount: `createChatHandler` is a fetch-style
 * `(Request) => Promise<Response>` (a Next.js route, Hono, Deno.serve, Bun.serve
 * take it as is); `toNodeListener` puts it on Node's http server. It streams each
 * episode as the AI SDK UI message stream (what `useChat` reads), keeps a session
 * per chat id, and lists and takes decisions on tool calls that wait for a person.
 *
 * Offline by default; set ANTHROPIC_API_KEY to ask Claude instead.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createChatHandler, toNodeListener } from '@episodic/chat';
import { Agent } from '@episodic/core';
import { scriptedModel } from '@episodic/core/testing';
import { createAnthropicAdapter } from '@episodic/providers/anthropic';
import { defineTool } from '@episodic/tools';
import { z } from 'zod';

const refund = defineTool({
  name: 'refund',
  description: 'Refunds an order.',
  input: z.object({ order: z.string() }),
  needsApproval: true,
  execute: ({ order }) => `refunded ${order}`,
});
const model = process.env.ANTHROPIC_API_KEY
  ? createAnthropicAdapter({ model: 'claude-sonnet-4-6' })
  : scriptedModel({ steps: [{ toolCalls: [{ name: 'refund', args: { order: 'A-17' } }] }, { text: 'Order A-17 is refunded.' }] });

const handler = createChatHandler({ agent: new Agent({ model, tools: [refund] }) });
const server = createServer(toNodeListener(handler)).listen(0, '127.0.0.1');
await new Promise((resolve) => server.once('listening', resolve));
const api = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/chat`;

/** What a browser's chat client does: POST JSON, read the server-sent events. */
async function post(path: string, body: unknown): Promise<string> {
  const response = await fetch(`${api}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return response.text();
}
const textOf = (events: string) =>
  events
    .split('\n\n')
    .filter((event) => event.startsWith('data: {'))
    .map((event) => JSON.parse(event.slice('data: '.length)) as { type: string; delta?: string })
    .filter((chunk) => chunk.type === 'text-delta')
    .map((chunk) => chunk.delta)
    .join('');

await post('', { id: 'chat-1', message: { role: 'user', parts: [{ type: 'text', text: 'Refund order A-17.' }] } });
const listed = await fetch(`${api}/approvals?id=chat-1`);
const { pending } = (await listed.json()) as { pending: Array<{ callId: string; toolName: string; args: unknown }> };
console.log('waiting:', pending.map((call) => `${call.toolName} ${JSON.stringify(call.args)}`).join(', '));
await post('/approvals', { id: 'chat-1', callId: pending[0]!.callId, decision: 'approved' });
console.log('answer:', textOf(await post('/resume', { id: 'chat-1' })));
// A page on another site may not drive it (nor may a DNS-rebound one).
const foreign = await fetch(api, { method: 'POST', headers: { 'content-type': 'application/json', origin: 'https://evil.example' }, body: '{}' });
console.log('foreign origin:', foreign.status);
server.close();
