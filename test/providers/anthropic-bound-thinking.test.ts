/**
 * Preserved thinking on the strict Anthropic server (docs/providers.md, "Bound thinking"):
 * the adapter's `prefixMismatch` choice on the wire, only for the models that bind their
 * thinking, and the response's `input_transformations` read back as warnings and kept
 * on the step's usage.
 */
import { Agent, type AgentEvent, type AssistantPart, generate, MemorySessionStore, type Message, type ModelStreamEvent, toolCallsOf } from '@episodic/core';
import { createAnthropicAdapter } from '@episodic/providers/anthropic';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startAnthropicServer } from '../servers/anthropic-server.js';
import type { ScriptedServer } from '../servers/scripted-server.js';
import { type CapturedBody, capturedRequests, sdkParamErrors } from '../support/sdk-param-check.js';
import { testAgentTools, testToolSpecs } from './conformance-tools.js';

const beta = 'thinking-binding-controls-2026-08-01';

/** Every body an SDK client sent in this file, type-checked at the end. */
const captured: CapturedBody[] = [];

describe('anthropic bound thinking', () => {
  let server: ScriptedServer;
  beforeEach(async () => {
    server = await startAnthropicServer();
  });
  afterEach(async () => {
    captured.push(...capturedRequests(server.requests, 'bound thinking'));
    await server.close();
  });
  const user = (content: string): Message => ({ role: 'user', content });
  const adapterFor = (model: string, prefixMismatch?: 'error' | 'drop_block' | false) =>
    createAnthropicAdapter({ model, baseURL: server.url, apiKey: 'test-key', ...(prefixMismatch === undefined ? {} : { prefixMismatch }) });

  it.each([
    ['claude-fable-5-1', undefined, 'drop_block'],
    ['claude-opus-5-5', 'error', 'error'],
    ['claude-fable-5-1', false, undefined],
    ['claude-opus-5', undefined, undefined],
    ['claude-opus-4-6', 'error', undefined],
  ] as const)('%s with prefixMismatch %s sends block_binding %s', (model, choice, sent) => {
    const prepared = createAnthropicAdapter({ model, apiKey: 'test-key', ...(choice === undefined ? {} : { prefixMismatch: choice }) }).prepare({
      messages: [user('go')],
      tools: testToolSpecs,
    });
    const thinking = prepared.body.thinking as { block_binding?: { prefix_mismatch_behavior?: string } } | undefined;
    expect(thinking?.block_binding?.prefix_mismatch_behavior).toBe(sent);
    expect((prepared.headers['anthropic-beta'] ?? '').split(',').includes(beta)).toBe(sent !== undefined);
  });

  it('refuses an unknown prefixMismatch when the adapter is made', () => {
    expect(() => createAnthropicAdapter({ model: 'claude-fable-5-1', apiKey: 'k', prefixMismatch: 'ignore' as never })).toThrow(
      /prefixMismatch must be 'error', 'drop_block' or false/,
    );
  });

  /** A tool step's messages, the first user message then changed under a block the adapter cannot tell is stale. */
  async function staleHistory(adapter: ReturnType<typeof adapterFor>): Promise<Message[]> {
    server.enqueue({ type: 'reply', reasoning: ['look'], toolCalls: [{ name: 'get_ci_log', args: { run: 1 } }] }, { type: 'reply', text: 'done' });
    const first = await generate(adapter, { messages: [user('CI is red')], tools: testToolSpecs });
    // Reasoning with no recorded prefix (history brought from elsewhere): the adapter sends it as it is.
    const content = first.message.content.map((part): AssistantPart => {
      if (part.type !== 'reasoning') return part;
      const { prefix: _prefix, ...providerData } = part.providerData!;
      return { ...part, providerData: providerData as typeof part.providerData & object };
    });
    const id = toolCallsOf(first.message)[0]?.id ?? '';
    return [user('CI is red (edited)'), { ...first.message, content }, { role: 'tool', toolCallId: id, toolName: 'get_ci_log', content: 'log' }];
  }

  /** {@link staleHistory} continued by the adapter itself. */
  async function staleContinuation(adapter: ReturnType<typeof adapterFor>) {
    const messages = await staleHistory(adapter);
    const events: ModelStreamEvent[] = [];
    try {
      for await (const event of adapter.stream({ messages, tools: testToolSpecs })) events.push(event);
    } catch (error) {
      return { events, error: error as Error };
    }
    return { events, error: undefined };
  }

  it('with drop_block, a block bound to another prefix is dropped by the API, warned of and recorded on the step', async () => {
    const { events, error } = await staleContinuation(adapterFor('claude-fable-5-1'));
    expect(error).toBeUndefined();
    expect(server.modelCalls()[1]?.binding).toMatchObject({ dropped: 1, lostLastThinking: true });
    const warnings = events.filter((event) => event.type === 'warning');
    expect(warnings).toContainEqual(expect.objectContaining({ code: 'thinking-dropped' }));
    expect(warnings.map((event) => (event.type === 'warning' ? event.message : '')).join('\n')).toContain('messages.1.content.0');
    const finish = events.find((event) => event.type === 'finish');
    expect(finish?.type === 'finish' && finish.message.usage?.inputTransformations).toEqual([
      { type: 'thinking_dropped', path: 'messages.1.content.0', reason: 'prefix_binding_mismatch' },
    ]);
  });

  it('through the agent: a warning event of the step, and the entries saved on the step in the transcript', async () => {
    const adapter = adapterFor('claude-fable-5-1');
    const history = await staleHistory(adapter);
    const store = new MemorySessionStore();
    const agent = new Agent({ model: adapter, tools: testAgentTools, store });
    const session = await agent.session({ id: 'bound-drop', history });
    const events: AgentEvent[] = [];
    for await (const event of session.resumeStream()) events.push(event);
    expect(server.modelCalls()[1]?.binding).toMatchObject({ dropped: 1 });
    const entry = { type: 'thinking_dropped', path: 'messages.1.content.0', reason: 'prefix_binding_mismatch' };
    expect(events).toContainEqual(expect.objectContaining({ type: 'warning', step: 2, code: 'thinking-dropped', message: expect.stringContaining('messages.1.content.0') }));
    const finish = events.find((event) => event.type === 'step-finish');
    expect(finish?.type === 'step-finish' && finish.usage?.inputTransformations).toEqual([entry]);
    const saved = (await store.load('bound-drop'))?.messages.at(-1);
    expect(saved?.role === 'assistant' && saved.usage?.inputTransformations).toEqual([entry]);
  });

  it('with error, the same request is refused with the API text', async () => {
    const { error } = await staleContinuation(adapterFor('claude-fable-5-1', 'error'));
    expect(error?.message).toContain(
      'Invalid `signature` in `thinking` block. The block is bound to a different conversation. Remove the block, or set `thinking.block_binding.prefix_mismatch_behavior` to "drop_block".',
    );
  });

  it('the server refuses block_binding without its beta header', async () => {
    const response = await fetch(`${server.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'k', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({
        model: 'claude-fable-5-1',
        max_tokens: 1024,
        thinking: { type: 'adaptive', block_binding: { prefix_mismatch_behavior: 'drop_block' } },
        messages: [{ role: 'user', content: 'hi' }],
      }),
    });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain(beta);
  });
});

describe('the captured bodies', () => {
  it('type-check against the official SDK param types', () => {
    expect(captured.length).toBeGreaterThan(4);
    expect(sdkParamErrors(captured)).toEqual([]);
  }, 120_000);
});
