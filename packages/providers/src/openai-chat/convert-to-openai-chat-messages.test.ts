import type { AssistantMessage, Message } from '@episodic/core';
import { stripForeignReasoning } from '@episodic/core/reasoning';
import { describe, expect, it } from 'vitest';
import { convertToOpenAIChatMessages } from './convert-to-openai-chat-messages.js';

const target = { provider: 'deepseek', id: 'deepseek-v4-pro' };
const own = (text: string, withCall: boolean): AssistantMessage => ({
  role: 'assistant',
  model: target,
  content: [
    { type: 'reasoning', text },
    ...(withCall ? [{ type: 'tool-call' as const, id: `call_${text}`, name: 'f', args: { a: 1 } }] : []),
    ...(withCall ? [] : [{ type: 'text' as const, text: `answer ${text}` }]),
  ],
});
const result = (id: string): Message => ({ role: 'tool', toolCallId: id, toolName: 'f', content: 'r', isError: true });

describe('convertToOpenAIChatMessages', () => {
  const messages: Message[] = [
    { role: 'user', content: 'u1' },
    own('a', true),
    result('call_a'),
    own('b', false),
    { role: 'user', content: 'u2' },
    own('c', true),
    result('call_c'),
  ];

  it('puts reasoning in the configured field and the system prompt first', () => {
    const wire = convertToOpenAIChatMessages('sys', messages, { sendAs: 'reasoning_content' });
    expect(wire[0]).toEqual({ role: 'system', content: 'sys' });
    expect(wire[2]).toEqual({
      role: 'assistant',
      content: null,
      reasoning_content: 'a',
      tool_calls: [{ id: 'call_a', type: 'function', function: { name: 'f', arguments: '{"a":1}' } }],
    });
    expect(wire[3]).toEqual({ role: 'tool', tool_call_id: 'call_a', content: '[tool error] r' });
  });

  it('drops reasoning before the latest final answer when the wire says so (Harmony)', () => {
    const wire = convertToOpenAIChatMessages(undefined, messages, {
      sendAs: 'reasoning',
      untilFinal: true,
    });
    const reasoning = wire.map((message) => message.reasoning);
    expect(reasoning.filter((value) => value !== undefined)).toEqual(['c']);
  });

  it('never sends reasoning with `none`, and gives tool-call messages an empty field when one is required', () => {
    const none = convertToOpenAIChatMessages(undefined, messages, { sendAs: 'none' });
    expect(none.some((message) => 'reasoning_content' in message)).toBe(false);
    // Another model's reasoning, after core took it out (as the adapter does before converting).
    const foreign: AssistantMessage = { ...own('x', true), model: { provider: 'zai', id: 'glm-5' } };
    const input = stripForeignReasoning([{ role: 'user', content: 'u' }, foreign, result('call_x')], target).messages;
    const required = convertToOpenAIChatMessages(undefined, input, {
      sendAs: 'reasoning_content',
      requiredOnToolCalls: true,
    });
    expect(required[1]?.reasoning_content).toBe('');
  });

  it('wraps reasoning in <think> tags inside content for think-tags families', () => {
    const wire = convertToOpenAIChatMessages(undefined, [own('t', false)], {
      sendAs: 'think-tags',
    });
    expect(wire[0]?.content).toBe('<think>t</think>answer t');
  });
});
