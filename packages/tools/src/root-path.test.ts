import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EpisodicError } from '@episodic/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PathEscapeError, resolveInsideRoot } from './root-path.js';

let base: string;
let root: string;
let outside: string;

beforeAll(async () => {
  base = await mkdtemp(path.join(tmpdir(), 'episodic-root-path-'));
  root = path.join(base, 'project');
  outside = path.join(base, 'outside');
  await mkdir(path.join(root, 'src', 'deep'), { recursive: true });
  await mkdir(outside);
  await writeFile(path.join(root, 'src', 'index.ts'), 'export {};\n');
  await writeFile(path.join(outside, 'secret.txt'), 'secret\n');
  await symlink(path.join(outside, 'secret.txt'), path.join(root, 'secret-link'));
  await symlink(outside, path.join(root, 'outside-dir'));
  await symlink(path.join(root, 'src', 'index.ts'), path.join(root, 'index-link'));
  await symlink('..', path.join(root, 'src', 'deep', 'up'));
  await symlink(path.join(outside, 'not-yet.txt'), path.join(root, 'dangling-out'));
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

async function refusal(requested: string): Promise<PathEscapeError> {
  const error = await resolveInsideRoot(root, requested).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(PathEscapeError);
  return error as PathEscapeError;
}

describe('resolveInsideRoot', () => {
  it('resolves relative paths inside the root to real absolute paths', async () => {
    const resolved = await resolveInsideRoot(root, 'src/index.ts');
    expect(resolved.relative).toBe('src/index.ts');
    expect(resolved.absolute).toBe(path.join(resolved.root, 'src', 'index.ts'));
    expect((await resolveInsideRoot(root, '.')).relative).toBe('.');
    expect((await resolveInsideRoot(root, 'src/deep/../index.ts')).relative).toBe('src/index.ts');
  });

  it('accepts paths that do not exist yet, judged by their real parent', async () => {
    expect((await resolveInsideRoot(root, 'src/new/file.ts')).relative).toBe('src/new/file.ts');
  });

  it('refuses ../ escapes with a clear, typed error', async () => {
    const error = await refusal('../outside/secret.txt');
    expect(error.code).toBe('path_escape');
    expect(EpisodicError.isInstance(error)).toBe(true);
    expect(error.message).toBe(
      'Path "../outside/secret.txt" is refused: it goes outside the project root. ' +
        'Use a path relative to the project root, such as "src/index.ts".',
    );
    await refusal('src/../../outside');
    await refusal('..');
  });

  it('refuses absolute paths outside the root and accepts absolute paths inside it', async () => {
    expect((await refusal(path.join(outside, 'secret.txt'))).message).toMatch(/absolute path outside the project root/);
    await refusal('/etc/passwd');
    expect((await resolveInsideRoot(root, path.join(root, 'src', 'index.ts'))).relative).toBe('src/index.ts');
  });

  it('refuses a symbolic link to a file outside the root', async () => {
    expect((await refusal('secret-link')).message).toMatch(/symbolic link that points outside/);
  });

  it('refuses a symbolic link to a directory outside the root, and paths through it', async () => {
    await refusal('outside-dir');
    await refusal('outside-dir/secret.txt');
    await refusal('outside-dir/not-there/new.txt');
  });

  it('refuses a dangling link whose target would be outside the root', async () => {
    await refusal('dangling-out');
  });

  it('accepts symbolic links that stay inside the root', async () => {
    expect((await resolveInsideRoot(root, 'index-link')).relative).toBe('src/index.ts');
    expect((await resolveInsideRoot(root, 'src/deep/up/index.ts')).relative).toBe('src/index.ts');
  });

  it('refuses a loop of symbolic links with a typed error, not a raw ELOOP naming the absolute path', async () => {
    await symlink('loop-b', path.join(root, 'loop-a'));
    await symlink('loop-a', path.join(root, 'loop-b'));
    for (const attempt of ['loop-a', 'loop-a/file.txt']) {
      const error = await refusal(attempt);
      expect(error.message).toMatch(/too many symbolic links/);
      expect(error.message).not.toContain(base);
    }
  });

  it('refuses NUL bytes', async () => {
    expect((await refusal('src/index.ts\0.png')).message).toMatch(/NUL byte/);
  });

  it('works when the root itself is reached through a symbolic link', async () => {
    const linkedRoot = path.join(base, 'linked-root');
    await symlink(root, linkedRoot);
    expect((await resolveInsideRoot(linkedRoot, 'src/index.ts')).relative).toBe('src/index.ts');
    expect((await resolveInsideRoot(linkedRoot, path.join(linkedRoot, 'src'))).relative).toBe('src');
    await expect(resolveInsideRoot(linkedRoot, 'secret-link')).rejects.toThrow(PathEscapeError);
  });
});
