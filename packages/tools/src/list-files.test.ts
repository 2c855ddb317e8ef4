import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ToolContext } from '@episodic/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileTools } from './file-tools.js';
import { listFilesTool } from './list-files.js';
import { PathEscapeError } from './root-path.js';

const context = (): ToolContext => ({ signal: new AbortController().signal, toolCallId: 'call_1' });
let base: string;
let root: string;

beforeAll(async () => {
  base = await mkdtemp(path.join(tmpdir(), 'episodic-list-files-'));
  root = path.join(base, 'project');
  for (const directory of ['src/a/b/c', 'node_modules/dep', '.git/objects', 'docs']) {
    await mkdir(path.join(root, directory), { recursive: true });
  }
  for (const file of [
    'src/index.ts',
    'src/a/one.ts',
    'src/a/b/two.ts',
    'src/a/b/c/three.ts',
    'node_modules/dep/x.js',
    '.env',
    'README.md',
  ]) {
    await writeFile(path.join(root, file), 'x\n');
  }
  await mkdir(path.join(base, 'outside'));
  await writeFile(path.join(base, 'outside', 'secret.txt'), 'secret\n');
  await symlink(path.join(base, 'outside'), path.join(root, 'outside-dir'));
  await symlink(path.join(base, 'outside', 'secret.txt'), path.join(root, 'docs', 'secret-link'));
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

const list = (args: Record<string, unknown>, options: { maxEntries?: number; maxBytes?: number } = {}) =>
  listFilesTool({ root, ...options }).execute(args, context());

describe('list_files', () => {
  it('lists recursively in name order, marks directories and links, and does not enter node_modules', async () => {
    const { content } = await list({});
    expect(content).toBe(
      [
        '.:',
        'README.md',
        'docs/',
        'docs/secret-link@',
        'node_modules/',
        'outside-dir@',
        'src/',
        'src/a/',
        'src/a/b/',
        'src/a/one.ts',
        'src/index.ts',
      ].join('\n'),
    );
  });

  it('goes as deep as asked, and shows hidden entries (but not inside .git) on request', async () => {
    const { content } = await list({ path: 'src', depth: 5, includeHidden: true });
    expect(content.split('\n')).toContain('src/a/b/c/three.ts');
    const rootListing = (await list({ depth: 5, includeHidden: true })).content.split('\n');
    expect(rootListing).toEqual(expect.arrayContaining(['.env', '.git/']));
    expect(rootListing.some((line) => line.startsWith('.git/objects'))).toBe(false);
  });

  it('stops at the entry cap and says so', async () => {
    const { content } = await list({ depth: 5 }, { maxEntries: 3 });
    const lines = content.split('\n');
    expect(lines.slice(1, 4)).toEqual(['README.md', 'docs/', 'docs/secret-link@']);
    expect(lines[4]).toMatch(/^\[stopped at 3 entries/);
  });

  it('stops at the byte cap too: long paths make a few hundred entries a large result', async () => {
    const deep = path.join(root, 'long');
    const name = (n: number) => `${String(n).padStart(3, '0')}-${'long-name-'.repeat(19)}`;
    for (let a = 0; a < 2; a += 1) {
      await mkdir(path.join(deep, name(a), name(a)), { recursive: true });
      for (let b = 0; b < 60; b += 1) await writeFile(path.join(deep, name(a), name(a), `${name(b)}.txt`), '');
    }
    try {
      const { content } = await list({ path: 'long', depth: 3 });
      expect(Buffer.byteLength(content)).toBeLessThanOrEqual(50_000 + 200);
      expect(content).toMatch(/\n\[stopped at 50000 bytes \(\d+ listed\); list a subdirectory/);
      const small = (await list({ path: 'long', depth: 3 }, { maxBytes: 1_000 })).content;
      expect(small.split('\n')).toHaveLength(4);
    } finally {
      await rm(deep, { recursive: true });
    }
  });

  it('refuses escapes and explains a file or missing path', async () => {
    await expect(list({ path: '..' })).rejects.toThrow(PathEscapeError);
    await expect(list({ path: path.join(base, 'outside') })).rejects.toThrow(PathEscapeError);
    await expect(list({ path: 'outside-dir' })).rejects.toThrow(PathEscapeError);
    await expect(list({ path: 'README.md' })).rejects.toThrow(/is a file/);
    await expect(list({ path: 'nope' })).rejects.toThrow(/No directory "nope"/);
  });

  it('rejects a depth beyond the configured maximum before touching the disk', async () => {
    await expect(listFilesTool({ root, maxDepth: 2 }).execute({ depth: 3 }, context())).rejects.toThrow(
      /depth: Too big/i,
    );
  });
});

describe('fileTools', () => {
  it('returns read_file, list_files and search_text sharing one root', async () => {
    const tools = fileTools({ root, read: { maxBytes: 10 } });
    expect(tools.map((tool) => tool.spec.name)).toEqual(['read_file', 'list_files', 'search_text']);
    const [read] = tools;
    expect((await read!.execute({ path: 'README.md' }, context())).content).toBe('README.md: lines 1-1 of 1\n1\tx');
  });
});
