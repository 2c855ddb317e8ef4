/**
 * The pi importer on small session lines written for these tests in the shapes pi
 * writes (format v1, a list, and v3, a tree; see test/fixtures/sessions/README.md).
 */
import type { AssistantMessage, ToolMessage, UserMessage } from '@episodic/core';
import { describe, expect, it } from 'vitest';
import { ImportError } from './import-result.js';
import { importPi } from './pi.js';
import { recordingLines } from './recording-lines.js';

const piUsage = (input: number, read: number, write: number, output: number, total: number) => ({
  input,
  output,
  cacheRead: read,
  cacheWrite: write,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total },
});
const anthropic = { api: 'anthropic-messages', provider: 'anthropic', model: 'claude-sonnet-4-5' };
const entry = (message: object, extra: object = {}) => ({ type: 'message', timestamp: '2026-01-01T09:00:00.000Z', message, ...extra });
const userEntry = (text: string, extra: object = {}) => entry({ role: 'user', content: [{ type: 'text', text }] }, extra);
const load = (values: object[], glue = false) => {
  const text = glue ? values.map((value) => JSON.stringify(value)).join('') : values.map((value) => JSON.stringify(value)).join('\n');
  return importPi(recordingLines(text, 'session.jsonl'), 'session.jsonl');
};

const v1Header = { type: 'session', id: 's1', timestamp: '2026-01-01T09:00:00.000Z', cwd: '/repo', provider: 'anthropic', modelId: 'x' };

describe('importPi', () => {
  it('reads a v1 list: per-message model, usage and recorded cost; bash runs injected; empty failed calls dropped', () => {
    const result = load([
      v1Header,
      userEntry('Why is CI red?'),
      entry({ role: 'assistant', content: [], stopReason: 'aborted', ...anthropic, usage: piUsage(0, 0, 0, 0, 0) }),
      { type: 'model_change', provider: 'anthropic', modelId: 'claude-sonnet-4-5' },
      entry({
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'Read the log.', thinkingSignature: 'sig' },
          { type: 'toolCall', id: 'toolu_1', name: 'bash', arguments: { command: 'cat ci.log' } },
        ],
        stopReason: 'toolUse',
        ...anthropic,
        usage: piUsage(5, 1000, 300, 40, 0.0012),
      }),
      entry({ role: 'toolResult', toolCallId: 'toolu_1', toolName: 'bash', content: [{ type: 'text', text: 'FAIL' }], isError: true }),
      entry({ role: 'bashExecution', command: 'git status', output: 'clean', exitCode: 0 }),
    ]);
    expect(result.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'user']);
    const call = result.messages[1] as AssistantMessage;
    expect(call.model).toEqual({ provider: 'anthropic', id: 'claude-sonnet-4-5' });
    expect(call.usage).toEqual({ inputTokens: 1305, cachedInputTokens: 1000, cacheWriteTokens: 300, outputTokens: 40, costUsd: 0.0012 });
    expect(call.content[0]).toMatchObject({ type: 'reasoning', text: 'Read the log.', signature: 'sig' });
    expect(result.messages[2]).toMatchObject({ toolName: 'bash', content: 'FAIL', isError: true });
    expect(result.messages[3]).toMatchObject({ injected: true, content: 'Ran `git status`\n```\nclean\n```' });
    expect(result.dropped.map((item) => item.what)).toEqual(['empty assistant messages', 'model_change entries']);
  });

  it('reads two entries glued on one line, and a compaction keeping the messages from its first kept entry', () => {
    const result = load(
      [
        v1Header,
        userEntry('one'),
        entry({ role: 'assistant', content: [{ type: 'text', text: 'A' }], ...anthropic, usage: piUsage(1, 0, 0, 1, 0) }),
        userEntry('two'),
        entry({ role: 'assistant', content: [{ type: 'text', text: 'B' }], ...anthropic, usage: piUsage(1, 0, 0, 1, 0) }),
        // Entry 3 of the file (the header is entry 0) is the user message "two".
        { type: 'compaction', summary: 'We said A.', firstKeptEntryIndex: 3, tokensBefore: 180000 },
      ],
      true,
    );
    expect(result.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user']);
    const summary = result.messages[4] as UserMessage;
    expect(summary).toMatchObject({ injected: true, compaction: { keptMessages: 2, tokensBefore: 180000 } });
    expect(summary.content).toContain('<summary>\nWe said A.\n</summary>');
  });

  it('reads a v3 tree along the path to the last entry, with images in tool results', () => {
    const png = { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' };
    const result = load([
      { type: 'session', version: 3, id: 's3', timestamp: '2026-01-01T09:00:00.000Z', cwd: '/repo' },
      { ...userEntry('Screenshot the page'), id: 'e1', parentId: null },
      {
        ...entry({ role: 'assistant', content: [{ type: 'toolCall', id: 'c1', name: 'shot', arguments: {} }], ...anthropic }),
        id: 'e2',
        parentId: 'e1',
      },
      { ...entry({ role: 'toolResult', toolCallId: 'c1', toolName: 'shot', content: [{ type: 'text', text: 'here' }, png] }), id: 'e3', parentId: 'e2' },
      { ...entry({ role: 'assistant', content: [{ type: 'text', text: 'A retry that was left' }], ...anthropic }), id: 'e4', parentId: 'e3' },
      { type: 'custom', customType: 'state', data: {}, id: 'e5', parentId: 'e3' },
      { ...entry({ role: 'assistant', content: [{ type: 'text', text: 'It shows the login.' }], ...anthropic }), id: 'e6', parentId: 'e5' },
    ]);
    expect(result.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect((result.messages[2] as ToolMessage).content).toEqual([
      { type: 'text', text: 'here' },
      { type: 'image', data: 'iVBORw0KGgo=', mediaType: 'image/png' },
    ]);
    expect(result.dropped.map((item) => [item.what, item.count])).toEqual([
      ['entries on another branch', 1],
      ['custom entries', 1],
    ]);
    expect(result.notes[0]).toContain('pi session format v3');
  });

  it('marks a tool result whose call was never recorded as lost content (OpenClaw writes such results)', () => {
    const result = load([
      v1Header,
      userEntry('Check the cron jobs'),
      entry({ role: 'toolResult', toolCallId: 'call_x', toolName: 'cron list', content: [{ type: 'text', text: 'Tool cron list not found' }], isError: true }),
      entry({ role: 'assistant', content: [{ type: 'text', text: 'No cron tool here.' }], ...anthropic }),
    ]);
    expect(result.messages.map((message) => message.role)).toEqual(['user', 'assistant']);
    expect(result.dropped).toEqual([{ what: 'tool results without their call', why: expect.any(String), count: 1, lines: [3], lossy: true }]);
  });

  it('names a file that does not start with a session header', () => {
    expect(() => load([userEntry('hi')])).toThrow(ImportError);
    expect(() => load([userEntry('hi')])).toThrow(/^session\.jsonl, line 1: the pi session header: type /);
  });
});
