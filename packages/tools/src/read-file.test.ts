import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ToolContext } from '@episodic/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileTool } from './read-file.js';
import { PathEscapeError } from './root-path.js';
import { ToolUsageError } from './tool-errors.js';

const context = (): ToolContext => ({ signal: new AbortController().signal, toolCallId: 'call_1' });
// Text before the NUL bytes of a sparse file, so the binary sniff sees a text file.
const SNIFFED_TEXT = 16_384;
let base: string;
let root: string;

beforeAll(async () => {
  base = await mkdtemp(path.join(tmpdir(), 'episodic-read-file-'));
  root = path.join(base, 'project');
  await mkdir(path.join(root, 'src'), { recursive: true });
  await mkdir(path.join(base, 'outside'));
  const lines = Array.from({ length: 300 }, (_, index) => `line ${index + 1}`);
  await writeFile(path.join(root, 'src', 'long.txt'), `${lines.join('\n')}\n`);
  await writeFile(path.join(root, 'empty.txt'), '');
  await writeFile(path.join(root, 'image.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]));
  await writeFile(path.join(root, 'crlf.txt'), 'a\r\nb\r\n');
  await writeFile(path.join(base, 'outside', 'secret.txt'), 'secret\n');
  await symlink(path.join(base, 'outside', 'secret.txt'), path.join(root, 'secret-link'));
  await symlink(path.join(base, 'outside'), path.join(root, 'outside-dir'));
  await symlink(path.join(root, 'src', 'long.txt'), path.join(root, 'long-link'));
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

async function read(args: Record<string, unknown>, maxBytes?: number) {
  const tool = readFileTool({ root, ...(maxBytes === undefined ? {} : { maxBytes }) });
  return tool.execute(args, context());
}

describe('read_file', () => {
  it('reads a whole file with line numbers and the total line count', async () => {
    const { content, isError } = await read({ path: 'crlf.txt' });
    expect(isError).toBe(false);
    expect(content).toBe('crlf.txt: lines 1-2 of 2\n1\ta\n2\tb');
  });

  it('reads a line range and reports the total', async () => {
    const { content } = await read({ path: 'src/long.txt', startLine: 10, endLine: 12 });
    expect(content).toBe('src/long.txt: lines 10-12 of 300\n10\tline 10\n11\tline 11\n12\tline 12');
  });

  it('stops at the byte cap and says where to continue', async () => {
    const { content } = await read({ path: 'src/long.txt' }, 200);
    const shown = content.split('\n').filter((line) => /^\d+\t/.test(line));
    expect(Buffer.byteLength(shown.join('\n'))).toBeLessThanOrEqual(200);
    const last = shown.length;
    expect(content).toContain(`src/long.txt: lines 1-${last} of 300`);
    expect(content).toContain(`call read_file with startLine=${last + 1} to continue`);
  });

  it('cuts a single line longer than the cap', async () => {
    await writeFile(path.join(root, 'wide.txt'), `${'x'.repeat(5000)}\nshort\n`);
    const { content } = await read({ path: 'wide.txt' }, 100);
    expect(content.split('\n')[1]).toBe(`1\t${'x'.repeat(98)}`);
    expect(content).toContain('startLine=2');
  });

  it('explains an empty file, a range past the end and a reversed range', async () => {
    expect((await read({ path: 'empty.txt' })).content).toBe('empty.txt: empty file (0 lines).');
    await expect(read({ path: 'src/long.txt', startLine: 301 })).rejects.toThrow(
      'startLine 301 is past the end: "src/long.txt" has 300 lines.',
    );
    await expect(read({ path: 'src/long.txt', startLine: 5, endLine: 2 })).rejects.toThrow(/before startLine/);
  });

  it('refuses directories, binary files and missing files with typed errors', async () => {
    await expect(read({ path: 'src' })).rejects.toThrow(ToolUsageError);
    await expect(read({ path: 'src' })).rejects.toThrow(/is a directory/);
    await expect(read({ path: 'image.png' })).rejects.toThrow(/binary file \(6 bytes\)/);
    await expect(read({ path: 'nope.txt' })).rejects.toMatchObject({ code: 'not_found' });
  });

  it('refuses every escape: ../, absolute outside, symlinked file and directory outside', async () => {
    for (const attempt of [
      '../outside/secret.txt',
      path.join(base, 'outside', 'secret.txt'),
      'secret-link',
      'outside-dir/secret.txt',
    ]) {
      await expect(read({ path: attempt }), attempt).rejects.toThrow(PathEscapeError);
    }
  });

  // Opening a FIFO for reading blocks until a writer comes, which would hang a libuv
  // thread for good; a device file could stream forever.
  it.skipIf(process.platform === 'win32')('refuses a FIFO without blocking on it', async () => {
    execFileSync('mkfifo', [path.join(root, 'pipe')]);
    const outcome = await Promise.race([
      read({ path: 'pipe' }).catch((error: unknown) => error),
      new Promise((resolve) => setTimeout(() => resolve('still waiting after 2 s'), 2_000)),
    ]);
    expect(outcome).toBeInstanceOf(ToolUsageError);
    expect(outcome).toMatchObject({ code: 'not_a_file' });
    expect((outcome as Error).message).toMatch(/"pipe" is not a regular file/);
  });

  // Node's readline keeps a whole line in one string; past V8's ~512 MiB string limit it
  // throws from a stream callback and takes the process down. A sparse file costs no disk.
  it('reads a file whose single line is longer than any JavaScript string', async () => {
    const file = path.join(root, 'one-line.txt');
    await writeFile(file, 'a'.repeat(SNIFFED_TEXT));
    await truncate(file, 600 * 1024 * 1024);
    try {
      const { content } = await read({ path: 'one-line.txt' }, 100);
      expect(content.split('\n').slice(0, 2)).toEqual(['one-line.txt: lines 1-1 of 1', `1\t${'a'.repeat(98)}`]);
      expect(content).toContain('[stopped at the 100-byte cap; call read_file with startLine=2 to continue]');
    } finally {
      await rm(file);
    }
    // It scans 600 MB; the margin is for a loaded machine.
  }, 120_000);

  it('counts lines ended by \\n, \\r\\n or a lone \\r, as readline does', async () => {
    await writeFile(path.join(root, 'mixed.txt'), 'a\r\nb\rc\n\nd');
    expect((await read({ path: 'mixed.txt' })).content).toBe('mixed.txt: lines 1-5 of 5\n1\ta\n2\tb\n3\tc\n4\t\n5\td');
  });

  it('follows a symbolic link that stays inside the root', async () => {
    expect((await read({ path: 'long-link', endLine: 1 })).content).toBe('src/long.txt: lines 1-1 of 300\n1\tline 1');
  });
});
