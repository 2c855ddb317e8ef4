/**
 * Shared pieces of the native-context round-trip suites: a loopback Messages API that
 * replays Anthropic streams in the recorded shape (vercel/ai `anthropic-compaction.1.chunks.txt`:
 * the block starts with `content: null`, one `compaction_delta` carries the final values),
 * readers of the bodies it kept, and a stored transcript of each provider (compaction,
 * reasoning, kept provider blocks, a tool pair) for the frozen-transcript checks.
 */
import type { Message } from '@episodic/core';
import { createAnthropicAdapter } from '@episodic/providers/anthropic';
import { afterAll } from 'vitest';
import type { CapturedBody } from '../support/sdk-param-check.js';
import { headerRecord, readJsonBody, startLoopbackServer, startSse, writeSseEvent } from '../servers/sse.js';

/** One server-sent event of a Messages stream. */
export type SseEvent = Record<string, unknown> & { type: string };

/**
 * What one round-trip test file shares: the bodies its tests capture (type-checked by
 * its last test) and the loopback servers they start, closed after all its tests.
 */
export function roundTripFile() {
  const captured: CapturedBody[] = [];
  const closers: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const close of closers.splice(0)) await close();
  });
  return { captured, closers, anthropicReplay: (streams: SseEvent[][]) => anthropicReplay(streams, closers) };
}

/** A loopback Messages API that streams the given event lists in turn and keeps each request; its close goes to `closers`. */
export async function anthropicReplay(streams: SseEvent[][], closers: (() => Promise<void>)[]) {
  const bodies: Record<string, unknown>[] = [];
  const server = await startLoopbackServer(async (request, response) => {
    headerRecord(request);
    bodies.push((await readJsonBody(request)) as Record<string, unknown>);
    const events = streams.shift();
    if (!events) throw new Error('no stream left for this request');
    startSse(response);
    for (const event of events) writeSseEvent(response, event, { event: event.type });
    response.end();
  });
  closers.push(() => server.close());
  return { url: server.url, bodies };
}

export const usage = { input_tokens: 30, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 1 };
export const start = (): SseEvent => ({
  type: 'message_start',
  message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-sonnet-4-6', content: [], stop_reason: null, stop_sequence: null, usage },
});
export const finish = (stop: string): SseEvent[] => [
  { type: 'message_delta', delta: { stop_reason: stop, stop_sequence: null }, usage: { ...usage, output_tokens: 20 } },
  { type: 'message_stop' },
];
export const compaction = (index: number, content: string | null, encrypted: string | null): SseEvent[] => [
  { type: 'content_block_start', index, content_block: { type: 'compaction', content: null } },
  { type: 'content_block_delta', index, delta: { type: 'compaction_delta', content, encrypted_content: encrypted } },
  { type: 'content_block_stop', index },
];
export const text = (index: number, value: string): SseEvent[] => [
  { type: 'content_block_start', index, content_block: { type: 'text', text: '' } },
  { type: 'content_block_delta', index, delta: { type: 'text_delta', text: value } },
  { type: 'content_block_stop', index },
];
export const answer = (value: string): SseEvent[] => [start(), ...text(0, value), ...finish('end_turn')];

export type WireMessage = { role: string; content: string | Record<string, unknown>[] };
export const messagesOf = (body: Record<string, unknown> | undefined) => (body?.messages ?? []) as WireMessage[];
export const blocksOf = (body: Record<string, unknown> | undefined) =>
  messagesOf(body).flatMap((message) => (Array.isArray(message.content) ? message.content : []));
export const breakpoints = (body: Record<string, unknown> | undefined) =>
  JSON.stringify(body).split('"cache_control"').length - 1;

export const claude = (url: string) =>
  createAnthropicAdapter({ model: 'claude-sonnet-4-6', baseURL: url, apiKey: 'test-key', thinking: { type: 'disabled' } });

/** Freezes `value` and everything it holds, so a write anywhere throws (modules run in strict mode). */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  for (const child of Object.values(value)) deepFreeze(child);
  return Object.freeze(value);
}

export const anthropicTag = { provider: 'anthropic', model: 'claude-sonnet-4-6' };
export const openaiTag = { provider: 'openai', model: 'gpt-5.6' };

/** A transcript with a stored compaction, reasoning, kept provider blocks and tool pairs, for `tag`'s provider. */
export function storedTranscript(provider: 'anthropic' | 'openai' | 'google'): Message[] {
  const tag = provider === 'anthropic' ? anthropicTag : provider === 'openai' ? openaiTag : { provider: 'google', model: 'gemini-3-pro-preview' };
  const compactionData =
    provider === 'anthropic'
      ? { ...tag, block: { type: 'compaction', content: 'Summary.', encrypted_content: 'enc' } }
      : { ...tag, item: { type: 'compaction', id: 'cmp_1', encrypted_content: 'enc', created_by: 'system' } };
  const reasoningData =
    provider === 'anthropic'
      ? { ...tag, prefix: 'stale' }
      : provider === 'openai'
        ? { ...tag, id: 'rs_1', encrypted_content: 'enc-rs', summary: [] }
        : { ...tag, thoughtSignature: 'sig' };
  const kept =
    provider === 'anthropic'
      ? { ...tag, block: { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'ci' } } }
      : provider === 'openai'
        ? { ...tag, item: { type: 'web_search_call', id: 'ws_1', status: 'completed', action: { type: 'search', query: 'ci' }, created_by: 'system' } }
        : { ...tag, part: { codeExecutionResult: { output: '1' } } };
  return [
    { role: 'user', content: 'Is CI green?' },
    { role: 'assistant', model: { provider: tag.provider, id: tag.model }, content: [{ type: 'compaction', text: 'Summary.', providerData: compactionData }] },
    { role: 'user', content: 'Look again.' },
    {
      role: 'assistant',
      model: { provider: tag.provider, id: tag.model },
      content: [
        { type: 'reasoning', text: 'Check the log.', signature: 'sig', providerData: reasoningData },
        { type: 'provider-tool', name: 'web_search', kind: 'call', providerData: kept },
        { type: 'tool-call', id: 'call_1', name: 'read_log', args: { lines: 10 }, providerData: { ...tag, id: 'fc_1' } },
      ],
    },
    { role: 'tool', toolCallId: 'call_1', toolName: 'read_log', content: 'all passed' },
  ];
}

export const tools = [{ name: 'read_log', description: 'Reads the log.', inputSchema: { type: 'object', properties: { lines: { type: 'number' } } } }];
