/**
 * The importers of logged API calls (OpenAI Chat Completions and Anthropic Messages)
 * on small logs written for these tests: request and response pairs, one per line or
 * on two lines.
 */
import type { AssistantMessage, UserMessage } from '@episodic/core';
import { describe, expect, it } from 'vitest';
import { importAnthropicMessages } from './anthropic-messages.js';
import { ImportError } from './import-result.js';
import { importOpenAIChat } from './openai-chat.js';
import { recordingLines } from './recording-lines.js';

const text = (...values: object[]) => values.map((value) => JSON.stringify(value)).join('\n');

describe('importOpenAIChat', () => {
  const tools = [{ type: 'function', function: { name: 'get_log', description: 'Read a log', parameters: { type: 'object' } } }];
  const first = [
    { role: 'system', content: 'You debug CI.' },
    { role: 'user', content: 'Why is CI red?' },
  ];
  const toolCall = { id: 'call_1', type: 'function', function: { name: 'get_log', arguments: '{"run":4}' } };
  const call = { role: 'assistant', content: null, tool_calls: [toolCall] };
  const second = [...first, call, { role: 'tool', tool_call_id: 'call_1', content: 'FAIL' }];
  const usage = (prompt: number, cached: number) => ({
    prompt_tokens: prompt,
    completion_tokens: 20,
    prompt_tokens_details: { cached_tokens: cached },
  });

  it('takes the conversation from the last request and its response, with each call usage on its message', () => {
    const log = text(
      { request: { model: 'gpt-4.1', messages: first, tools }, response: { model: 'gpt-4.1-2025-04-14', choices: [{ message: call }], usage: usage(300, 0) } },
      { model: 'gpt-4.1', messages: second, tools },
      { object: 'chat.completion', model: 'gpt-4.1-2025-04-14', choices: [{ message: { role: 'assistant', content: 'The parser fails.' } }], usage: usage(340, 256) },
    );
    const result = importOpenAIChat(recordingLines(log, 'calls.jsonl'), 'calls.jsonl');
    expect(result.messages.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant']);
    const [, , firstCall, result1, answer] = result.messages as [unknown, unknown, AssistantMessage, unknown, AssistantMessage];
    expect(firstCall.usage).toEqual({ inputTokens: 300, cachedInputTokens: 0, outputTokens: 20 });
    expect(firstCall.content[0]).toMatchObject({ type: 'tool-call', id: 'call_1', name: 'get_log', args: { run: 4 } });
    expect(firstCall.model).toEqual({ provider: 'openai', id: 'gpt-4.1-2025-04-14' });
    expect(result1).toMatchObject({ role: 'tool', toolName: 'get_log', content: 'FAIL' });
    expect(answer.usage).toMatchObject({ inputTokens: 340, cachedInputTokens: 256 });
    expect(result.tools).toEqual([{ name: 'get_log', description: 'Read a log', inputSchema: { type: 'object' } }]);
    expect(result.prefixRecorded).toBe(true);
  });

  it('names a line that is neither a request nor a response', () => {
    const log = text({ model: 'gpt-4.1', messages: first }, { hello: 'world' });
    expect(() => importOpenAIChat(recordingLines(log, 'calls.jsonl'), 'calls.jsonl')).toThrow(
      'calls.jsonl, line 2: expected a request with "messages", a response, or {"request", "response"}',
    );
    expect(() => importOpenAIChat(recordingLines('{"choices":[]}', 'calls.jsonl'), 'calls.jsonl')).toThrow(ImportError);
  });
});

describe('importAnthropicMessages', () => {
  const request = (messages: object[]) => ({
    model: 'claude-sonnet-4-5',
    system: [{ type: 'text', text: 'You debug CI.' }],
    tools: [
      { name: 'get_log', description: 'Read a log', input_schema: { type: 'object' } },
      { type: 'web_search_20250305', name: 'web_search' },
    ],
    messages,
  });
  const toolUse = { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'get_log', input: { run: 4 } }] };
  const results = {
    role: 'user',
    content: [
      { type: 'tool_result', tool_use_id: 'toolu_1', content: 'FAIL' },
      { type: 'text', text: '<reminder>keep it short</reminder>' },
    ],
  };
  const usage = { input_tokens: 10, cache_read_input_tokens: 2000, cache_creation_input_tokens: 300, output_tokens: 30 };

  it('splits a user-role message into tool results and injected text, and keeps the system prompt and client tools', () => {
    const log = text(
      {
        request: request([{ role: 'user', content: 'Why is CI red?' }]),
        response: { type: 'message', content: toolUse.content, role: 'assistant', usage },
      },
      {
        request: request([{ role: 'user', content: 'Why is CI red?' }, toolUse, results]),
        response: { type: 'message', role: 'assistant', content: [{ type: 'text', text: 'The parser.' }], usage },
      },
    );
    const result = importAnthropicMessages(recordingLines(log, 'calls.jsonl'), 'calls.jsonl');
    expect(result.messages.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'tool', 'user', 'assistant']);
    expect((result.messages[2] as AssistantMessage).usage).toEqual({
      inputTokens: 2310,
      cachedInputTokens: 2000,
      cacheWriteTokens: 300,
      outputTokens: 30,
    });
    expect((result.messages[4] as UserMessage).injected).toBe(true);
    expect((result.messages[5] as AssistantMessage).usage?.inputTokens).toBe(2310);
    expect(result.tools).toEqual([{ name: 'get_log', description: 'Read a log', inputSchema: { type: 'object' } }]);
    expect(result.dropped.map((item) => item.what)).toEqual(['server tools (web_search_20250305)']);
  });
});
