/**
 * The Gemini CLI importer on a small chat written for these tests in the shape Gemini
 * CLI writes (`~/.gemini/tmp/<project>/chats/session-*.json`; see
 * test/fixtures/sessions/README.md).
 */
import type { AssistantMessage, ToolMessage } from '@episodic/core';
import { describe, expect, it } from 'vitest';
import { importGeminiCli } from './gemini-cli.js';
import { ImportError } from './import-result.js';

const chat = (messages: object[]) =>
  JSON.stringify({ sessionId: 's1', projectHash: 'ab', startTime: '2026-01-01T09:00:00.000Z', lastUpdated: '2026-01-01T09:01:00.000Z', messages }, null, 2);
const tokens = { input: 9000, output: 40, cached: 8000, thoughts: 120, tool: 0, total: 9160 };

describe('importGeminiCli', () => {
  it('reads prompts, answers with thoughts and usage, and tool calls with their results', () => {
    const result = importGeminiCli(
      chat([
        { id: 'u1', timestamp: '2026-01-01T09:00:00.000Z', type: 'user', content: [{ text: 'List the files' }] },
        {
          id: 'g1',
          timestamp: '2026-01-01T09:00:05.000Z',
          type: 'gemini',
          content: 'I will list them.',
          thoughts: [{ subject: 'Listing', description: 'Use ls.', timestamp: '2026-01-01T09:00:04.000Z' }],
          tokens,
          model: 'gemini-2.5-pro',
          toolCalls: [
            {
              id: 'c1',
              name: 'list_directory',
              args: { path: '.' },
              result: [{ functionResponse: { id: 'c1', name: 'list_directory', response: { output: 'a.txt' } } }],
              status: 'success',
            },
          ],
        },
        { id: 'i1', timestamp: '2026-01-01T09:00:06.000Z', type: 'info', content: 'Loaded cached credentials.' },
      ]),
      'chat.json',
    );
    expect(result.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool']);
    const answer = result.messages[1] as AssistantMessage;
    expect(answer.model).toEqual({ provider: 'google', id: 'gemini-2.5-pro' });
    expect(answer.usage).toEqual({ inputTokens: 9000, cachedInputTokens: 8000, outputTokens: 160, reasoningTokens: 120 });
    expect(answer.content.map((part) => part.type)).toEqual(['reasoning', 'text', 'tool-call']);
    expect(result.messages[2] as ToolMessage).toMatchObject({ toolCallId: 'c1', toolName: 'list_directory', content: 'a.txt' });
    expect(result.dropped).toEqual([{ what: 'info messages', why: expect.any(String), count: 1, lines: [3] }]);
  });

  it('marks a message type it does not know as lost content, and says when no tool calls are recorded', () => {
    const result = importGeminiCli(
      chat([
        { id: 'u1', type: 'user', content: 'hi' },
        { id: 'g1', type: 'gemini', content: 'Hello', tokens, model: 'gemini-2.5-pro' },
        { id: 'x1', type: 'subagent', content: 'something new' },
      ]),
      'chat.json',
    );
    expect(result.dropped).toMatchObject([{ what: 'messages of type subagent', lossy: true, lines: [3] }]);
    expect(result.notes.join(' ')).toContain('no tool calls are recorded');
  });

  it('refuses the JSON Lines chats by name, and a file that is not a chat', () => {
    const lines = `${JSON.stringify({ sessionId: 's', projectHash: 'h', kind: 'main' })}\n${JSON.stringify({ id: '1', type: 'user', content: 'hi' })}\n`;
    expect(() => importGeminiCli(lines, 'chat.jsonl')).toThrow(/JSON Lines chat/);
    expect(() => importGeminiCli('{"messages": 3}', 'chat.json')).toThrow(ImportError);
  });
});
