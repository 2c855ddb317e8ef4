/**
 * Anthropic tool-use turns against the strict loopback server: what goes back
 * when Claude answers blank text before a call, and when a turn's thinking can
 * no longer be sent (earlier steps trimmed by the packer, prefix-bound signatures).
 */
import { assistantText, generate, type Message, toolCallsOf } from '@episodic/core';
import { createAnthropicAdapter } from '@episodic/providers/anthropic';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startAnthropicServer } from '../servers/anthropic-server.js';
import type { ScriptedServer } from '../servers/scripted-server.js';
import { testToolSpecs } from './conformance-tools.js';

describe('anthropic tool-use turns', () => {
  let server: ScriptedServer;
  beforeEach(async () => {
    server = await startAnthropicServer();
  });
  afterEach(() => server.close());
  const adapterFor = (model: string) => createAnthropicAdapter({ model, baseURL: server.url, apiKey: 'test-key' });
  const user = (content: string): Message => ({ role: 'user', content });

  it('does not send back a whitespace-only text block the model produced', async () => {
    const adapter = adapterFor('claude-opus-4-5');
    server.enqueue(
      { type: 'reply', reasoning: ['look'], text: '\n\n', toolCalls: [{ name: 'get_ci_log', args: { run: 1 } }] },
      { type: 'reply', text: 'done' },
    );
    const first = await generate(adapter, { messages: [user('go')], tools: testToolSpecs });
    const id = toolCallsOf(first.message)[0]?.id ?? '';
    await generate(adapter, {
      messages: [user('go'), first.message, { role: 'tool', toolCallId: id, toolName: 'get_ci_log', content: 'log' }],
      tools: testToolSpecs,
    });
    expect(server.modelCalls()[1]?.error).toBeUndefined();
    expect(server.modelCalls()[1]?.status).toBe(200);
  });

  it('does not send a whitespace-only tool output as tool_result content', async () => {
    const adapter = adapterFor('claude-opus-4-5');
    server.enqueue(
      { type: 'reply', reasoning: ['run it'], toolCalls: [{ name: 'get_ci_log', args: { run: 1 } }] },
      { type: 'reply', text: 'done' },
    );
    const first = await generate(adapter, { messages: [user('go')], tools: testToolSpecs });
    const id = toolCallsOf(first.message)[0]?.id ?? '';
    await generate(adapter, {
      messages: [user('go'), first.message, { role: 'tool', toolCallId: id, toolName: 'get_ci_log', content: '\n' }],
      tools: testToolSpecs,
    });
    expect(server.modelCalls()[1]?.error).toBeUndefined();
  });

  it('says why thinking is off when the continued tool-use turn has no thinking block of its own', async () => {
    const adapter = adapterFor('claude-opus-4-5');
    const call: Message = {
      role: 'assistant',
      model: { provider: 'anthropic', id: 'claude-opus-4-5' },
      content: [{ type: 'tool-call', id: 'toolu_1', name: 'get_ci_log', args: { run: 1 } }],
    };
    const messages: Message[] = [
      user('go'),
      call,
      { role: 'tool', toolCallId: 'toolu_1', toolName: 'get_ci_log', content: 'log' },
    ];
    const warnings = adapter.prepare({ messages, tools: testToolSpecs }).warnings.map((warning) => warning.message);
    expect(warnings.join('\n')).toContain('has no thinking block (it was produced with thinking off');
    expect(warnings.join('\n')).not.toContain('another model');
    server.enqueue({ type: 'reply', text: 'done' });
    await generate(adapter, { messages, tools: testToolSpecs });
    expect(server.modelCalls()[0]?.status).toBe(200);
  });

  // Opus 5 keeps earlier thinking but runs no prefix check (the docs list Fable 5.1 on as bound):
  // its latest step's thinking still goes back after an earlier step lost its own.
  it.each(['claude-opus-4-5', 'claude-opus-5'])(
    'accepts, on %s, a tool-use turn whose earlier steps lost their thinking, as long as the latest keeps it',
    async (model) => {
      const adapter = adapterFor(model);
      server.enqueue(
        { type: 'reply', reasoning: ['one'], toolCalls: [{ name: 'get_ci_log', args: { run: 1 } }] },
        { type: 'reply', reasoning: ['two'], toolCalls: [{ name: 'get_ci_log', args: { run: 2 } }] },
        { type: 'reply', text: 'done' },
      );
      const messages: Message[] = [user('go')];
      for (let index = 0; index < 2; index += 1) {
        const result = await generate(adapter, { messages, tools: testToolSpecs });
        const id = toolCallsOf(result.message)[0]?.id ?? '';
        messages.push(result.message, { role: 'tool', toolCallId: id, toolName: 'get_ci_log', content: 'log' });
      }
      // What the packer does under budget pressure: the oldest step's reasoning goes, the latest stays.
      const first = messages[1] as Extract<Message, { role: 'assistant' }>;
      messages[1] = { ...first, content: first.content.filter((part) => part.type !== 'reasoning') };
      await generate(adapter, { messages, tools: testToolSpecs });
      expect(server.modelCalls()[2]?.error).toBeUndefined();
      expect(server.modelCalls()[2]?.view?.echoedReasoning).toEqual(['two']);
    },
  );

  it('turns thinking off, not fails, when a tool-use turn lost its bound thinking (earlier reasoning dropped)', async () => {
    const adapter = adapterFor('claude-opus-5-5');
    server.enqueue(
      { type: 'reply', reasoning: ['one'], toolCalls: [{ name: 'get_ci_log', args: { run: 1 } }] },
      { type: 'reply', reasoning: ['two'], toolCalls: [{ name: 'get_ci_log', args: { run: 2 } }] },
      { type: 'reply', text: 'done' },
    );
    const messages: Message[] = [user('go')];
    const step = async () => {
      const result = await generate(adapter, { messages, tools: testToolSpecs });
      const id = toolCallsOf(result.message)[0]?.id ?? '';
      messages.push(result.message, { role: 'tool', toolCallId: id, toolName: 'get_ci_log', content: 'log' });
    };
    await step();
    await step();
    // The packer dropped the oldest step's reasoning under budget pressure: every later
    // prefix-bound signature is now invalid, so the latest step's thinking cannot go back.
    const first = messages[1] as Extract<Message, { role: 'assistant' }>;
    messages[1] = { ...first, content: first.content.filter((part) => part.type !== 'reasoning') };
    const third = await generate(adapter, { messages, tools: testToolSpecs });
    expect(server.modelCalls()[2]?.error).toBeUndefined();
    expect(assistantText(third.message)).toBe('done');
    expect(third.warnings.join('\n')).toContain('thinking is off for this step');
    expect((server.modelCalls()[2]?.body as Record<string, unknown>).thinking).toBeUndefined();
  });
});
