/**
 * `episodic import` run in-process: the transcript on stdout or in a file, the
 * one-line summary on stderr, the --json report, --from on episodes and budget, and
 * bad input with exit codes. Recordings are small ones written for these tests.
 */
import { readFile } from 'node:fs/promises';
import { readTranscript } from '@episodic/core/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { splitGluedObjects } from '../import/recording-lines.js';
import { fixtureDir, runCli } from '../testing/cli-harness.js';

let fixtures: Awaited<ReturnType<typeof fixtureDir>>;
let claudeFile: string;

const claudeLines = [
  { type: 'summary', summary: 'CI', leafUuid: 'a2' },
  { type: 'user', uuid: 'u1', parentUuid: null, timestamp: '2026-01-01T09:00:00Z', message: { role: 'user', content: 'Why is CI red?' } },
  {
    type: 'assistant',
    uuid: 'a1',
    parentUuid: 'u1',
    timestamp: '2026-01-01T09:00:05Z',
    message: {
      id: 'msg_1',
      model: 'claude-sonnet-4-5-20250929',
      content: [{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'cat ci.log' } }],
      usage: { input_tokens: 5, cache_read_input_tokens: 20000, cache_creation_input_tokens: 500, output_tokens: 40 },
    },
  },
  {
    type: 'user',
    uuid: 'u2',
    parentUuid: 'a1',
    timestamp: '2026-01-01T09:00:06Z',
    message: {
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'toolu_1', content: 'FAIL parser.test.ts' },
        { type: 'text', text: '<system-reminder>The todo list is empty.</system-reminder>' },
      ],
    },
  },
  {
    type: 'assistant',
    uuid: 'a2',
    parentUuid: 'u2',
    timestamp: '2026-01-01T09:00:09Z',
    message: {
      id: 'msg_2',
      model: 'claude-sonnet-4-5-20250929',
      content: [{ type: 'text', text: 'The parser test fails.' }],
      usage: { input_tokens: 4, cache_read_input_tokens: 20500, cache_creation_input_tokens: 60, output_tokens: 20 },
    },
  },
];

beforeAll(async () => {
  fixtures = await fixtureDir();
  claudeFile = await fixtures.write('claude.jsonl', claudeLines.map((line) => JSON.stringify(line)).join('\n'));
});
afterAll(async () => {
  await fixtures.cleanup();
});

describe('episodic import', () => {
  it('writes transcript v1.1 to standard output and one summary line to stderr', async () => {
    const result = await runCli(['import', '--from', 'claude-code', claudeFile]);
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('{"format":"episodic-transcript","version":"1.1"}');
    expect(lines.slice(1).map((line) => (JSON.parse(line) as { role: string }).role)).toEqual([
      'user',
      'assistant',
      'tool',
      'user',
      'assistant',
    ]);
    expect(result.stderr).toBe(
      `Imported 5 messages from ${claudeFile} (claude-code); dropped 1 items: 1 summary lines (--json says why).\n`,
    );
  });

  it('writes a file with -o that reads back, and the report with --json', async () => {
    const out = fixtures.path('imported.jsonl');
    const result = await runCli(['import', '-f', 'claude-code', claudeFile, '-o', out, '--json']);
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as { source: string; messages: number; dropped: unknown[] };
    expect(report).toMatchObject({ source: 'claude-code', messages: 5 });
    expect(report.dropped).toEqual([
      { what: 'summary lines', why: 'the session title shown in the picker, never sent to the model', count: 1, lines: [1] },
    ]);
    const messages = await readTranscript(out);
    expect(messages).toHaveLength(5);
    expect(messages[3]).toMatchObject({ role: 'user', injected: true });
  });

  it('lets episodes and budget read the recording directly with --from', async () => {
    const episodes = await runCli(['episodes', '--from', 'claude-code', claudeFile]);
    expect(episodes.code).toBe(0);
    // The reminder beside the tool result is injected: one episode, not two.
    expect(episodes.stdout).toMatch(/: 1 episode, 5 messages/);
    const budget = await runCli(['budget', '--from', 'claude-code', claudeFile, '--budgets', '32k', '--retention', 'episode']);
    expect(budget.code).toBe(0);
    expect(budget.stdout).toContain("inferred from the first call's reported input");
    expect(budget.stderr).toContain('Imported 5 messages');
  });

  it('writes the tool definitions an API log holds with --tools-out, and refuses it for an agent session', async () => {
    const log = await fixtures.write(
      'chat.jsonl',
      JSON.stringify({
        request: {
          model: 'gpt-4.1',
          messages: [{ role: 'user', content: 'Hi' }],
          tools: [{ type: 'function', function: { name: 'get_log', description: 'Read', parameters: { type: 'object' } } }],
        },
        response: { choices: [{ message: { role: 'assistant', content: 'Hello.' } }], usage: { prompt_tokens: 40, completion_tokens: 2 } },
      }),
    );
    const tools = fixtures.path('tools.json');
    expect((await runCli(['import', '--from', 'openai-chat', log, '-o', fixtures.path('chat-out.jsonl'), '--tools-out', tools])).code).toBe(0);
    expect(JSON.parse(await readFile(tools, 'utf8'))).toEqual([{ name: 'get_log', description: 'Read', inputSchema: { type: 'object' } }]);
    const refused = await runCli(['import', '--from', 'claude-code', claudeFile, '--tools-out', tools]);
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe('');
  });

  it('exits 1 naming the file and line of a bad recording, and 2 for a bad command line', async () => {
    const bad = await fixtures.write('bad.jsonl', `${JSON.stringify(claudeLines[1])}\n{"type":"user",`);
    const broken = await runCli(['import', '--from', 'claude-code', bad]);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toMatch(new RegExp(`^episodic: ${bad.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}, line 2: not valid JSON`));
    const missing = await runCli(['import', '--from', 'pi', fixtures.path('none.jsonl')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('none.jsonl: cannot read it: no such file');
    expect((await runCli(['import', claudeFile])).stderr).toContain('missing --from');
    expect((await runCli(['import', '--from', 'cursor', claudeFile])).code).toBe(2);
    expect((await runCli(['import', '--from', 'pi', claudeFile, '--json'])).stderr).toContain('--json prints the report on standard output');
  });

  it('exits 1 when conversation content would be left out, and imports it with --lossy', async () => {
    // The second prompt names a parent that is not in the file: the first exchange is cut off.
    const cut = claudeLines.map((line) => (line.type === 'user' && line.uuid === 'u2' ? { ...line, parentUuid: 'missing' } : line));
    const file = await fixtures.write('cut.jsonl', cut.map((line) => JSON.stringify(line)).join('\n'));
    const refused = await runCli(['import', '--from', 'claude-code', file]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('would leave out conversation content: 2 conversation lines cut off by a broken parent chain');
    expect(refused.stderr).toContain('--lossy');
    expect(refused.stdout).toBe('');
    const accepted = await runCli(['import', '--from', 'claude-code', file, '--lossy']);
    expect(accepted.code).toBe(0);
    expect(accepted.stderr).toContain('2 conversation lines cut off by a broken parent chain');
    const budget = await runCli(['budget', '--from', 'claude-code', file, '--budgets', '200k', '--lossy']);
    expect(budget.code).toBe(0);
  });
});

describe('import reconciliation', () => {
  it('exits 1 with "incomplete" when a call reported far more input than the transcript and a plausible prefix hold', async () => {
    // The first call reported 120,000 input tokens; the transcript holds one short prompt before it.
    const big = claudeLines.map((line) =>
      line.type === 'assistant' && line.uuid === 'a1'
        ? {
            ...line,
            message: {
              ...line.message!,
              usage: { input_tokens: 5, cache_read_input_tokens: 120000, cache_creation_input_tokens: 0, output_tokens: 40 },
            },
          }
        : line,
    );
    const file = await fixtures.write('incomplete.jsonl', big.map((line) => JSON.stringify(line)).join('\n'));
    const refused = await runCli(['import', '--from', 'claude-code', file]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/incomplete: call 1 \(transcript line 2\) reported 120005 tokens, the transcript holds \d+; the gap is more than the fixed prefix of Claude Code 2\.x/);
    const budget = await runCli(['budget', '--from', 'claude-code', file, '--budgets', '200k', '--lossy']);
    expect(budget.code).toBe(1);
    expect(budget.stderr).toMatch(/the call at transcript line 2 reported [\d,]+ tokens more than the transcript holds before it, more than any fixed prefix of Claude Code 2\.x/);
    // The complete session reconciles.
    const ok = await runCli(['import', '--from', 'claude-code', claudeFile, '-o', fixtures.path('ok.jsonl'), '--json']);
    expect(JSON.parse(ok.stdout).reconciliation).toMatchObject({ calls: 2, incomplete: [] });
  });
});

describe('splitGluedObjects', () => {
  it('cuts objects glued on one line, braces inside strings included, and leaves one object whole', () => {
    expect(splitGluedObjects('{"a":"}{"}{"b":[1,{"c":2}]}')).toEqual(['{"a":"}{"}', '{"b":[1,{"c":2}]}']);
    expect(splitGluedObjects('{"a":"x\\"}"}')).toEqual(['{"a":"x\\"}"}']);
    expect(splitGluedObjects('{"a":1')).toEqual(['{"a":1']);
  });
});
