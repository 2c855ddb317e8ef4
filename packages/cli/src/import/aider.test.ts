/**
 * The aider importer on a small chat log written for these tests in the shape aider
 * writes (`.aider.chat.history.md`; see test/fixtures/sessions/README.md).
 */
import type { AssistantMessage, UserMessage } from '@episodic/core';
import { describe, expect, it } from 'vitest';
import { importAider } from './aider.js';
import { ImportError } from './import-result.js';

const log = [
  '',
  '# aider chat started at 2026-04-22 22:40:12',
  '',
  '> aider --model openai/gpt-4o  ',
  '> Aider v0.86.2  ',
  '> Model: openai/gpt-4o with diff edit format  ',
  '',
  '#### Fix the bug  ',
  '#### in parse()  ',
  '',
  '<thinking-content-7bbeb8e1441453ad999a0bbba8a46d4b>',
  'Look at parse first.',
  '</thinking-content-7bbeb8e1441453ad999a0bbba8a46d4b>',
  '',
  'Please add parse.py to the chat.',
  '',
  '> Tokens: 1.8k sent, 653 received. Cost: $0.01 message, $0.01 session.  ',
  '',
  '#### Add file to the chat? (Y)es/(N)o/(A)ll/(S)kip all/(D)on\'t ask again [Yes]: y  ',
  '',
  '#### /ask why does it fail?  ',
  '',
  'It reads past the end.',
  '',
  '> Tokens: 2.5k sent, 12 received.  ',
  '',
  '# aider chat started at 2026-04-22 23:13:03',
  '',
  '#### hi  ',
].join('\n');

describe('importAider', () => {
  it('reads prompts, answers with reasoning and usage, and a new chat as a compaction that keeps nothing', () => {
    const result = importAider(log, '.aider.chat.history.md');
    expect(result.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user', 'user']);
    expect((result.messages[0] as UserMessage).content).toBe('Fix the bug\nin parse()');
    const first = result.messages[1] as AssistantMessage;
    expect(first.model).toEqual({ provider: 'openai', id: 'gpt-4o' });
    expect(first.content.map((part) => part.type)).toEqual(['reasoning', 'text']);
    expect(first.usage).toEqual({ inputTokens: 1800, cachedInputTokens: 0, cacheWriteTokens: 0, outputTokens: 653 });
    expect((result.messages[2] as UserMessage).content).toBe('why does it fail?');
    expect(result.messages[4]).toMatchObject({ injected: true, compaction: { keptMessages: 0 } });
    expect(result.agentVersion).toBe('0.86.2');
    expect(result.pastReasoning).toBe('stripped');
    expect(result.dropped.map((item) => [item.what, item.count])).toEqual([
      ['aider status lines (> ...)', 3],
      ['answers to aider questions', 1],
    ]);
  });

  it('names the line of a Tokens line it cannot read, and a file that is not an aider log', () => {
    expect(() => importAider('# aider chat started at 2026-01-01 10:00:00\n> Tokens: lots sent.\n', 'h.md')).toThrow(/h\.md, line 2: a Tokens line/);
    expect(() => importAider('hello\n', 'h.md')).toThrow(ImportError);
  });
});
