import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ToolContext } from '@episodic/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PathEscapeError } from './root-path.js';
import { searchTextTool } from './search-text.js';
import { ToolUsageError } from './tool-errors.js';

const context = (): ToolContext => ({ signal: new AbortController().signal, toolCallId: 'call_1' });
let base: string;
let root: string;

beforeAll(async () => {
  base = await mkdtemp(path.join(tmpdir(), 'episodic-search-text-'));
  root = path.join(base, 'project');
  await mkdir(path.join(root, 'src', 'lib'), { recursive: true });
  await mkdir(path.join(root, 'node_modules', 'dep'), { recursive: true });
  await mkdir(path.join(base, 'outside'));
  await writeFile(path.join(root, 'src', 'main.ts'), 'import { run } from "./lib/run";\n// TODO: retry\nrun();\n');
  await writeFile(path.join(root, 'src', 'lib', 'run.ts'), 'export function run() {\n  // todo: log\n}\n');
  await writeFile(path.join(root, 'src', 'wide.txt'), `TODO ${'y'.repeat(1000)}\n`);
  await writeFile(path.join(root, 'node_modules', 'dep', 'index.js'), '// TODO in a dependency\n');
  await writeFile(path.join(root, 'src', 'blob.bin'), Buffer.from('TODO\0binary'));
  await writeFile(path.join(root, 'many.txt'), Array.from({ length: 50 }, (_, index) => `hit ${index}`).join('\n'));
  await writeFile(path.join(base, 'outside', 'secret.txt'), 'TODO secret\n');
  await symlink(path.join(base, 'outside', 'secret.txt'), path.join(root, 'src', 'secret-link.txt'));
  await symlink(path.join(base, 'outside'), path.join(root, 'outside-dir'));
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

const search = (args: Record<string, unknown>, options: { maxResults?: number; maxLineLength?: number } = {}) =>
  searchTextTool({ root, ...options }).execute(args, context());

describe('search_text', () => {
  it('finds matching lines as path:line: text, skipping node_modules, binaries and symbolic links', async () => {
    const { content } = await search({ pattern: 'TODO', path: 'src' }, { maxLineLength: 20 });
    expect(content).toBe(['src/main.ts:2: // TODO: retry', `src/wide.txt:1: TODO ${'y'.repeat(15)}[...]`].join('\n'));
  });

  it('matches case-insensitively on request and searches a single file', async () => {
    const { content } = await search({ pattern: 'todo', ignoreCase: true, path: 'src/lib/run.ts' });
    expect(content).toBe('src/lib/run.ts:2:   // todo: log');
  });

  it('supports regular expressions', async () => {
    const { content } = await search({ pattern: 'function\\s+\\w+\\(' });
    expect(content).toBe('src/lib/run.ts:1: export function run() {');
  });

  it('stops at the result cap and says so', async () => {
    const { content } = await search({ pattern: '^hit \\d+$' }, { maxResults: 5 });
    const lines = content.split('\n');
    expect(lines.slice(0, 5)).toEqual([
      'many.txt:1: hit 0',
      'many.txt:2: hit 1',
      'many.txt:3: hit 2',
      'many.txt:4: hit 3',
      'many.txt:5: hit 4',
    ]);
    expect(lines[5]).toMatch(/^\[stopped at 5 matches/);
    expect(lines).toHaveLength(6);
  });

  it('says when nothing matches', async () => {
    expect((await search({ pattern: 'absent-word' })).content).toBe('No matches for /absent-word/ in ..');
  });

  it('turns an invalid regex into a clear typed error', async () => {
    const error = await search({ pattern: 'run(' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ToolUsageError);
    expect(error).toMatchObject({ code: 'invalid_regex' });
    expect((error as Error).message).toMatch(/^Invalid regular expression: .*Fix the pattern/);
  });

  it.skipIf(process.platform === 'win32')('skips a FIFO given as the path instead of blocking on it', async () => {
    execFileSync('mkfifo', [path.join(root, 'pipe')]);
    const outcome = await Promise.race([
      search({ pattern: 'TODO', path: 'pipe' }).then((output) => output.content),
      new Promise((resolve) => setTimeout(() => resolve('still waiting after 2 s'), 2_000)),
    ]);
    expect(outcome).toBe('No matches for /TODO/ in pipe.');
  });

  // JavaScript regexes backtrack without limit: /(a+)+$/ on 40 "a"s and a "b" would run for ages.
  it('stops a pattern with catastrophic backtracking with a typed error', async () => {
    await writeFile(path.join(root, 'backtrack.txt'), `${'a'.repeat(40)}b\n`);
    const started = Date.now();
    const error = await searchTextTool({ root, regexTimeoutMs: 200 })
      .execute({ pattern: '(a+)+$', path: 'backtrack.txt' }, context())
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ToolUsageError);
    expect(error).toMatchObject({ code: 'regex_timeout' });
    expect((error as Error).message).toMatch(/took longer than 200 ms in backtrack\.txt/);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('says a file given as the path is too large to search instead of "No matches"', async () => {
    await writeFile(path.join(root, 'big.log'), 'TODO\n'.repeat(100));
    const error = await searchTextTool({ root, maxFileBytes: 100 })
      .execute({ pattern: 'TODO', path: 'big.log' }, context())
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ToolUsageError);
    expect(error).toMatchObject({ code: 'file_too_large' });
    expect((error as Error).message).toBe(
      '"big.log" is 500 bytes, over the 100-byte search limit. Read it with read_file and line ranges.',
    );
  });

  it('refuses escapes', async () => {
    await expect(search({ pattern: 'TODO', path: '..' })).rejects.toThrow(PathEscapeError);
    await expect(search({ pattern: 'TODO', path: path.join(base, 'outside') })).rejects.toThrow(PathEscapeError);
    await expect(search({ pattern: 'TODO', path: 'outside-dir' })).rejects.toThrow(PathEscapeError);
    await expect(search({ pattern: 'TODO', path: 'src/secret-link.txt' })).rejects.toThrow(PathEscapeError);
  });
});
