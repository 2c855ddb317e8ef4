/**
 * Anthropic's cache lookup walks back at most 20 content blocks from each
 * breakpoint. When the next user message strips an episode's thinking, the request
 * changes from that episode's first assistant message on: the next episode reads
 * the cache only up to the episode's question, and only if a breakpoint sits within
 * 20 blocks of it. The loopback server models the lookback; a long episode (more
 * than 20 blocks) is followed by a new question, through the real agent loop.
 */
import { Agent, type AgentEvent, MemorySessionStore } from '@episodic/core';
import { createAnthropicAdapter } from '@episodic/providers/anthropic';
import { afterEach, describe, expect, it } from 'vitest';
import { startAnthropicServer } from '../servers/anthropic-server.js';
import type { ScriptedServer } from '../servers/scripted-server.js';
import { testAgentTools } from './conformance-tools.js';

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

interface StreamUsage {
  cacheRead: number;
  input: number;
}

describe('anthropic breakpoints and the 20-block lookback', () => {
  it('the first call of the next episode reads the cache up to the previous question', async () => {
    server = await startAnthropicServer();
    const steps = 12;
    for (let index = 0; index < steps; index += 1)
      server.enqueue({ type: 'reply', reasoning: [`look ${index}`], toolCalls: [{ name: 'get_ci_log', args: { run: index } }] });
    server.enqueue({ type: 'reply', reasoning: ['done'], text: 'The test is flaky.' }, { type: 'reply', text: 'Re-run it.' });
    const adapter = createAnthropicAdapter({ model: 'claude-sonnet-4-5', baseURL: server.url, apiKey: 'test-key' });
    const agent = new Agent({ model: adapter, system: 'You debug CI.', tools: testAgentTools, store: new MemorySessionStore() });
    const session = await agent.session({ id: 'lookback' });
    const usages: StreamUsage[] = [];
    const onEvent = (event: AgentEvent) => {
      if (event.type === 'step-finish' && event.usage)
        usages.push({ cacheRead: event.usage.cachedInputTokens ?? 0, input: event.usage.inputTokens });
    };
    await session.send(`CI is red on main since this morning. ${'The nightly job and the merge queue both fail. '.repeat(4)}`, { onEvent });
    await session.send('What now?', { onEvent });
    expect(server.modelCalls().map((call) => call.error)).toEqual(Array(steps + 2).fill(undefined));
    // The stable prefix is what the episode's first call sent: system, tools and its question.
    // The episode's second call read what its first call wrote: system, tools and the question.
    const stablePrefix = usages[1]?.cacheRead ?? 0;
    expect(stablePrefix).toBeGreaterThan(0);
    expect(usages[steps + 1]?.cacheRead).toBe(stablePrefix);
  });
});
