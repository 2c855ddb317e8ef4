/**
 * Reasoning at rest with a model that needs past reasoning back (DeepSeek thinking,
 * `tool-episodes`), through the agent loop, the OpenAI-compatible adapter and the
 * strict loopback server: the stored transcript holds no reasoning, reopening warns,
 * and the next call then lacks the model's earlier thinking unless a replay cache
 * restores it.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, type AgentTool } from '@episodic/core';
import { MemoryReplayCache, type ReplayCache } from '@episodic/core/reasoning';
import { FileSessionStore } from '@episodic/core/node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createOpenAICompatibleAdapter } from '../../packages/providers/src/openai-compatible/openai-compatible-adapter.js';
import { startOpenAIChatServer } from '../servers/openai-chat-server.js';
import type { OpenAIScriptedServer } from '../servers/openai-responses-server.js';

const getLog: AgentTool = {
  spec: { name: 'get_ci_log', description: 'Reads a CI log', inputSchema: { type: 'object', properties: {} } },
  execute: async () => ({ content: 'FAIL: timeout' }),
};

let server: OpenAIScriptedServer;
let directory: string;
beforeEach(async () => {
  server = await startOpenAIChatServer('deepseek-thinking');
  directory = await mkdtemp(join(tmpdir(), 'episodic-at-rest-wire-'));
});
afterEach(async () => {
  await server.close();
  await rm(directory, { recursive: true, force: true });
});

function agent(replayCache?: ReplayCache) {
  const model = createOpenAICompatibleAdapter({
    provider: 'deepseek',
    model: 'deepseek-v4-pro',
    baseURL: server.url,
    apiKey: 'k',
  });
  const store = new FileSessionStore({ directory, sync: false });
  return new Agent({
    model,
    tools: [getLog],
    store,
    context: { budget: 100_000 },
    reasoning: { replayCache, persist: 'current-episode' },
  });
}

async function firstEpisode(replayCache?: ReplayCache) {
  server.enqueue(
    { type: 'reply', reasoning: ['PRIVATE need the log'], toolCalls: [{ name: 'get_ci_log', args: {} }] },
    { type: 'reply', reasoning: ['PRIVATE flaky'], text: 'A flaky timeout.' },
  );
  await (await agent(replayCache).session({ id: 's' })).send('CI is red');
  expect(await readFile(join(directory, 's.jsonl'), 'utf8')).not.toContain('PRIVATE');
}

function pastToolCall() {
  const body = server.modelCalls().at(-1)?.body as { messages: Record<string, unknown>[] } | undefined;
  return body?.messages.find((message) => message.tool_calls);
}

describe('reasoning at rest with DeepSeek thinking', () => {
  it('warns on reload, and the next call carries no past reasoning', async () => {
    await firstEpisode();
    const reopened = await agent().session({ id: 's' });
    expect(reopened.warnings[0]).toMatch(/persistReasoning 'current-episode'/);
    server.enqueue({ type: 'reply', text: 'Re-run it.' });
    await reopened.send('What now?');
    expect(pastToolCall()?.reasoning_content).toBe('');
  });

  it('with a replay cache the reloaded session gets its reasoning back', async () => {
    const cache = new MemoryReplayCache();
    await firstEpisode(cache);
    const reopened = await agent(cache).session({ id: 's' });
    expect(reopened.warnings).toEqual([]);
    server.enqueue({ type: 'reply', text: 'Re-run it.' });
    await reopened.send('What now?');
    expect(pastToolCall()?.reasoning_content).toBe('PRIVATE need the log');
  });
});
