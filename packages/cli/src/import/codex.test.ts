/**
 * The Codex importer on small rollout lines written for these tests in the shape
 * Codex CLI writes (see test/fixtures/sessions/README.md for the format).
 */
import type { AssistantMessage, UserMessage } from '@episodic/core';
import { describe, expect, it } from 'vitest';
import { importCodex } from './codex.js';
import { ImportError } from './import-result.js';
import { recordingLines } from './recording-lines.js';

let second = 0;
const line = (type: string, payload: unknown) =>
  JSON.stringify({ timestamp: new Date(Date.UTC(2026, 0, 1, 9, 0, second++)).toISOString(), type, payload });
const item = (payload: object) => line('response_item', payload);
const event = (payload: object) => line('event_msg', payload);
const usage = (input: number, cached: number, output: number, reasoning: number, total: number) => ({
  input_tokens: input,
  cached_input_tokens: cached,
  output_tokens: output,
  reasoning_output_tokens: reasoning,
  total_tokens: total,
});
const tokenCount = (total: ReturnType<typeof usage>, last?: ReturnType<typeof usage>) =>
  event({ type: 'token_count', info: { total_token_usage: total, ...(last ? { last_token_usage: last } : {}) } });
const message = (role: string, text: string) =>
  item({ type: 'message', role, content: [{ type: role === 'assistant' ? 'output_text' : 'input_text', text }] });
const load = (...lines: string[]) => importCodex(recordingLines(lines.join('\n'), 'rollout.jsonl'), 'rollout.jsonl');

const meta = line('session_meta', { id: 's', cli_version: '0.57.0', model_provider: 'openai', instructions: null });
const context = line('turn_context', { model: 'gpt-5-codex', effort: 'medium' });

describe('importCodex', () => {
  it('makes one assistant message per request, with the usage of the token count before it', () => {
    const first = usage(3000, 2000, 100, 64, 3100);
    const second = usage(3300, 3000, 50, 0, 3350);
    const result = load(
      meta,
      message('user', '<environment_context>\n  <cwd>/repo</cwd>\n</environment_context>'),
      message('user', 'Why is CI red?'),
      event({ type: 'user_message', message: 'Why is CI red?' }),
      context,
      event({ type: 'token_count', info: null }),
      tokenCount(first, first),
      item({ type: 'reasoning', summary: [{ type: 'summary_text', text: '**Reading the log**' }], encrypted_content: 'gAAA' }),
      item({ type: 'function_call', name: 'shell', arguments: '{"command":["cat","ci.log"]}', call_id: 'call_1' }),
      item({ type: 'function_call_output', call_id: 'call_1', output: '{"output":"FAIL","metadata":{"exit_code":1}}' }),
      context,
      tokenCount(first, first),
      // No last_token_usage (older rollouts): the difference of the totals.
      tokenCount(usage(6300, 5000, 150, 64, 6450)),
      event({ type: 'agent_message', message: 'The parser test fails.' }),
      message('assistant', 'The parser test fails.'),
    );
    expect(result.messages.map((found) => found.role)).toEqual(['user', 'user', 'assistant', 'tool', 'assistant']);
    expect((result.messages[0] as UserMessage).injected).toBe(true);
    expect((result.messages[1] as UserMessage).injected).toBeUndefined();
    const call = result.messages[2] as AssistantMessage;
    expect(call.model).toEqual({ provider: 'openai', id: 'gpt-5-codex' });
    expect(call.usage).toEqual({ inputTokens: 3000, cachedInputTokens: 2000, outputTokens: 100, reasoningTokens: 64 });
    expect(call.content).toMatchObject([
      { type: 'reasoning', text: '**Reading the log**', providerData: { provider: 'openai', encrypted_content: 'gAAA' } },
      { type: 'tool-call', id: 'call_1', name: 'shell', args: { command: ['cat', 'ci.log'] } },
    ]);
    expect(result.messages[3]).toMatchObject({ toolCallId: 'call_1', toolName: 'shell', content: '{"output":"FAIL","metadata":{"exit_code":1}}' });
    expect((result.messages[4] as AssistantMessage).usage).toEqual({
      inputTokens: second.input_tokens,
      cachedInputTokens: second.cached_input_tokens,
      outputTokens: second.output_tokens,
      reasoningTokens: 0,
    });
    expect(result.notes[0]).toContain('Codex CLI 0.57.0; 2 terminal echo events not imported');
  });

  it('keeps developer lines, custom tool calls with free-form input, and drops undo snapshots', () => {
    const result = load(
      meta,
      context,
      message('developer', 'You are now gpt-5-codex.'),
      message('user', 'Rename the selector'),
      tokenCount(usage(100, 0, 10, 0, 110), usage(100, 0, 10, 0, 110)),
      item({ type: 'custom_tool_call', name: 'apply_patch', input: '*** Begin Patch\n*** End Patch', call_id: 'call_p', status: 'completed' }),
      item({ type: 'custom_tool_call_output', call_id: 'call_p', output: '{"output":"Success."}' }),
      item({ type: 'ghost_snapshot', ghost_commit: { id: 'abc' } }),
    );
    expect(result.messages[0]).toEqual({ role: 'developer', content: 'You are now gpt-5-codex.', timestamp: expect.any(String) });
    expect((result.messages[2] as AssistantMessage).content[0]).toMatchObject({
      type: 'tool-call',
      name: 'apply_patch',
      args: '*** Begin Patch\n*** End Patch',
    });
    expect(result.messages[3]).toMatchObject({ role: 'tool', toolName: 'apply_patch' });
    expect(result.dropped).toEqual([
      { what: 'ghost_snapshot items', why: 'an undo snapshot of the working tree, never sent to the model', count: 1, lines: [8] },
    ]);
  });

  it('says when no model is recorded (no turn_context) and names the provider instead', () => {
    const result = load(meta, message('user', 'Hi'), message('assistant', 'Hello.'));
    expect((result.messages[1] as AssistantMessage).model).toBeUndefined();
    expect(result.provider).toBe('openai');
    expect(result.notes.join('\n')).toContain('no model is recorded');
  });

  it('names the line that is not a rollout line', () => {
    expect(() => load(meta, JSON.stringify({ role: 'user', content: 'x' }))).toThrow(ImportError);
    expect(() => load(meta, JSON.stringify({ role: 'user', content: 'x' }))).toThrow(/^rollout\.jsonl, line 2: a Codex rollout line/);
  });

  it('reads a 0.140+ compaction: the replacement history is the new context, the summary request is not the next call', () => {
    const before = usage(200_000, 190_000, 500, 0, 200_500);
    const result = load(
      meta,
      context,
      message('user', 'Triage the open issues.'),
      tokenCount(usage(9000, 0, 100, 0, 9100), usage(9000, 0, 100, 0, 9100)),
      message('assistant', 'Done.'),
      // The request that wrote the summary: its usage comes just before the compacted line.
      tokenCount(before, usage(191_000, 190_000, 400, 0, 191_400)),
      line('compacted', {
        message: '',
        replacement_history: [
          { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Triage the open issues.' }] },
          { type: 'message', role: 'developer', content: [{ type: 'input_text', text: '<permissions instructions>full access' }] },
          { type: 'compaction', encrypted_content: 'REDACTED' },
        ],
      }),
      message('assistant', 'Continuing.'),
    );
    const compaction = result.messages.find((entry) => entry.role === 'user' && entry.compaction) as UserMessage;
    expect(compaction.content).toBe('Triage the open issues.\n\n<permissions instructions>full access');
    expect(compaction.injected).toBe(true);
    const after = result.messages.at(-1) as AssistantMessage;
    expect(after.content).toEqual([expect.objectContaining({ type: 'text', text: 'Continuing.' })]);
    expect(after.usage).toBeUndefined();
    expect(result.dropped.map((entry) => entry.what)).toEqual(
      expect.arrayContaining(['usage of compaction requests', 'encrypted compaction summaries']),
    );
    expect(result.dropped.every((entry) => entry.lossy !== true)).toBe(true);
  });

  it('reads tool search (0.140+) as a call and its result', () => {
    const result = load(
      meta,
      context,
      message('user', 'File an issue.'),
      item({ type: 'tool_search_call', call_id: 'call_s', status: 'completed', execution: 'client', arguments: { query: 'github issue', limit: 8 } }),
      item({ type: 'tool_search_output', call_id: 'call_s', status: 'completed', execution: 'client', tools: [{ type: 'function', name: '_create_issue' }] }),
    );
    expect(result.messages[1]).toMatchObject({ role: 'assistant', content: [{ type: 'tool-call', id: 'call_s', name: 'tool_search', args: { query: 'github issue', limit: 8 } }] });
    expect(result.messages[2]).toMatchObject({ role: 'tool', toolCallId: 'call_s', toolName: 'tool_search', content: '[{"type":"function","name":"_create_issue"}]' });
    expect(result.dropped).toEqual([]);
  });

  it('gives a 0.140+ token count, written after its request\'s items and tool outputs, to that request', () => {
    const first = usage(19_809, 0, 395, 0, 20_204);
    const second = usage(20_310, 19_000, 488, 0, 20_798);
    const result = load(
      meta,
      context,
      message('user', 'What changed?'),
      item({ type: 'function_call', name: 'exec_command', arguments: '{"cmd":"git status"}', call_id: 'call_1' }),
      item({ type: 'function_call_output', call_id: 'call_1', output: 'Process exited with code 0\nOutput:\nclean' }),
      tokenCount(first, first),
      message('assistant', 'Nothing.'),
      tokenCount(usage(40_119, 19_000, 883, 0, 41_002), second),
    );
    const answers = result.messages.filter((entry): entry is AssistantMessage => entry.role === 'assistant');
    expect(answers.map((answer) => answer.usage?.inputTokens)).toEqual([19_809, 20_310]);
    expect(result.dropped).toEqual([]);
  });

  it('reads a tool output that holds a screenshot (0.140+) as an image, not as its base64 text', () => {
    const result = load(
      meta,
      context,
      message('user', 'Show me the page.'),
      item({ type: 'function_call', name: 'screenshot', arguments: '{}', call_id: 'call_1' }),
      item({
        type: 'function_call_output',
        call_id: 'call_1',
        output: [
          { type: 'input_text', text: 'Captured.' },
          { type: 'input_image', image_url: 'data:image/png;base64,iVBORw0KGgo=', detail: 'high' },
        ],
      }),
    );
    expect(result.messages[2]).toMatchObject({
      role: 'tool',
      content: [
        { type: 'text', text: 'Captured.' },
        { type: 'image', data: 'iVBORw0KGgo=', mediaType: 'image/png' },
      ],
    });
  });
});
