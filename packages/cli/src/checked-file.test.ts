/**
 * Every file a user names on the `episodic` command line goes through one checked
 * opener: a regular file, under the option's size cap, opened read-only, a link
 * resolved once (so a rewrite lands in the file it points to), a FIFO refused instead
 * of hanging. Attacks from issue 39: `--cache` on a directory (EISDIR, unexpected), a
 * FIFO (hung), a huge file ("Invalid string length") and a link (`delete` replaced
 * the link, the target kept the entry); `list`/`stats` appended to the file they read.
 */
import { execFileSync } from 'node:child_process';
import { lstat, mkdir, mkdtemp, readFile, rm, symlink, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileReplayCache } from '@episodic/core/node';
import { type ReplayEntry } from '@episodic/core/reasoning';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { toolCallKey } from '../../core/src/reasoning/replay-cache/replay-cache.js';
import { openChecked, readChecked, UnusableFileError } from './checked-file.js';
import { runCli, transcriptText, twoEpisodes } from './testing/cli-harness.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'episodic-checked-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const fifo = (name: string) => {
  const path = join(dir, name);
  execFileSync('mkfifo', [path]);
  return path;
};
const entry = (id: string): ReplayEntry => ({
  key: toolCallKey({ provider: 'deepseek', id: 'deepseek-v4' }, id),
  provider: 'deepseek',
  model: 'deepseek-v4',
  parts: [{ type: 'reasoning', text: `why ${id}` }],
  tokens: 3,
  storedAt: Date.now(),
});

describe('openChecked', () => {
  it('refuses a directory, a FIFO, a device and a file over the cap, each with a typed error', async () => {
    const file = join(dir, 'big.json');
    await writeFile(file, 'x'.repeat(2048));
    const cases: [string, number | undefined, RegExp][] = [
      [dir, undefined, /it is a directory, not a regular file/],
      [fifo('pipe'), undefined, /it is a FIFO \(named pipe\), not a regular file/],
      ['/dev/zero', 1024, /it is a device, not a regular file/],
      [file, 1024, /it is 2 KiB, over the 1 KiB this takes/],
      [join(dir, 'none'), undefined, /no such file/],
    ];
    for (const [path, maxBytes, message] of cases) {
      const opening = openChecked(path, { what: '--pricing', ...(maxBytes ? { maxBytes } : {}) });
      await expect(opening).rejects.toBeInstanceOf(UnusableFileError);
      await expect(opening).rejects.toThrow(message);
    }
  });

  it('resolves a link to the file it points to, and reads at most the cap', async () => {
    const target = join(dir, 'target.txt');
    await writeFile(target, 'hello');
    await symlink(target, join(dir, 'link.txt'));
    const checked = await openChecked(join(dir, 'link.txt'), { what: 'the file' });
    await checked.handle.close();
    expect(checked.path).toBe(target);
    expect((await readChecked(join(dir, 'link.txt'), { what: 'the file', maxBytes: 5 })).toString()).toBe('hello');
  });
});

describe('file options through the checked opener', () => {
  it('--cache on a directory, a FIFO and a 600 MB file: a clear error, no hang, no crash', async () => {
    const huge = join(dir, 'huge.jsonl');
    await writeFile(huge, '');
    await truncate(huge, 600 * 2 ** 20);
    for (const [path, message] of [
      [dir, 'it is a directory, not a regular file'],
      [fifo('cache.fifo'), 'it is a FIFO (named pipe), not a regular file'],
      [huge, 'it is 600 MiB, over the 256 MiB this takes'],
    ] as const) {
      const output = await runCli(['replay-cache', 'list', '--cache', path]);
      expect(output.stderr).toContain(message);
      expect(output.stderr).not.toContain('unexpected error');
      expect(output.code).toBe(1);
    }
  });

  it('replay-cache list and stats leave the file they read byte for byte', async () => {
    const path = join(dir, 'replay.jsonl');
    const writer = await FileReplayCache.open({ path });
    await writer.set([entry('call_1')]);
    await writer.close();
    // A log whose last line was torn by a crash: no newline at the end.
    const torn = `${await readFile(path, 'utf8')}{"key":"tor`;
    await writeFile(path, torn);
    for (const action of ['list', 'stats']) {
      expect((await runCli(['replay-cache', action, '--cache', path])).code).toBe(0);
      expect(await readFile(path, 'utf8')).toBe(torn);
    }
    // The next append still starts on a line of its own.
    const reopened = await FileReplayCache.open({ path });
    await reopened.set([entry('call_2')]);
    await reopened.close();
    expect((await FileReplayCache.open({ path })).stats().entries).toBe(2);
  });

  it('replay-cache delete through a link deletes from the file it points to and keeps the link', async () => {
    const target = join(dir, 'real.jsonl');
    const writer = await FileReplayCache.open({ path: target });
    await writer.set([entry('call_1'), entry('call_2')]);
    await writer.close();
    const link = join(dir, 'link.jsonl');
    await symlink(target, link);
    const output = await runCli(['replay-cache', 'delete', '--cache', link, '--tool-call-id', 'call_1']);
    expect(output.stdout).toContain('Deleted 1 entry');
    expect((await lstat(link)).isSymbolicLink()).toBe(true);
    const after = await FileReplayCache.open({ path: target });
    expect((await after.list()).map((found) => found.key.split('\u0000').at(-1))).toEqual(['call_2']);
  });

  it('refuses a FIFO as the transcript, --pricing and --from recording instead of hanging', async () => {
    const transcript = join(dir, 'session.jsonl');
    await writeFile(transcript, transcriptText(twoEpisodes));
    const pipe = fifo('p');
    for (const argv of [
      ['episodes', pipe],
      ['budget', transcript, '--pricing', pipe],
      ['import', '--from', 'aider', pipe],
      ['repair', '--dry-run', pipe],
    ]) {
      const output = await runCli(argv);
      expect(output.stderr, argv.join(' ')).toContain('it is a FIFO (named pipe), not a regular file');
      expect(output.code).toBe(1);
    }
  });

  it('refuses a FIFO as -o, --tools-out and --html instead of hanging on the write', async () => {
    const transcript = join(dir, 'session.jsonl');
    await writeFile(transcript, transcriptText(twoEpisodes));
    const aider = join(dir, 'chat.md');
    await writeFile(aider, '# aider chat started at 2026-04-22 22:40:12\n\n#### hi\n');
    const pipe = fifo('out');
    for (const argv of [
      ['import', '--from', 'aider', aider, '-o', pipe],
      ['episodes', transcript, '--html', pipe],
    ]) {
      const output = await runCli(argv);
      expect(output.stderr, argv.join(' ')).toContain(`${pipe}: it is a FIFO (named pipe), not a regular file`);
      expect(output.code).toBe(1);
    }
  });

  it('repair through a link repairs the file it points to and keeps the link', async () => {
    await mkdir(join(dir, 'sessions'));
    const target = join(dir, 'sessions', 'real.jsonl');
    await writeFile(target, `${transcriptText(twoEpisodes)}{"role":"assistant","content":[{"ty`);
    const link = join(dir, 'link.jsonl');
    await symlink(target, link);
    const output = await runCli(['repair', link]);
    expect(output.code).toBe(0);
    expect((await lstat(link)).isSymbolicLink()).toBe(true);
    expect(await readFile(target, 'utf8')).toBe(transcriptText(twoEpisodes));
  });
});
