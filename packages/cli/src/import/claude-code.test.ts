/**
 * The Claude Code importer on small lines written for these tests in the shape Claude
 * Code writes (see test/fixtures/sessions/README.md for the format).
 */
import type { AssistantMessage, ToolMessage, UserMessage } from '@episodic/core';
import { describe, expect, it } from 'vitest';
import { importClaudeCode } from './claude-code.js';
import { ImportError } from './import-result.js';
import { recordingLines } from './recording-lines.js';

const model = 'claude-sonnet-4-5-20250929';
let clock = 0;
const at = () => new Date(Date.UTC(2026, 0, 1, 9, 0, clock++)).toISOString();

function user(uuid: string, parent: string | null, content: unknown, extra: Record<string, unknown> = {}) {
  return { type: 'user', uuid, parentUuid: parent, sessionId: 's', timestamp: at(), message: { role: 'user', content }, ...extra };
}

function assistant(uuid: string, parent: string, id: string, block: unknown, output = 1, extra: Record<string, unknown> = {}) {
  const usage = { input_tokens: 3, cache_creation_input_tokens: 200, cache_read_input_tokens: 9000, output_tokens: output };
  return {
    type: 'assistant',
    uuid,
    parentUuid: parent,
    timestamp: at(),
    message: { id, role: 'assistant', model, content: [block], usage },
    ...extra,
  };
}

const lines = (...values: object[]) => values.map((value) => JSON.stringify(value)).join('\n');
const load = (text: string) => importClaudeCode(recordingLines(text, 'session.jsonl'), 'session.jsonl');

/** A prompt, one response over three lines (thinking, text, tool use), its result, and the answer. */
const session = [
  { type: 'summary', summary: 'CI debugging', leafUuid: 'a5' },
  user('u1', null, 'Why is CI red?'),
  assistant('a1', 'u1', 'msg_1', { type: 'thinking', thinking: 'Read the log.', signature: 'sig1' }),
  assistant('a2', 'a1', 'msg_1', { type: 'text', text: 'Reading the log.' }),
  assistant('a3', 'a2', 'msg_1', { type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'cat ci.log' } }, 90),
  user('u2', 'a3', [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'FAIL parser.test.ts' }]),
  { type: 'file-history-snapshot', messageId: 'x', snapshot: {} },
  assistant('a4', 'u2', 'msg_2', { type: 'text', text: 'The parser test fails.' }, 40),
  { type: 'system', subtype: 'stop_hook_summary', uuid: 'h1', parentUuid: 'a4', timestamp: at() },
];

describe('importClaudeCode', () => {
  it('merges the lines of one response into one message with its usage counted once', () => {
    const result = load(lines(...session));
    const roles = result.messages.map((message) => message.role);
    expect(roles).toEqual(['user', 'assistant', 'tool', 'assistant']);
    const first = result.messages[1] as AssistantMessage;
    expect(first.content.map((part) => part.type)).toEqual(['reasoning', 'text', 'tool-call']);
    expect(first.content[0]).toMatchObject({ type: 'reasoning', text: 'Read the log.', signature: 'sig1' });
    expect(first.model).toEqual({ provider: 'anthropic', id: model });
    // The last line has the final output count; input counts cache reads and writes.
    expect(first.usage).toEqual({ inputTokens: 9203, cachedInputTokens: 9000, cacheWriteTokens: 200, outputTokens: 90 });
    expect(result.messages[2]).toMatchObject({ role: 'tool', toolCallId: 'toolu_1', toolName: 'Bash', content: 'FAIL parser.test.ts' });
    expect(typeof result.messages[0]!.timestamp).toBe('string');
    expect(result.prefixRecorded).toBe(false);
    expect(result.dropped.map((item) => [item.what, item.count])).toEqual([
      ['summary lines', 1],
      ['file-history-snapshot lines', 1],
      ['system lines (stop_hook_summary)', 1],
    ]);
  });

  it('marks context the harness added as injected, and keeps typed prompts and slash commands that ask the model', () => {
    const result = load(
      lines(
        user('u1', null, '<command-message>review is running…</command-message>\n<command-name>/review</command-name>'),
        user('u2', 'u1', [{ type: 'text', text: 'Review the open pull request.' }], { isMeta: true }),
        assistant('a1', 'u2', 'msg_1', { type: 'text', text: 'Reviewing.' }),
        user('u3', 'a1', '<system-reminder>The todo list changed.</system-reminder>'),
        user('u4', 'u3', '<command-name>/context</command-name>\n<command-message>context</command-message>'),
        user('u5', 'u4', '<local-command-stdout>149k/200k tokens</local-command-stdout>'),
        user('u6', 'u5', '[Request interrupted by user for tool use]'),
        user('u7', 'u6', 'Thanks, and the tests?'),
        assistant('a2', 'u7', 'msg_2', { type: 'text', text: 'They pass.' }),
      ),
    );
    const users = result.messages.filter((message): message is UserMessage => message.role === 'user');
    expect(users.map((message) => message.injected === true)).toEqual([false, true, true, true, true, true, false]);
  });

  it('follows the path to the last line: sub-agent lines and an abandoned branch are left out and counted', () => {
    const result = load(
      lines(
        user('u1', null, 'Explore the repo'),
        assistant('a1', 'u1', 'msg_1', { type: 'tool_use', id: 'toolu_t', name: 'Task', input: { prompt: 'look' } }),
        user('s1', 'a1', 'look', { isSidechain: true }),
        assistant('s2', 's1', 'msg_s', { type: 'text', text: 'Found it.' }, 5, { isSidechain: true }),
        user('u2', 'a1', [{ type: 'tool_result', tool_use_id: 'toolu_t', content: [{ type: 'text', text: 'Found it.' }] }]),
        assistant('x1', 'u2', 'msg_x', { type: 'text', text: 'A first answer, rewound.' }),
        assistant('a2', 'u2', 'msg_2', { type: 'text', text: 'The repo has two packages.' }),
      ),
    );
    expect(result.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect((result.messages[3] as AssistantMessage).content[0]).toMatchObject({ text: 'The repo has two packages.' });
    expect(result.dropped.map((item) => [item.what, item.count])).toEqual([
      ['sub-agent lines (isSidechain)', 2],
      ['lines on a branch the session left', 1],
    ]);
  });

  it("reads a sub-agent's own file (every line a sidechain) as its conversation", () => {
    const result = load(
      lines(
        user('s1', null, 'Find the flaky test', { isSidechain: true, agentId: 'a9' }),
        assistant('s2', 's1', 'msg_s', { type: 'text', text: 'It is e2e/login.' }, 5, { isSidechain: true, agentId: 'a9' }),
      ),
    );
    expect(result.messages.map((message) => message.role)).toEqual(['user', 'assistant']);
    expect(result.dropped).toEqual([]);
  });

  it('links through a compaction boundary and marks the summary as a compaction', () => {
    const result = load(
      lines(
        user('u1', null, 'Start'),
        assistant('a1', 'u1', 'msg_1', { type: 'text', text: 'Started.' }),
        {
          type: 'system',
          subtype: 'compact_boundary',
          uuid: 'c1',
          parentUuid: null,
          logicalParentUuid: 'a1',
          compactMetadata: { trigger: 'manual', preTokens: 150000 },
          timestamp: at(),
        },
        user('u2', 'c1', 'This session is being continued from a previous conversation...', { isCompactSummary: true }),
        user('u3', 'u2', 'Go on'),
        assistant('a2', 'u3', 'msg_2', { type: 'text', text: 'Going on.' }),
      ),
    );
    expect(result.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user', 'user', 'assistant']);
    expect(result.messages[2]).toMatchObject({ injected: true, compaction: { keptMessages: 0, tokensBefore: 150000 } });
  });

  it('keeps images in tool results and user messages, and runs of the provider own tools as opaque parts', () => {
    const png = { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' };
    const search = { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'vitest flaky' } };
    const result = load(
      lines(
        user('u1', null, [{ type: 'image', source: png }, { type: 'text', text: 'What is this?' }]),
        assistant('a1', 'u1', 'msg_1', search),
        assistant('a2', 'a1', 'msg_1', { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: [] }),
        assistant('a3', 'a2', 'msg_1', { type: 'tool_use', id: 'toolu_2', name: 'Screenshot', input: {} }),
        user('u2', 'a3', [{ type: 'tool_result', tool_use_id: 'toolu_2', content: [{ type: 'image', source: png }] }]),
      ),
    );
    expect((result.messages[0] as UserMessage).content).toEqual([
      { type: 'image', data: 'iVBORw0KGgo=', mediaType: 'image/png' },
      { type: 'text', text: 'What is this?' },
    ]);
    const parts = (result.messages[1] as AssistantMessage).content;
    expect(parts.slice(0, 2)).toMatchObject([
      { type: 'provider-tool', name: 'web_search', kind: 'call', id: 'srvtoolu_1', providerData: { provider: 'anthropic', block: search } },
      { type: 'provider-tool', name: 'web_search', kind: 'result', id: 'srvtoolu_1' },
    ]);
    expect((result.messages[2] as ToolMessage).content).toEqual([{ type: 'image', data: 'iVBORw0KGgo=', mediaType: 'image/png' }]);
  });

  it('names the file and line of a conversation line it cannot read', () => {
    const text = lines(user('u1', null, 'Hi'), { type: 'assistant', parentUuid: 'u1', message: { content: [] } });
    const error = (() => {
      try {
        load(text);
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(ImportError);
    expect((error as Error).message).toBe('session.jsonl, line 2: a Claude Code assistant line: uuid invalid input: expected string, received undefined');
  });

  it('walks the chain through hook progress lines (CLI 2.x) and keeps every conversation line on it', () => {
    const progress = (uuid: string, parent: string) => ({ type: 'progress', uuid, parentUuid: parent, data: { type: 'hook_progress', hookEvent: 'PostToolUse' }, timestamp: at() });
    const result = load(
      lines(
        user('u1', null, 'Why is CI red?'),
        assistant('a1', 'u1', 'msg_1', { type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'cat ci.log' } }),
        progress('p1', 'a1'),
        user('u2', 'p1', [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'FAIL parser.test.ts' }]),
        progress('p2', 'u2'),
        assistant('a2', 'p2', 'msg_2', { type: 'text', text: 'The parser test fails.' }),
      ),
    );
    expect(result.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(result.dropped.map((item) => [item.what, item.count])).toEqual([['progress lines', 2]]);
  });

  it('reports a repeated uuid instead of putting the later line in the first one\'s place', () => {
    const result = load(
      lines(
        user('u1', null, 'Start'),
        assistant('a1', 'u1', 'msg_1', { type: 'text', text: 'Started.' }),
        user('u1', null, 'Start'),
        user('u1', null, 'Something else'),
        user('u2', 'a1', 'Go on'),
      ),
    );
    expect(result.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
    expect((result.messages[0] as UserMessage).content).toBe('Start');
    expect(result.dropped.map((item) => [item.what, item.count, item.lossy === true, item.lines])).toEqual([
      ['lines repeating an earlier line (same uuid and content)', 1, false, [3]],
      ['conversation lines reusing an earlier uuid with other content', 1, true, [4]],
    ]);
  });

  it('marks conversation lines cut off by a parent missing from the file as lost content', () => {
    const result = load(
      lines(
        user('u1', null, 'Start'),
        assistant('a1', 'u1', 'msg_1', { type: 'text', text: 'Started.' }),
        user('u2', 'gone', 'Go on'),
        assistant('a2', 'u2', 'msg_2', { type: 'text', text: 'Going on.' }),
      ),
    );
    expect(result.messages).toHaveLength(2);
    const lost = result.dropped.find((item) => item.lossy === true);
    expect(lost).toMatchObject({ what: 'conversation lines cut off by a broken parent chain', count: 2, lines: [1, 2] });
    expect(lost?.why).toContain('line 3 names parent gone');
  });

  it('marks a file that begins mid-session (its first line names a parent not in the file) as lost history', () => {
    // Resumed sessions and checkpoint slices (Entire's full.jsonl) start this way: the
    // earlier history is elsewhere, and the transcript alone is not the context.
    const result = load(
      lines(
        { type: 'system', subtype: 'stop_hook_summary', uuid: 's1', parentUuid: 'earlier', timestamp: at() },
        user('u2', 's1', 'Go on'),
        assistant('a2', 'u2', 'msg_2', { type: 'text', text: 'Going on.' }),
      ),
    );
    expect(result.messages).toHaveLength(2);
    expect(result.dropped.filter((item) => item.lossy === true)).toEqual([
      { what: 'history from before the file', why: expect.stringContaining('names parent earlier'), count: 1, lines: [1], lossy: true },
    ]);
  });

  it('keeps an assistant block of a type it does not know, whole, in place', () => {
    const future = { type: 'container_upload_result', id: 'cu_1', content: { file_id: 'f1' } };
    const result = load(
      lines(
        user('u1', null, 'Go'),
        assistant('a1', 'u1', 'msg_1', { type: 'text', text: 'Before.' }),
        assistant('a2', 'a1', 'msg_1', future),
        assistant('a3', 'a2', 'msg_1', { type: 'text', text: 'After.' }),
      ),
    );
    expect((result.messages[1] as AssistantMessage).content).toMatchObject([
      { type: 'text', text: 'Before.' },
      { type: 'provider-tool', name: 'container_upload_result', kind: 'result', id: 'cu_1', providerData: { block: future } },
      { type: 'text', text: 'After.' },
    ]);
    expect(result.dropped).toEqual([]);
  });
});
