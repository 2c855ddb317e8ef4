/**
 * The Anthropic adapter against the strict loopback Messages API server: the
 * shared conformance suite plus Anthropic-only checks (breakpoints, beta
 * header, thinking config) and tests that the server itself rejects what the
 * real API rejects.
 */
import { inspect } from 'node:util';
import Anthropic from '@anthropic-ai/sdk';
import { assistantText, generate, type Message, ModelError, toolCallsOf } from '@episodic/core';
import { stripForeignReasoning } from '@episodic/core/reasoning';
import { MissingApiKeyError } from '@episodic/providers';
import { type AnthropicAdapterOptions, createAnthropicAdapter } from '@episodic/providers/anthropic';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startAnthropicServer } from '../servers/anthropic-server.js';
import type { ScriptedServer } from '../servers/scripted-server.js';
import { runConformance } from './conformance.js';
import { testToolSpecs } from './conformance-tools.js';

runConformance({
  name: 'anthropic (manual thinking, claude-opus-4-5)',
  startServer: () => startAnthropicServer(),
  createAdapter: (url, { model }) => createAnthropicAdapter({ model, baseURL: url, apiKey: 'test-key' }),
  models: { primary: 'claude-opus-4-5', secondary: 'claude-haiku-4-5' },
  hooks: {
    afterScenario(_scenario, { calls }) {
      for (const call of calls) {
        expect(call.view?.cacheBreakpoints).toBeGreaterThanOrEqual(2);
        expect(call.view?.cacheBreakpoints).toBeLessThanOrEqual(4);
      }
    },
  },
});

runConformance({
  name: 'anthropic (adaptive thinking, prefix-bound signatures, claude-opus-5-5)',
  startServer: () => startAnthropicServer(),
  createAdapter: (url, { model }) => createAnthropicAdapter({ model, baseURL: url, apiKey: 'test-key' }),
  models: { primary: 'claude-opus-5-5', secondary: 'claude-sonnet-5' },
});

describe('anthropic loopback server rejects what the API rejects', () => {
  let server: ScriptedServer;
  let client: Anthropic;
  beforeEach(async () => {
    server = await startAnthropicServer();
    client = new Anthropic({ apiKey: 'test-key', baseURL: server.url, maxRetries: 0 });
  });
  afterEach(() => server.close());

  const tool = { name: 'get_ci_log', description: 'log', input_schema: { type: 'object' as const } };
  const manual = { type: 'enabled' as const, budget_tokens: 2048 };
  const beta = { headers: { 'anthropic-beta': 'interleaved-thinking-2025-05-14' } };

  /** One real step: thinking + a tool call, collected from the stream. */
  async function toolStep(model: string, thinking: Anthropic.ThinkingConfigParam) {
    server.enqueue({
      type: 'reply',
      reasoning: ['step thinking'],
      toolCalls: [{ name: 'get_ci_log', args: { run: 1 } }],
    });
    const first: Anthropic.MessageParam[] = [{ role: 'user', content: 'CI is red' }];
    const stream = await client.messages.create(
      { model, max_tokens: 4096, messages: first, tools: [tool], thinking, stream: true },
      beta,
    );
    const blocks: Anthropic.ContentBlockParam[] = [];
    for await (const event of stream) {
      if (event.type === 'content_block_start' && event.content_block.type === 'thinking')
        blocks.push({ type: 'thinking', thinking: '', signature: '' });
      if (event.type === 'content_block_start' && event.content_block.type === 'tool_use')
        blocks.push({ type: 'tool_use', id: event.content_block.id, name: 'get_ci_log', input: { run: 1 } });
      const last = blocks.at(-1);
      if (event.type === 'content_block_delta' && event.delta.type === 'thinking_delta' && last?.type === 'thinking')
        last.thinking += event.delta.thinking;
      if (event.type === 'content_block_delta' && event.delta.type === 'signature_delta' && last?.type === 'thinking')
        last.signature = event.delta.signature;
    }
    const toolUse = blocks.find((block) => block.type === 'tool_use') as Anthropic.ToolUseBlockParam;
    const result: Anthropic.MessageParam = {
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: toolUse.id, content: 'ok' }],
    };
    return { first, blocks, result };
  }

  const send = (params: Omit<Anthropic.MessageCreateParamsNonStreaming, 'max_tokens'> & { max_tokens?: number }) =>
    client.messages.create({ max_tokens: 4096, ...params, stream: true }, beta).then(
      async (stream) => {
        for await (const _event of stream);
        return 'accepted';
      },
      (error: unknown) => (error instanceof Anthropic.APIError ? `${error.status} ${error.apiMessage}` : String(error)),
    );

  it('accepts the thinking blocks sent back unmodified (control)', async () => {
    const { first, blocks, result } = await toolStep('claude-opus-4-5', manual);
    const outcome = await send({
      model: 'claude-opus-4-5',
      thinking: manual,
      tools: [tool],
      messages: [...first, { role: 'assistant', content: blocks }, result],
    });
    expect(outcome).toBe('accepted');
  });

  it('rejects a modified thinking block in the tool-use turn', async () => {
    const { first, blocks, result } = await toolStep('claude-opus-4-5', manual);
    const modified = blocks.map((block) => (block.type === 'thinking' ? { ...block, thinking: 'edited' } : block));
    const outcome = await send({
      model: 'claude-opus-4-5',
      thinking: manual,
      tools: [tool],
      messages: [...first, { role: 'assistant', content: modified }, result],
    });
    expect(outcome).toMatch(
      /^400 messages\.1\.content\.\d+: `thinking` or `redacted_thinking` blocks in the latest assistant message cannot be modified/,
    );
  });

  it('rejects, in manual mode, a final assistant turn that does not start with thinking', async () => {
    const { first, blocks, result } = await toolStep('claude-opus-4-5', manual);
    const outcome = await send({
      model: 'claude-opus-4-5',
      thinking: manual,
      tools: [tool],
      messages: [...first, { role: 'assistant', content: blocks.filter((block) => block.type !== 'thinking') }, result],
    });
    expect(outcome).toContain(
      '400 messages.1.content.0.type: Expected `thinking` or `redacted_thinking`, but found `tool_use`.',
    );
  });

  it('rejects, in adaptive mode, a tool-use turn sent without its thinking', async () => {
    const adaptive = { type: 'adaptive' as const };
    const { first, blocks, result } = await toolStep('claude-opus-5-5', adaptive);
    const outcome = await send({
      model: 'claude-opus-5-5',
      thinking: adaptive,
      tools: [tool],
      messages: [...first, { role: 'assistant', content: blocks.filter((block) => block.type !== 'thinking') }, result],
    });
    expect(outcome).toContain('cannot be modified');
  });

  it('rejects a prefix-bound signature after its prefix changed', async () => {
    const adaptive = { type: 'adaptive' as const };
    const { blocks, result } = await toolStep('claude-opus-5-5', adaptive);
    const outcome = await send({
      model: 'claude-opus-5-5',
      thinking: adaptive,
      tools: [tool],
      messages: [{ role: 'user', content: 'CI is red (edited)' }, { role: 'assistant', content: blocks }, result],
    });
    expect(outcome).toContain(
      'Invalid `signature` in `thinking` block. The block is bound to a different conversation.',
    );
  });

  it('rejects orphaned tool results and tool calls', async () => {
    const orphanResult = await send({
      model: 'claude-opus-4-5',
      messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_x', content: 'ok' }] }],
    });
    expect(orphanResult).toContain('unexpected `tool_use_id` found in `tool_result` blocks: toolu_x.');
    const orphanCall = await send({
      model: 'claude-opus-4-5',
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_y', name: 'get_ci_log', input: {} }] },
        { role: 'user', content: 'next' },
      ],
    });
    expect(orphanCall).toContain('`tool_use` ids were found without `tool_result` blocks immediately after: toolu_y.');
  });

  it('rejects tool results that do not open the message after the tool call', async () => {
    const outcome = await send({
      model: 'claude-opus-4-5',
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_w', name: 'get_ci_log', input: {} }] },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'here you go' },
            { type: 'tool_result', tool_use_id: 'toolu_w', content: 'ok' },
          ],
        },
      ],
    });
    expect(outcome).toBe(
      '400 messages.2: Did not find 1 `tool_result` block(s) at the beginning of this message. Messages following `tool_use` blocks must begin with a matching number of `tool_result` blocks.',
    );
  });

  it('rejects more than 4 cache breakpoints and a breakpoint on a thinking block', async () => {
    const cached = (text: string) => ({ type: 'text' as const, text, cache_control: { type: 'ephemeral' as const } });
    const five = await send({
      model: 'claude-opus-4-5',
      messages: [{ role: 'user', content: ['a', 'b', 'c', 'd', 'e'].map(cached) }],
    });
    expect(five).toBe('400 A maximum of 4 blocks with cache_control may be provided. Found 5.');
    const onThinking = await send({
      model: 'claude-opus-4-5',
      messages: [
        { role: 'user', content: 'hi' },
        {
          role: 'assistant',
          content: [
            {
              type: 'thinking',
              thinking: 't',
              signature: 's',
              cache_control: { type: 'ephemeral' },
            } as Anthropic.ThinkingBlockParam,
            { type: 'text', text: 'x' },
          ],
        },
        { role: 'user', content: 'again' },
      ],
    });
    expect(onThinking).toBe('400 messages.1.content.0.thinking.cache_control: Extra inputs are not permitted');
  });

  it('rejects empty and whitespace-only text blocks', async () => {
    const empty = await send({
      model: 'claude-opus-4-5',
      messages: [{ role: 'user', content: [{ type: 'text', text: '' }] }],
    });
    expect(empty).toBe('400 messages: text content blocks must be non-empty');
    const blank = await send({
      model: 'claude-opus-4-5',
      messages: [
        { role: 'user', content: 'hi' },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: '\n\n' },
            { type: 'tool_use', id: 'toolu_z', name: 'get_ci_log', input: {} },
          ],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_z', content: 'ok' }] },
      ],
    });
    expect(blank).toBe('400 messages: text content blocks must contain non-whitespace text');
    const blankResult = await send({
      model: 'claude-opus-4-5',
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_v', name: 'get_ci_log', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_v', content: '\n' }] },
      ],
    });
    expect(blankResult).toBe('400 messages: text content blocks must contain non-whitespace text');
    const mixed = await send({
      model: 'claude-opus-4-5',
      messages: [{ role: 'user', content: [{ type: 'text', text: ' ' }, { type: 'text', text: 'real' }] }],
    });
    expect(mixed).toBe('accepted');
  });

  it('rejects a manual budget at or above max_tokens without the interleaved beta', async () => {
    const outcome = await client.messages
      .create({
        model: 'claude-opus-4-5',
        max_tokens: 2048,
        thinking: manual,
        messages: [{ role: 'user', content: 'hi' }],
      })
      .then(
        () => 'accepted',
        (error: InstanceType<typeof Anthropic.APIError>) => `${error.status} ${error.apiMessage}`,
      );
    expect(outcome).toContain('400 `max_tokens` must be greater than `thinking.budget_tokens`');
  });
});

describe('anthropic adapter specifics', () => {
  let server: ScriptedServer;
  beforeEach(async () => {
    server = await startAnthropicServer();
  });
  afterEach(() => server.close());
  const adapterFor = (model: string, options: Partial<AnthropicAdapterOptions> = {}) =>
    createAnthropicAdapter({ model, baseURL: server.url, apiKey: 'test-key', ...options });
  const user = (content: string): Message => ({ role: 'user', content });

  it('places breakpoints on the prefix and never on thinking, and reads the cache on the next step', async () => {
    const adapter = adapterFor('claude-opus-4-5');
    server.enqueue(
      { type: 'reply', reasoning: ['a'], toolCalls: [{ name: 'get_ci_log', args: { run: 1 } }] },
      { type: 'reply', text: 'done' },
    );
    const messages: Message[] = [user('go')];
    const request = () => ({ system: 'sys', messages, tools: testToolSpecs });
    const first = await generate(adapter, request());
    messages.push(first.message);
    const call = toolCallsOf(first.message)[0];
    messages.push({ role: 'tool', toolCallId: call?.id ?? '', toolName: 'get_ci_log', content: 'log' });
    const second = await generate(adapter, request());
    const body = server.modelCalls()[1]?.body as {
      system: { cache_control?: unknown }[];
      messages: { content: { type: string; cache_control?: unknown }[] }[];
    };
    expect(body.system.at(-1)?.cache_control).toEqual({ type: 'ephemeral' });
    const marked = body.messages.flatMap((message) => message.content).filter((block) => block.cache_control);
    expect(marked.length).toBeGreaterThan(0);
    expect(marked.every((block) => block.type !== 'thinking')).toBe(true);
    expect(second.usage.cachedInputTokens).toBeGreaterThan(0);
    expect(second.usage.inputTokens).toBeGreaterThan(second.usage.cachedInputTokens ?? 0);
    expect(server.modelCalls()[1]?.headers['anthropic-beta']).toBe('interleaved-thinking-2025-05-14');
    expect(server.modelCalls()[1]?.body).toMatchObject({ thinking: { type: 'enabled', budget_tokens: 8192 } });
  });

  it('sends adaptive thinking with the effort override and no beta header on newer models', async () => {
    const adapter = adapterFor('claude-opus-5', { thinking: { type: 'adaptive', effort: 'low' } });
    server.enqueue({ type: 'reply', text: 'hi' });
    await generate(adapter, { messages: [user('hello')] });
    const call = server.modelCalls()[0];
    expect(call?.body).toMatchObject({ thinking: { type: 'adaptive' }, output_config: { effort: 'low' } });
    expect(call?.headers['anthropic-beta']).toBeUndefined();
  });

  it('round-trips redacted thinking and maps usage with cache and thinking tokens', async () => {
    const adapter = adapterFor('claude-opus-4-5');
    server.enqueue(
      {
        type: 'reply',
        reasoning: ['visible'],
        redactedReasoning: true,
        toolCalls: [{ name: 'get_ci_log', args: { run: 2 } }],
        usage: { input: 50, output: 30, cacheRead: 20, cacheWrite: 10, reasoning: 12 },
      },
      { type: 'reply', text: 'ok' },
    );
    const first = await generate(adapter, { messages: [user('go')], tools: testToolSpecs });
    expect(first.usage).toEqual({
      inputTokens: 80,
      cachedInputTokens: 20,
      cacheWriteTokens: 10,
      outputTokens: 30,
      reasoningTokens: 12,
    });
    const redacted = first.message.content.find((part) => part.type === 'reasoning' && part.redacted);
    expect(redacted).toMatchObject({ providerData: { provider: 'anthropic', model: 'claude-opus-4-5' } });
    expect(typeof redacted?.providerData?.data).toBe('string');
    const id = toolCallsOf(first.message)[0]?.id ?? '';
    await generate(adapter, {
      messages: [user('go'), first.message, { role: 'tool', toolCallId: id, toolName: 'get_ci_log', content: 'log' }],
      tools: testToolSpecs,
    });
    expect(server.modelCalls()[1]?.view?.echoedReasoning).toEqual(['visible', '[redacted]']);
  });

  it('drops prefix-bound thinking whose prefix changed, and keeps it while the prefix is the same', async () => {
    const adapter = adapterFor('claude-opus-5-5');
    server.enqueue(
      { type: 'reply', reasoning: ['bound'], text: 'first' },
      { type: 'reply', text: 'a' },
      { type: 'reply', text: 'b' },
    );
    const first = await generate(adapter, { system: 'v1', messages: [user('one')] });
    const history = [user('one'), first.message, user('two')];
    await generate(adapter, { system: 'v1', messages: history });
    expect(server.modelCalls()[1]?.view?.echoedReasoning).toEqual(['bound']);
    const changed = await generate(adapter, { system: 'v2', messages: history });
    expect(server.modelCalls()[2]?.status).toBe(200);
    expect(server.modelCalls()[2]?.view?.reasoningItems).toBe(0);
    expect(assistantText(changed.message)).toBe('b');
  });

  it.each(['claude-sonnet-4-0', 'claude-opus-4-0'])('uses manual thinking for the alias %s', async (model) => {
    server.enqueue({ type: 'reply', text: 'hi' });
    await generate(adapterFor(model), { messages: [user('hello')] });
    expect(server.modelCalls()[0]?.error).toBeUndefined();
    expect(server.modelCalls()[0]?.body).toMatchObject({ thinking: { type: 'enabled' } });
  });

  it('normalises foreign tool-call ids consistently for calls and results', async () => {
    const adapter = adapterFor('claude-opus-4-5', { thinking: { type: 'disabled' } });
    server.enqueue({ type: 'reply', text: 'ok' });
    const foreignId = 'call.1:fc/Ω'.padEnd(80, 'x');
    await generate(adapter, {
      messages: [
        user('go'),
        {
          role: 'assistant',
          content: [{ type: 'tool-call', id: foreignId, name: 'read_file', args: { path: 'a' } }],
          model: { provider: 'openai', id: 'gpt-5' },
        },
        { role: 'tool', toolCallId: foreignId, toolName: 'read_file', content: 'x' },
      ],
      tools: testToolSpecs,
    });
    const view = server.modelCalls()[0]?.view;
    expect(server.modelCalls()[0]?.status).toBe(200);
    expect(view?.toolCallIds[0]).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(view?.toolResultIds).toEqual(view?.toolCallIds);
  });

  it('keeps the API key out of an inspected adapter', () => {
    const adapter = adapterFor('claude-opus-4-5', { apiKey: 'sk-ant-secret-123' });
    expect(inspect(adapter, { depth: 10 })).not.toContain('sk-ant-secret-123');
  });

  it('maps 529 to a retryable overloaded error', async () => {
    server.enqueue({ type: 'error', status: 529 });
    const error = await generate(adapterFor('claude-opus-4-5'), { messages: [user('x')] }).catch(
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({ kind: 'overloaded', retryable: true, status: 529 });
  });

  it('counts tokens exactly through count_tokens', async () => {
    const count = await adapterFor('claude-opus-4-5').countTokens({ system: 'sys', messages: [user('how many?')] });
    expect(count).toBeGreaterThan(0);
    expect(server.requests.at(-1)?.path).toBe('/v1/messages/count_tokens');
    expect(server.requests.at(-1)?.headers['anthropic-beta']).toBe('interleaved-thinking-2025-05-14');
    // Only the request's own betas, none for this model: not the SDK's beta-count default, token-counting-2024-11-01.
    await adapterFor('claude-sonnet-4-6').countTokens({ system: 'sys', messages: [user('how many?')] });
    expect(server.requests.at(-1)?.headers['anthropic-beta']).toBeUndefined();
  });

  it('throws a typed error when no API key is configured', () => {
    const saved = process.env.ANTHROPIC_API_KEY;
    delete process.env.ANTHROPIC_API_KEY;
    try {
      expect(() => createAnthropicAdapter({ model: 'claude-opus-4-5' })).toThrow(MissingApiKeyError);
    } finally {
      if (saved !== undefined) process.env.ANTHROPIC_API_KEY = saved;
    }
  });
});

describe('anthropic model switch inside a manual-thinking tool-use turn', () => {
  it('turns thinking off for that step with a warning instead of sending foreign thinking', async () => {
    const server = await startAnthropicServer();
    try {
      const primary = createAnthropicAdapter({ model: 'claude-opus-4-5', baseURL: server.url, apiKey: 'k' });
      const secondary = createAnthropicAdapter({ model: 'claude-haiku-4-5', baseURL: server.url, apiKey: 'k' });
      server.enqueue(
        { type: 'reply', reasoning: ['primary'], toolCalls: [{ name: 'get_ci_log', args: { run: 1 } }] },
        { type: 'reply', text: 'secondary' },
      );
      const messages: Message[] = [{ role: 'user', content: 'go' }];
      const first = await generate(primary, { messages, tools: testToolSpecs });
      const id = toolCallsOf(first.message)[0]?.id ?? '';
      messages.push(first.message, { role: 'tool', toolCallId: id, toolName: 'get_ci_log', content: 'log' });
      // The agent loop strips the other model's reasoning before every call (core's one rule).
      const stripped = stripForeignReasoning(messages, secondary.model);
      const second = await generate(secondary, { messages: stripped.messages, tools: testToolSpecs });
      expect(second.warnings.join('\n')).toContain('thinking is off for this step');
      expect(stripped.warning?.message).toContain('1 reasoning part(s) of another model in this episode were not sent');
      const body = server.modelCalls()[1]?.body as Record<string, unknown>;
      expect(body.thinking).toBeUndefined();
      expect(server.modelCalls()[1]?.status).toBe(200);
    } finally {
      await server.close();
    }
  });
});
