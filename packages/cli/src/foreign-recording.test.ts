/**
 * Another agent's recording given where a transcript is read: each format is
 * recognised by its first lines, `budget`, `episodes` and `pack` name the exact
 * command that reads it (and read it with `--from`), and `repair` refuses it instead
 * of setting every line aside.
 */
import { readdir, readFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { detectRecording } from './import/detect-source.js';
import type { ImportSource } from './import/import-result.js';
import { fixtureDir, runCli, transcriptText, twoEpisodes } from './testing/cli-harness.js';

let fixtures: Awaited<ReturnType<typeof fixtureDir>>;
beforeEach(async () => {
  fixtures = await fixtureDir();
});
afterEach(() => fixtures.cleanup());

const lines = (...values: object[]) => values.map((value) => `${JSON.stringify(value)}\n`).join('');

/** A small Claude Code session in the shape Claude Code writes (bookkeeping line first). */
const claudeCode = lines(
  { type: 'file-history-snapshot', messageId: 'm1', snapshot: { messageId: 'm1', trackedFileBackups: {} } },
  {
    parentUuid: null,
    isSidechain: false,
    type: 'user',
    sessionId: 's1',
    uuid: 'u1',
    timestamp: '2026-01-01T09:00:00.000Z',
    message: { role: 'user', content: 'Why is CI red?' },
  },
  {
    parentUuid: 'u1',
    isSidechain: false,
    type: 'assistant',
    sessionId: 's1',
    uuid: 'a1',
    timestamp: '2026-01-01T09:00:03.000Z',
    message: {
      id: 'msg_1',
      role: 'assistant',
      model: 'claude-sonnet-4-5',
      content: [{ type: 'text', text: 'The parser test fails.' }],
      usage: { input_tokens: 12, output_tokens: 8, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 },
    },
  },
);

const recordings: Record<ImportSource, string> = {
  'claude-code': claudeCode,
  codex: lines({ timestamp: '2026-01-01T09:00:00Z', type: 'session_meta', payload: { id: 'x', cwd: '/repo' } }),
  pi: lines({ type: 'session', version: 3, id: 's', cwd: '/repo', timestamp: '2026-01-01T09:00:00Z' }),
  'gemini-cli': JSON.stringify({ sessionId: 's', projectHash: 'h', startTime: 't', lastUpdated: 't', messages: [] }, null, 2),
  aider: '\n# aider chat started at 2026-04-22 22:40:12\n\n#### hi  \n',
  'openai-chat': lines({ request: { model: 'gpt-4o', messages: [] }, response: { choices: [] } }),
  'anthropic-messages': lines(
    { model: 'claude-sonnet-4-5', max_tokens: 10, messages: [] },
    { type: 'message', role: 'assistant', content: [] },
  ),
};

describe('detectRecording', () => {
  it.each(Object.entries(recordings))('recognises %s by its first lines', (source, text) => {
    expect(detectRecording(text)).toBe(source);
  });

  it('recognises the JSON Lines chats of later Gemini CLI versions, and takes a transcript for none', () => {
    expect(detectRecording(lines({ sessionId: 's', projectHash: 'h', kind: 'main' }, { id: '1', type: 'user', content: 'hi' }))).toBe(
      'gemini-cli',
    );
    expect(detectRecording(transcriptText(twoEpisodes))).toBeUndefined();
    // A user message that merely mentions a format's words is still a transcript.
    expect(detectRecording(lines({ role: 'user', content: '# aider chat started at noon', type: 'session_meta' }))).toBeUndefined();
  });
});

describe('a recording where a transcript is read', () => {
  it.each(['budget', 'episodes'])(
    '`%s` on a raw Claude Code file names the command that reads it, never repair',
    async (command) => {
      const file = await fixtures.write('session.jsonl', claudeCode);
      const output = await runCli([command, file]);
      expect(output.code).toBe(1);
      expect(output.stderr).toContain('is a Claude Code session, not a transcript');
      expect(output.stderr).toContain(`episodic ${command} --from claude-code ${file}`);
      expect(output.stderr).toContain(`episodic import --from claude-code ${file} -o session.jsonl`);
      expect(output.stderr).not.toContain('repair');
    },
  );

  it('`budget` reads the same file once given the --from it named', async () => {
    const file = await fixtures.write('session.jsonl', claudeCode);
    const output = await runCli(['budget', '--from', 'claude-code', file, '--budgets', '4k']);
    expect(output.stderr).toContain('(claude-code)');
    expect(output.code).toBe(0);
    expect(output.stdout).toContain('Recommendation');
  });

  it('`pack` names the command for a Codex rollout and packs an imported aider log with --from', async () => {
    const codex = await fixtures.write('rollout.jsonl', recordings.codex);
    const refused = await runCli(['pack', codex, '--budget', '8k']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`episodic pack --from codex ${codex}`);

    const aider = await fixtures.write('chat.md', `${recordings.aider}\nHello there.\n`);
    const packed = await runCli(['pack', '--from', 'aider', aider, '--budget', '8k']);
    expect(packed.stderr).toContain('(aider)');
    expect(packed.code).toBe(0);
    expect(packed.stdout).toContain('Packed 2 of 2 messages');
  });

  it('recognises a recording on standard input too', async () => {
    const output = await runCli(['budget', '-'], { stdin: claudeCode });
    expect(output.code).toBe(1);
    expect(output.stderr).toContain('<stdin> is a Claude Code session, not a transcript: read it with: episodic budget --from claude-code -');
  });

  it('names the right --from when the one given does not match the recording', async () => {
    const file = await fixtures.write('session.jsonl', claudeCode);
    for (const argv of [['import', '--from', 'codex', file], ['budget', '--from', 'pi', file]]) {
      const output = await runCli(argv);
      expect(output.code).toBe(1);
      expect(output.stderr).toMatch(/, line 1: .*\(this is a Claude Code session: use --from claude-code\)\n$/);
    }
  });

  it('quotes a path with spaces so the named command can be pasted', async () => {
    const file = await fixtures.write('my session.jsonl', claudeCode);
    const output = await runCli(['episodes', file]);
    expect(output.stderr).toContain(`episodic episodes --from claude-code '${file}'`);
  });

  it('`repair` refuses a raw Claude Code file and writes nothing', async () => {
    const file = await fixtures.write('session.jsonl', claudeCode);
    for (const argv of [['repair', '--dry-run', file], ['repair', file]]) {
      const output = await runCli(argv);
      expect(output.code).toBe(1);
      expect(output.stderr).toContain(`convert it first: episodic import --from claude-code ${file}`);
      expect(output.stdout).not.toContain('would move');
    }
    expect(await readFile(file, 'utf8')).toBe(claudeCode);
    expect(await readdir(fixtures.path(''))).toEqual(['session.jsonl']);
  });

  it('still points a damaged transcript to repair', async () => {
    const file = await fixtures.write('session.jsonl', `${transcriptText(twoEpisodes)}{"role":"assistant","content":[{"ty`);
    const output = await runCli(['episodes', file]);
    expect(output.code).toBe(1);
    expect(output.stderr).toContain(`episodic repair ${file}`);
  });
});
