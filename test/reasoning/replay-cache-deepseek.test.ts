/**
 * The replay cache against the strict loopback DeepSeek thinking server, through the
 * agent loop and the OpenAI-compatible adapter: a caller that dropped
 * `reasoning_content` from its history is rejected with DeepSeek's real error,
 * unless the replay cache (here the file store, reopened as after a restart)
 * puts the reasoning back.
 *
 * The DeepSeek profile's `reasoningRequiredOnToolCalls` makes the adapter send an
 * empty `reasoning_content` where it has none, which the server accepts (the model
 * then continues without its past thinking); the strict case turns that fallback
 * off, so the server sees exactly what the history holds.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, type AgentEvent, type AgentTool, type Message, type ModelAdapter, ModelError } from '@episodic/core';
import { MemoryReplayCache, type ReplayCache } from '@episodic/core/reasoning';
import { FileReplayCache } from '@episodic/core/node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createOpenAICompatibleAdapter } from '../../packages/providers/src/openai-compatible/openai-compatible-adapter.js';
import { startOpenAIChatServer } from '../servers/openai-chat-server.js';
import type { OpenAIScriptedServer } from '../servers/openai-responses-server.js';

const getLog: AgentTool = {
  spec: { name: 'get_ci_log', description: 'Reads a CI log', inputSchema: { type: 'object', properties: {} } },
  execute: async () => ({ content: 'FAIL test/fixtures.test.ts: timeout' }),
};

/** What a chat client that keeps only visible messages sends back: no reasoning, no provenance. */
function visibleOnly(messages: readonly Message[]): Message[] {
  return messages.map((message) => {
    if (message.role !== 'assistant') return message;
    return { role: 'assistant', content: message.content.filter((part) => part.type !== 'reasoning') };
  });
}

let server: OpenAIScriptedServer;
let adapter: ModelAdapter;
let directory: string;
const deepseek = (fallback: boolean) =>
  createOpenAICompatibleAdapter({
    provider: 'deepseek',
    model: 'deepseek-v4-pro',
    baseURL: server.url,
    apiKey: 'test-key',
    profile: fallback ? {} : { reasoningRequiredOnToolCalls: false },
  });
beforeEach(async () => {
  server = await startOpenAIChatServer('deepseek-thinking');
  adapter = deepseek(false);
  directory = await mkdtemp(join(tmpdir(), 'episodic-replay-deepseek-'));
});
afterEach(async () => {
  await server.close();
  await rm(directory, { recursive: true, force: true });
});

const agentWith = (replayCache?: ReplayCache) =>
  new Agent({
    model: adapter,
    tools: [getLog],
    context: { budget: 100_000 },
    reasoning: { replayCache },
    modelCalls: { retry: { maxRetries: 0 } },
  });

/** Episode 1 through an agent with the cache; returns the history as the client kept it. */
async function firstEpisode(cache: ReplayCache): Promise<Message[]> {
  server.enqueue(
    { type: 'reply', reasoning: ['need the log'], toolCalls: [{ name: 'get_ci_log', args: {} }] },
    { type: 'reply', reasoning: ['it is a flaky timeout'], text: 'A flaky timeout.' },
  );
  const session = await agentWith(cache).session();
  await session.send('CI is red');
  return visibleOnly(session.messages);
}

describe('replay cache with DeepSeek thinking mode', () => {
  it('is rejected without the cache: DeepSeek needs reasoning_content on past tool-call messages', async () => {
    const path = join(directory, 'replay.jsonl');
    const history = await firstEpisode(await FileReplayCache.open({ path }));
    const session = await agentWith().session({ history });
    expect(session.warnings[0]).toMatch(/deepseek\/deepseek-v4-pro \(retention "tool-episodes"\) expects it back/);
    const failure = await session.send('What now?').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ModelError);
    expect((failure as ModelError).message).toMatch(/Missing `reasoning_content` field in the assistant message/);
    expect(server.modelCalls().at(-1)?.status).toBe(400);
  });

  it('passes with the cache, restored from the file store after a restart', async () => {
    const path = join(directory, 'replay.jsonl');
    const first = await FileReplayCache.open({ path });
    const history = await firstEpisode(first);
    await first.close();

    const reopened = await FileReplayCache.open({ path });
    const session = await agentWith(reopened).session({ history });
    expect(session.warnings).toEqual([]);
    server.enqueue({ type: 'reply', reasoning: ['re-run it'], text: 'Re-run the job.' });
    const events: AgentEvent[] = [];
    const result = await session.send('What now?', { onEvent: (event) => events.push(event) });
    expect(result.text).toBe('Re-run the job.');
    expect(server.modelCalls().map((call) => call.status)).toEqual([200, 200, 200]);
    const body = server.modelCalls().at(-1)?.body as { messages: Record<string, unknown>[] };
    const assistants = body.messages.filter((message) => message.role === 'assistant');
    expect(assistants[0]?.reasoning_content).toBe('need the log');
    // The final answer of the past episode made no tool calls: DeepSeek does not want its reasoning back.
    expect(assistants[1]).not.toHaveProperty('reasoning_content');
    const restored = events.find((event) => event.type === 'reasoning-restored');
    expect(restored).toMatchObject({ messages: 1, missing: 0 });
    expect(reopened.stats()).toMatchObject({ hits: 1, misses: 0 });
    expect(reopened.stats().restoredTokens).toBeGreaterThan(0);
    await reopened.close();
  });

  it('gives the model its real past thinking, not the adapter`s empty fallback', async () => {
    adapter = deepseek(true);
    const cache = new MemoryReplayCache();
    const history = await firstEpisode(cache);
    server.enqueue({ type: 'reply', text: 'one' }, { type: 'reply', text: 'two' });
    await (await agentWith().session({ history })).send('What now?');
    await (await agentWith(cache).session({ history })).send('What now?');
    const sent = server
      .modelCalls()
      .slice(-2)
      .map((call) => (call.body as { messages: Record<string, unknown>[] }).messages.find((m) => m.tool_calls));
    expect(sent.map((message) => message?.reasoning_content)).toEqual(['', 'need the log']);
  });
});
