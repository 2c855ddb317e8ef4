import type { AssistantMessage } from '@episodic/core';
import { stripForeignReasoning } from '@episodic/core/reasoning';
import { describe, expect, it } from 'vitest';
import { convertToOpenAIResponsesMessages } from './convert-to-openai-responses-messages.js';

const gpt5 = { provider: 'openai', id: 'gpt-5' };
const tag = { provider: 'openai', model: 'gpt-5' };

const answer = (withReasoning: boolean): AssistantMessage => ({
  role: 'assistant',
  model: gpt5,
  content: [
    ...(withReasoning
      ? [{ type: 'reasoning' as const, text: 's', providerData: { ...tag, id: 'rs_1', encrypted_content: 'enc' } }]
      : []),
    { type: 'text', text: 'hi', providerData: { ...tag, id: 'msg_1' } },
    { type: 'tool-call', id: 'call_1', name: 'f', args: {}, providerData: { ...tag, id: 'fc_1' } },
  ],
});

describe('convertToOpenAIResponsesMessages', () => {
  it('keeps item ids next to their reasoning item', () => {
    const input = convertToOpenAIResponsesMessages([answer(true)]);
    expect(input.map((item) => ('id' in item ? item.id : undefined))).toEqual(['rs_1', 'msg_1', 'fc_1']);
    expect(input[0]).toMatchObject({
      type: 'reasoning',
      encrypted_content: 'enc',
      summary: [{ type: 'summary_text', text: 's' }],
    });
  });

  it('sends the transcript`s system and developer lines in place, in their own roles', () => {
    const input = convertToOpenAIResponsesMessages([
      { role: 'user', content: 'CI is red' },
      { role: 'developer', content: 'Cite the log line.' },
      { role: 'system', content: 'Answer in French.' },
    ]);
    expect(input).toEqual([
      { role: 'user', content: 'CI is red' },
      { role: 'developer', content: 'Cite the log line.' },
      { role: 'system', content: 'Answer in French.' },
    ]);
  });

  it('sends calls and text without ids once the reasoning is gone', () => {
    const input = convertToOpenAIResponsesMessages([answer(false)]);
    expect(input).toEqual([
      { role: 'assistant', content: 'hi' },
      { type: 'function_call', call_id: 'call_1', name: 'f', arguments: '{}' },
    ]);
  });

  it('sends no ids once core took another model`s reasoning out, and drops a reasoning item left without its following item', () => {
    const stripped = stripForeignReasoning([answer(true)], { provider: 'openai', id: 'o3' }).messages;
    const other = convertToOpenAIResponsesMessages(stripped);
    expect(other.some((item) => item.type === 'reasoning' || ('id' in item && item.id !== undefined))).toBe(false);
    const lonely: AssistantMessage = { role: 'assistant', content: [answer(true).content[0]!] };
    expect(convertToOpenAIResponsesMessages([lonely])).toEqual([]);
  });

  it('sends no reasoning item without its encrypted content, nor the ids bound to it', () => {
    const incomplete: AssistantMessage = {
      ...answer(true),
      content: answer(true).content.map((part) =>
        part.type === 'reasoning' ? { ...part, providerData: { ...tag, id: 'rs_1' } } : part,
      ),
    };
    const input = convertToOpenAIResponsesMessages([incomplete]);
    expect(input.some((item) => item.type === 'reasoning' || ('id' in item && item.id !== undefined))).toBe(false);
  });
});

describe('reasoning returned in the clear', () => {
  it('sends a reasoning item back with its content when the server gave no encrypted content (DeepSeek)', () => {
    const tagged = { provider: 'openai', model: 'deepseek-v4-flash' };
    const content = [{ type: 'reasoning_text' as const, text: 'call the tool' }];
    const message: AssistantMessage = {
      role: 'assistant',
      content: [
        { type: 'reasoning', text: 'call the tool', providerData: { ...tagged, id: 'r-1', summary: [], content } },
        { type: 'tool-call', id: 'call_1', name: 'f', args: {}, providerData: { ...tagged, id: 'fc-1' } },
      ],
    };
    expect(convertToOpenAIResponsesMessages([message])).toEqual([
      { type: 'reasoning', id: 'r-1', summary: [], content },
      { type: 'function_call', call_id: 'call_1', name: 'f', arguments: '{}', id: 'fc-1' },
    ]);
  });
});
