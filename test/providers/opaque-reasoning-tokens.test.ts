/**
 * Opaque-only reasoning (Responses `encrypted_content`, Anthropic
 * `redacted_thinking`) is billed and fills the context window though its text is
 * empty or a short summary. The adapters record the reasoning tokens the provider
 * reported on the part, and the token counter weighs the part by them.
 */
import { createTokenCounter, generate, type ReasoningPart } from '@episodic/core';
import { createAnthropicAdapter } from '@episodic/providers/anthropic';
import { createOpenAIResponsesAdapter } from '@episodic/providers/openai';
import { afterEach, describe, expect, it } from 'vitest';
import { startAnthropicServer } from '../servers/anthropic-server.js';
import { startOpenAIResponsesServer } from '../servers/openai-responses-server.js';
import type { ScriptedServer } from '../servers/scripted-server.js';

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const user = { role: 'user' as const, content: 'CI is red' };

describe('opaque reasoning is counted by what it holds', () => {
  it('Responses: an encrypted item with a one-line summary weighs its reported reasoning tokens', async () => {
    server = await startOpenAIResponsesServer();
    server.enqueue({ type: 'reply', reasoning: ['Looked.'], text: 'Flaky.', usage: { reasoning: 7_800, output: 7_900 } });
    const adapter = createOpenAIResponsesAdapter({ model: 'gpt-5', baseURL: server.url, apiKey: 'test-key' });
    const { message } = await generate(adapter, { messages: [user] });
    const reasoning = message.content.find((part): part is ReasoningPart => part.type === 'reasoning');
    expect(reasoning?.tokens).toBe(7_800);
    expect(createTokenCounter().countMessage(message)).toBeGreaterThan(7_800);
  });

  it('Anthropic: thinking and redacted thinking share the reported thinking tokens; the redacted block is not ~2 tokens', async () => {
    server = await startAnthropicServer();
    server.enqueue({ type: 'reply', reasoning: ['plan'], redactedReasoning: true, text: 'ok', usage: { reasoning: 900 } });
    const adapter = createAnthropicAdapter({ model: 'claude-sonnet-4-5', baseURL: server.url, apiKey: 'test-key' });
    const { message } = await generate(adapter, { messages: [user] });
    const parts = message.content.filter((part): part is ReasoningPart => part.type === 'reasoning');
    expect(parts.map((part) => part.redacted === true)).toEqual([false, true]);
    expect(parts.reduce((sum, part) => sum + (part.tokens ?? 0), 0)).toBe(900);
    expect(parts.every((part) => (part.tokens ?? 0) > 0)).toBe(true);
    expect(createTokenCounter().countMessage(message)).toBeGreaterThanOrEqual(900);
  });

  it("falls back to the message's reported reasoning tokens, then to an estimate from the payload size", () => {
    const encrypted: ReasoningPart = {
      type: 'reasoning',
      text: 'Looked.',
      providerData: { provider: 'openai', model: 'gpt-5', id: 'rs_1', encrypted_content: 'x'.repeat(400) },
    };
    const usage = { inputTokens: 10, outputTokens: 3_000, reasoningTokens: 2_500 };
    expect(createTokenCounter().countMessage({ role: 'assistant', content: [encrypted], usage })).toBeGreaterThan(2_500);
  });

  it('without a report, estimates from the payload size (a transcript written before parts recorded it)', () => {
    const counter = createTokenCounter();
    const part: ReasoningPart = {
      type: 'reasoning',
      text: '',
      redacted: true,
      providerData: { provider: 'anthropic', model: 'claude-sonnet-4-5', data: 'A'.repeat(5_000) },
    };
    const tokens = counter.countMessage({ role: 'assistant', content: [part] });
    expect(tokens).toBeGreaterThanOrEqual(1_000);
  });
});
