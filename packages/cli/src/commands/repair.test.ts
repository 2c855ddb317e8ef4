/**
 * `episodic repair FILE` in-process: it moves exactly the lines a reader refuses,
 * keeps every other line byte for byte, leaves a byte-exact backup and a list of the
 * moved lines, and then the file store and the reader accept the file again.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { FileSessionStore, readTranscript } from '@episodic/core/node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fixtureDir, runCli, transcriptText, twoEpisodes } from '../testing/cli-harness.js';

let fixtures: Awaited<ReturnType<typeof fixtureDir>>;
beforeEach(async () => {
  fixtures = await fixtureDir();
});
afterEach(() => fixtures.cleanup());

const good = transcriptText(twoEpisodes).trimEnd().split('\n');
const orphan = JSON.stringify({ role: 'tool', toolCallId: 'nobody', toolName: 'x', content: 'stray' });
const reuse = JSON.stringify({
  role: 'assistant',
  content: [{ type: 'tool-call', id: 'call_1', name: 'get_ci_log', args: { run: 7 } }],
});
const reuseResult = JSON.stringify({ role: 'tool', toolCallId: 'call_1', toolName: 'get_ci_log', content: 'again' });

/**
 * The fixture with damage at known lines: 2 (a changed byte in a user message), 6 (an
 * orphan result), 8-9 (a reused tool-call id and its result), 15 (a torn last line).
 */
function damaged(): { text: string; bad: number[] } {
  const lines = [...good];
  lines[1] = lines[1]!.replace('"role":"user"', '"role":"user"x');
  lines.splice(5, 0, orphan);
  lines.splice(7, 0, reuse, reuseResult);
  return { text: `${lines.join('\n')}\n{"role":"assistant","content":[{"ty`, bad: [2, 6, 8, 9, 15] };
}

describe('episodic repair', () => {
  it('moves the refused lines aside, keeps the rest byte for byte, and leaves a backup', async () => {
    const { text, bad } = damaged();
    const file = await fixtures.write('session.jsonl', text);
    const result = await runCli(['repair', file]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const report = result.stdout.split('\n');
    expect(report[0]).toBe(`${file}: moved 5 of 15 lines aside:`);
    expect(report.slice(1, 6).map((line) => Number(/^ {2}line (\d+): /.exec(line)?.[1]))).toEqual(bad);
    expect(result.stdout).toContain('line 2: not valid JSON');
    expect(result.stdout).toContain('line 6: a result for tool call "nobody", but no earlier line makes that call');
    expect(result.stdout).toContain('line 8: tool call id "call_1" is already used on line 3');
    // The reused id's result: its call was moved, and call_1 already has its result.
    expect(result.stdout).toContain('line 9: tool call "call_1" already has its result on line 4');
    expect(result.stdout).toContain('cut short by a crash');
    expect(report.at(-2)).toBe(`The original is in ${file}.bak; the moved lines are in ${file}.rejected.jsonl.`);

    expect(await readFile(`${file}.bak`, 'utf8')).toBe(text);
    const original = text.split('\n');
    const kept = original.filter((_line, index) => !bad.includes(index + 1));
    expect(await readFile(file, 'utf8')).toBe(`${kept.join('\n')}\n`);
    const moved = (await readFile(`${file}.rejected.jsonl`, 'utf8')).trimEnd().split('\n').map((line) => JSON.parse(line));
    expect(moved.map((entry: { line: number }) => entry.line)).toEqual(bad);
    expect(moved[1]).toMatchObject({ line: 6, text: orphan });
    expect((await readTranscript(file)).length).toBe(kept.length);
  });

  it('with --dry-run reports the same lines and writes nothing', async () => {
    const { text } = damaged();
    const file = await fixtures.write('session.jsonl', text);
    const result = await runCli(['repair', file, '--dry-run']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/would move 5 of 15 lines aside:[\s\S]*Nothing was written \(--dry-run\)\.\n$/);
    expect(await readFile(file, 'utf8')).toBe(text);
    expect(await readdir(fixtures.path('.'))).toEqual(['session.jsonl']);
  });

  it('leaves a clean file alone', async () => {
    const file = await fixtures.write('clean.jsonl', transcriptText(twoEpisodes));
    const result = await runCli(['repair', file]);
    expect(result).toEqual({ code: 0, stdout: `${file}: all 11 lines pass; nothing to repair.\n`, stderr: '' });
    expect(await readdir(fixtures.path('.'))).toEqual(['clean.jsonl']);
  });

  it('makes a session the file store refused loadable again, as the store error says', async () => {
    const store = new FileSessionStore({ directory: fixtures.path('.') });
    const { text } = damaged();
    await writeFile(store.transcriptPath('s'), text.slice(text.indexOf('\n') + 1));
    const refused = await store.load('s').catch((error: Error) => error.message);
    expect(refused).toContain(`run: episodic repair ${store.transcriptPath('s')}`);
    expect((await runCli(['repair', store.transcriptPath('s')])).code).toBe(0);
    expect((await store.load('s'))?.messages.length).toBeGreaterThan(0);
  });

  it('refuses standard input (a usage error) and what is not a file', async () => {
    expect(await runCli(['repair', '-'])).toMatchObject({ code: 2, stderr: expect.stringMatching(/give its path, not -/) });
    expect(await runCli(['repair', fixtures.path('.')])).toEqual({
      code: 1,
      stdout: '',
      stderr: `episodic: cannot read the transcript to repair ${fixtures.path('.')}: it is a directory, not a regular file\n`,
    });
  });
});
