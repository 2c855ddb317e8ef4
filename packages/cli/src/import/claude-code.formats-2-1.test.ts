/**
 * The Claude Code importer on the 2.1.x formats, on small lines written for these
 * tests in the shape those versions write: hook progress written late (2.1.7x),
 * hooks and queued prompts as attachments (2.1.101+), tool search results
 * (2.1.112+), files that begin at a compaction, and the prefix a file shows.
 */
import type { AssistantMessage, ToolMessage, UserMessage } from '@episodic/core';
import { describe, expect, it } from 'vitest';
import { importClaudeCode } from './claude-code.js';
import { prefixLimit } from './known-prefixes.js';
import { recordingLines } from './recording-lines.js';

const model = 'claude-opus-4-6';
let clock = 0;
const at = () => new Date(Date.UTC(2026, 2, 1, 9, 0, clock++)).toISOString();
const base = { sessionId: 's', version: '2.1.78' };

const user = (uuid: string, parent: string | null, content: unknown) =>
  ({ ...base, type: 'user', uuid, parentUuid: parent, timestamp: at(), message: { role: 'user', content } });
const assistant = (uuid: string, parent: string, id: string, block: unknown, input = 9000) => ({
  ...base,
  type: 'assistant',
  uuid,
  parentUuid: parent,
  timestamp: at(),
  message: { id, role: 'assistant', model, content: [block], usage: { input_tokens: 3, cache_read_input_tokens: input, output_tokens: 50 } },
});
const progress = (uuid: string, parent: string) => ({ ...base, type: 'progress', uuid, parentUuid: parent, data: { type: 'hook_progress' } });
const attachment = (uuid: string, parent: string, value: object) =>
  ({ ...base, type: 'attachment', uuid, parentUuid: parent, timestamp: at(), attachment: value });
const call = (id: string) => ({ type: 'tool_use', id, name: 'Bash', input: { command: 'ls' } });
const result = (id: string, content: unknown = 'ok') => [{ type: 'tool_result', tool_use_id: id, content }];

const lines = (...values: object[]) => values.map((value) => JSON.stringify(value)).join('\n');
const load = (...values: object[]) => importClaudeCode(recordingLines(lines(...values), 'session.jsonl'), 'session.jsonl');
const texts = (messages: readonly { role: string; content: unknown }[]) =>
  messages.map((message) => `${message.role}:${typeof message.content === 'string' ? message.content : JSON.stringify(message.content)}`);

describe('importClaudeCode on 2.1.x', () => {
  it('goes on past hook progress written late (2.1.7x) instead of skipping what came between', () => {
    // The tool call's hook progress lines are written after its result and the next
    // call, parented to the call; the next prompt hangs off the last of them.
    const result1 = load(
      user('u1', null, 'List the files.'),
      assistant('a1', 'u1', 'msg_1', call('toolu_1'), 9000),
      user('r1', 'a1', result('toolu_1')),
      assistant('a2', 'r1', 'msg_2', { type: 'text', text: 'Two files.' }, 9100),
      progress('p1', 'a1'),
      progress('p2', 'p1'),
      user('u2', 'p2', 'Now count the lines.'),
      assistant('a3', 'u2', 'msg_3', { type: 'text', text: 'Ten lines.' }, 9200),
    );
    expect(texts(result1.messages)).toEqual([
      'user:List the files.',
      expect.stringContaining('assistant:'),
      'tool:ok',
      expect.stringContaining('Two files.'),
      'user:Now count the lines.',
      expect.stringContaining('Ten lines.'),
    ]);
    expect(result1.dropped.some((item) => item.what === 'lines on a branch the session left')).toBe(false);
    expect(result1.dropped.find((item) => item.what === 'progress lines')?.count).toBe(2);
  });

  it('keeps a real branch: after a rewind through hook lines the next call is smaller than the left branch', () => {
    const result1 = load(
      user('u1', null, 'Plan the change.'),
      assistant('a1', 'u1', 'msg_1', { type: 'text', text: 'Plan A.' }, 9000),
      user('u2', 'a1', 'Write it all out.'),
      assistant('a2', 'u2', 'msg_2', { type: 'text', text: 'A very long answer.' }, 60_000),
      // Rewound to a1: the new prompt's hook line hangs off a1, and the next call is back to the size at a1.
      attachment('h1', 'a1', { type: 'hook_success', hookEvent: 'UserPromptSubmit', hookName: 'UserPromptSubmit', content: '' }),
      user('u3', 'h1', 'Plan B instead.'),
      assistant('a3', 'u3', 'msg_3', { type: 'text', text: 'Plan B.' }, 9100),
    );
    expect(texts(result1.messages)).toEqual(['user:Plan the change.', expect.stringContaining('Plan A.'), 'user:Plan B instead.', expect.stringContaining('Plan B.')]);
    expect(result1.dropped.find((item) => item.what === 'lines on a branch the session left')?.count).toBe(2);
  });

  it('reads attachments the model read as messages: queued human prompts as turns, hook context as injected', () => {
    const result1 = load(
      user('u1', null, 'Fix the build.'),
      attachment('h1', 'u1', { type: 'hook_additional_context', hookEvent: 'UserPromptSubmit', content: ['Terse mode on.'] }),
      attachment('h2', 'h1', { type: 'hook_system_message', hookEvent: 'SessionStart', content: 'Linked to your next commit.' }),
      assistant('a1', 'h2', 'msg_1', call('toolu_1')),
      user('r1', 'a1', result('toolu_1')),
      attachment('q1', 'r1', { type: 'queued_command', prompt: 'and run the tests too', commandMode: 'prompt', origin: { kind: 'human' } }),
      attachment('q2', 'q1', { type: 'queued_command', prompt: '<task-notification>done</task-notification>', origin: { kind: 'task-notification' } }),
      assistant('a2', 'q2', 'msg_2', { type: 'text', text: 'Built and tested.' }),
      { ...base, type: 'custom-title', customTitle: 'Build fix' },
      { ...base, type: 'last-prompt', lastPrompt: 'and run the tests too' },
    );
    const users = result1.messages.filter((message): message is UserMessage => message.role === 'user');
    expect(users.map((message) => [message.content, message.injected === true])).toEqual([
      ['Fix the build.', false],
      ['Terse mode on.', true],
      ['and run the tests too', false],
      ['<task-notification>done</task-notification>', true],
    ]);
    const what = result1.dropped.map((item) => item.what);
    expect(what).toEqual(expect.arrayContaining(['attachment lines (hook_system_message)', 'custom-title lines', 'last-prompt lines']));
    expect(result1.dropped.every((item) => item.lossy !== true)).toBe(true);
  });

  it('keeps tool_reference blocks of a tool search result (2.1.112+) verbatim', () => {
    const result1 = load(
      user('u1', null, 'Fetch the advisory.'),
      assistant('a1', 'u1', 'msg_1', { type: 'tool_use', id: 'toolu_s', name: 'ToolSearch', input: { query: 'select:WebFetch' } }),
      user('r1', 'a1', result('toolu_s', [{ type: 'tool_reference', tool_name: 'WebFetch' }])),
    );
    expect((result1.messages[2] as ToolMessage).content).toBe('{"type":"tool_reference","tool_name":"WebFetch"}');
    expect(result1.dropped.filter((item) => item.lossy === true)).toEqual([]);
  });

  it('reads a file that begins at a compaction boundary as complete: the context starts at its summary', () => {
    const result1 = load(
      { ...base, type: 'system', subtype: 'compact_boundary', uuid: 'b1', parentUuid: null, logicalParentUuid: 'in-an-earlier-file', compactMetadata: { preTokens: 150_000 } },
      { ...user('s1', 'b1', 'This session is being continued from a previous conversation. Summary: ...'), isCompactSummary: true },
      attachment('f1', 's1', { type: 'file', filename: 'src/a.ts', content: { type: 'text', file: { filePath: 'src/a.ts', content: 'export const a = 1;' } } }),
      assistant('a1', 'f1', 'msg_1', { type: 'text', text: 'Continuing.' }),
    );
    expect(result1.dropped.filter((item) => item.lossy === true)).toEqual([]);
    expect(result1.messages[0]).toMatchObject({ role: 'user', injected: true, compaction: { keptMessages: 0, tokensBefore: 150_000 } });
    expect(result1.messages[1]).toMatchObject({ role: 'user', injected: true, content: 'src/a.ts\nexport const a = 1;' });
    expect((result1.messages[2] as AssistantMessage).content).toEqual([{ type: 'text', text: 'Continuing.' }]);
  });

  it('widens the plausible fixed prefix by the MCP servers and plugins the file shows', () => {
    const result1 = load(
      user('u1', null, 'Open the page.'),
      attachment('l1', 'u1', { type: 'agent_listing_delta', addedTypes: ['claude', 'caveman:cavecrew-builder'] }),
      attachment('m1', 'l1', { type: 'mcp_instructions_delta', addedNames: ['context7'], addedBlocks: ['## context7\nFetch docs.'] }),
      assistant('a1', 'm1', 'msg_1', { type: 'tool_use', id: 'toolu_b', name: 'mcp__Claude_Browser__navigate', input: {} }),
    );
    expect(result1.prefixShown).toEqual({ mcpServers: 2, plugins: true });
    const plain = prefixLimit('claude-code', '2.1.78');
    const widened = prefixLimit('claude-code', '2.1.78', result1.prefixShown);
    expect(widened.start - plain.start).toBe(24_000);
    expect(widened.measuredOn).toContain('2 MCP servers and plugins the file shows');
    expect(prefixLimit('claude-code', '2.1.78', { mcpServers: 0, plugins: false })).toEqual(plain);
  });
});
