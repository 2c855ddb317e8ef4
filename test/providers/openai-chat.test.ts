/**
 * The OpenAI Chat Completions adapter against the loopback chat server: the shared
 * conformance suite (no reasoning is ever sent back on this endpoint) and the
 * routing rule for models that need Responses for tools with reasoning.
 */
import { generate, type ToolSpec } from '@episodic/core';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { createOpenAIChatAdapter } from '../../packages/providers/src/openai-chat/openai-chat-adapter.js';
import { ChatToolsNeedResponsesError } from '../../packages/providers/src/openai-chat/openai-chat-error.js';
import { startOpenAIChatServer } from '../servers/openai-chat-server.js';
import type { OpenAIScriptedServer } from '../servers/openai-responses-server.js';
import { runConformance } from './conformance.js';

runConformance({
  name: 'openai chat completions (gpt-5, reasoning never sent back)',
  startServer: () => startOpenAIChatServer('openai'),
  createAdapter: (url, { model }) => createOpenAIChatAdapter({ model, baseURL: url, apiKey: 'test-key' }),
  models: { primary: 'gpt-5', secondary: 'gpt-4.1' },
  echoesReasoning: false,
  hooks: {
    afterScenario(_scenario, { calls }) {
      for (const call of calls) {
        const body = call.body as { messages: Record<string, unknown>[]; stream_options?: unknown };
        expect(body.stream_options).toEqual({ include_usage: true });
        for (const message of body.messages) {
          expect(Object.keys(message).filter((key) => /reason|think/.test(key))).toEqual([]);
        }
      }
    },
  },
});

const tools: ToolSpec[] = [{ name: 'get_ci_log', description: 'Reads a CI log', inputSchema: { type: 'object' } }];

describe('OpenAI Chat Completions adapter', () => {
  let server: OpenAIScriptedServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('maps reasoning effort and usage with cached and reasoning tokens', async () => {
    server = await startOpenAIChatServer('openai');
    server.enqueue({
      type: 'reply',
      reasoning: ['hidden on this endpoint'],
      text: 'ok',
      usage: { input: 2048, cacheRead: 1024, output: 40, reasoning: 30 },
    });
    const adapter = createOpenAIChatAdapter({
      model: 'o4-mini',
      baseURL: server.url,
      apiKey: 'k',
      reasoningEffort: 'high',
    });
    const result = await generate(adapter, { messages: [{ role: 'user', content: 'hi' }] });
    expect(server.requests[0]?.body).toMatchObject({ reasoning_effort: 'high' });
    expect(result.usage).toEqual({ inputTokens: 2048, cachedInputTokens: 1024, outputTokens: 40, reasoningTokens: 30 });
    expect(result.message.content).toEqual([{ type: 'text', text: 'ok' }]);
  });

  it('refuses, before sending, tools with reasoning on a model whose profile needs Responses', async () => {
    server = await startOpenAIChatServer('openai');
    const adapter = createOpenAIChatAdapter({ model: 'gpt-5.4', baseURL: server.url, apiKey: 'k' });
    const call = generate(adapter, { messages: [{ role: 'user', content: 'hi' }], tools });
    await expect(call).rejects.toBeInstanceOf(ChatToolsNeedResponsesError);
    await expect(call).rejects.toThrow(/createOpenAIResponsesAdapter/);
    expect(server.requests).toHaveLength(0);
    // With reasoning switched off the same request is valid on this endpoint.
    const off = createOpenAIChatAdapter({
      model: 'gpt-5.4',
      baseURL: server.url,
      apiKey: 'k',
      reasoningEffort: 'none',
    });
    await expect(generate(off, { messages: [{ role: 'user', content: 'hi' }], tools })).resolves.toBeDefined();
  });

  it('the server answers tools with reasoning effort on such a model with OpenAI’s error', async () => {
    server = await startOpenAIChatServer('openai');
    const adapter = createOpenAIChatAdapter({
      model: 'gpt-5.4',
      baseURL: server.url,
      apiKey: 'k',
      profile: { chatToolsNeedResponses: false },
    });
    const error = await generate(adapter, { messages: [{ role: 'user', content: 'hi' }], tools }).catch((e) => e);
    expect(error).toMatchObject({ kind: 'invalid-request', status: 400 });
    expect(String(error.message)).toContain(
      'Function tools with reasoning_effort are not supported for gpt-5.4 in /v1/chat/completions. Please use /v1/responses instead.',
    );
  });

  it('the server refuses max_tokens on a reasoning model, and the adapter sends max_completion_tokens', async () => {
    server = await startOpenAIChatServer('openai');
    const adapter = createOpenAIChatAdapter({ model: 'gpt-5', baseURL: server.url, apiKey: 'k' });
    await generate(adapter, { messages: [{ role: 'user', content: 'hi' }], maxOutputTokens: 500 });
    expect(server.requests[0]?.status).toBe(200);
    expect(server.requests[0]?.body).toMatchObject({ max_completion_tokens: 500 });
    const legacy = await new OpenAI({ apiKey: 'k', baseURL: server.url, maxRetries: 0 }).chat.completions
      .create({ model: 'gpt-5', messages: [{ role: 'user', content: 'hi' }], max_tokens: 500 })
      .catch((error: unknown) => error);
    expect(String(legacy)).toContain(
      "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
    );
  });
});
