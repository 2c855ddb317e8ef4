/**
 * Reasoning stats and leak checks through the agent loop with the OpenAI-compatible
 * adapter over the loopback chat server (Z.AI family: reasoning in
 * `reasoning_content`, usage with `reasoning_tokens`).
 */
import { Agent, type AgentEvent } from '@episodic/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createOpenAICompatibleAdapter } from '../../packages/providers/src/openai-compatible/openai-compatible-adapter.js';
import { startOpenAIChatServer } from '../servers/openai-chat-server.js';
import type { OpenAIScriptedServer } from '../servers/openai-responses-server.js';

const trace = 'The failing job times out because the fixture server starts after the test begins.';

let server: OpenAIScriptedServer;
beforeEach(async () => {
  server = await startOpenAIChatServer('zai');
});
afterEach(async () => {
  await server.close();
});

async function ask(text: string) {
  server.enqueue({ type: 'reply', reasoning: [trace], text });
  const model = createOpenAICompatibleAdapter({ provider: 'zai', model: 'glm-4.6', baseURL: server.url, apiKey: 'k' });
  const session = await new Agent({ model, context: { budget: 100_000 } }).session();
  const events: AgentEvent[] = [];
  const result = await session.send('Why is CI red?', { onEvent: (event) => events.push(event) });
  return { events, result, session };
}

describe('reasoning stats and leaks over the wire', () => {
  it('counts the streamed reasoning and visible text, with the provider`s reasoning tokens', async () => {
    const { events, result } = await ask('Start the fixture server before the tests.');
    const step = events.find((event) => event.type === 'reasoning-stats' && event.scope === 'step');
    expect(step).toMatchObject({ step: 1, stats: { reasoningTokens: expect.any(Number) } });
    const stats = step?.type === 'reasoning-stats' ? step.stats : undefined;
    expect(stats?.reasoningTokens).toBeGreaterThan(stats?.visibleTokens ?? Number.POSITIVE_INFINITY);
    expect(stats?.reportedReasoningTokens).toBeGreaterThan(0);
    expect(result.reasoning.stats).toEqual(stats);
    expect(events.some((event) => event.type === 'reasoning-leak')).toBe(false);
  });

  it('flags a trace echoed in the answer and Harmony tokens that reached it', async () => {
    const { events, session } = await ask(`Summary: ${trace.toUpperCase()}<|end|>`);
    const leak = events.find((event) => event.type === 'reasoning-leak');
    expect(leak?.type === 'reasoning-leak' && leak.findings.map((finding) => finding.kind)).toEqual([
      'trace-echo',
      'service-token',
    ]);
    expect(session.reasoning.leaks.map((finding) => finding.messageIndex)).toEqual([1, 1]);
  });
});
