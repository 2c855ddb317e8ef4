import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { unifiedDiff } from './line-diff.js';
import { ScratchWorkspace } from './scratch-workspace.js';

let original: string;
let scratch: ScratchWorkspace;
const source = 'export function add(a, b) {\n  return a - b;\n}\n';

beforeEach(async () => {
  original = await mkdtemp(path.join(tmpdir(), 'ci-debugger-original-'));
  await mkdir(path.join(original, 'src'));
  await writeFile(path.join(original, 'src', 'math.js'), source);
  scratch = new ScratchWorkspace(original);
});

afterEach(async () => {
  await scratch.dispose();
  await rm(original, { recursive: true, force: true });
});

describe('ScratchWorkspace', () => {
  it('patches a copy and never the original', async () => {
    const applied = await scratch.apply([{ path: 'src/math.js', search: 'a - b', replace: 'a + b' }]);
    expect(applied.root).not.toBe(original);
    expect(await readFile(path.join(applied.root, 'src', 'math.js'), 'utf8')).toContain('return a + b;');
    expect(await readFile(path.join(original, 'src', 'math.js'), 'utf8')).toBe(source);
    expect(applied.diff).toBe(
      [
        '--- a/src/math.js',
        '+++ b/src/math.js',
        '@@ -1,4 +1,4 @@',
        ' export function add(a, b) {',
        '-  return a - b;',
        '+  return a + b;',
        ' }',
        ' ',
      ].join('\n'),
    );
  });

  it('starts every patch from a fresh copy and removes the old one', async () => {
    const first = await scratch.apply([{ path: 'src/math.js', search: 'a - b', replace: 'a + b' }]);
    const second = await scratch.apply([{ path: 'src/math.js', search: 'return', replace: 'return /* checked */' }]);
    await expect(readFile(path.join(first.root, 'src', 'math.js'))).rejects.toThrow(/ENOENT/);
    expect(await readFile(path.join(second.root, 'src', 'math.js'), 'utf8')).toContain('return /* checked */ a - b');
  });

  it('refuses paths outside the project', async () => {
    await expect(scratch.apply([{ path: '../outside.js', search: 'a', replace: 'b' }])).rejects.toThrow(/refused/);
    await expect(
      scratch.apply([{ path: path.join(original, 'src', 'math.js'), search: 'a - b', replace: 'x' }]),
    ).rejects.toThrow(/refused/);
    expect(await readFile(path.join(original, 'src', 'math.js'), 'utf8')).toBe(source);
  });

  it('refuses a search text that is missing or ambiguous', async () => {
    await expect(scratch.apply([{ path: 'src/math.js', search: 'a * b', replace: 'x' }])).rejects.toThrow(/not found/);
    await expect(scratch.apply([{ path: 'src/math.js', search: 'a', replace: 'x' }])).rejects.toThrow(/more than once/);
  });
});

describe('unifiedDiff', () => {
  it('is empty for equal texts and keeps far-apart changes in separate hunks', () => {
    expect(unifiedDiff('f', 'a\nb', 'a\nb')).toBe('');
    const before = Array.from({ length: 30 }, (_, index) => `line ${index + 1}`).join('\n');
    const after = before.replace('line 2\n', 'line two\n').replace('line 28\n', 'line 28\nline 28.5\n');
    const diff = unifiedDiff('f', before, after);
    expect(diff).toContain('@@ -1,5 +1,5 @@\n line 1\n-line 2\n+line two');
    expect(diff).toContain('@@ -26,5 +26,6 @@\n line 26\n line 27\n line 28\n+line 28.5\n line 29\n line 30');
    expect(diff).toContain('+line 28.5');
  });
});

describe('ScratchWorkspace.applyDiff', () => {
  it('patches the copy from a unified diff and reports the resulting diff', async () => {
    const applied = await scratch.applyDiff(
      ['--- a/src/math.js', '+++ b/src/math.js', '@@ -2 +2 @@', '-  return a - b;', '+  return a + b;', ''].join('\n'),
    );
    expect(await readFile(path.join(applied.root, 'src', 'math.js'), 'utf8')).toBe(source.replace('a - b', 'a + b'));
    expect(applied.diff).toContain('-  return a - b;\n+  return a + b;');
    expect(await readFile(path.join(original, 'src', 'math.js'), 'utf8')).toBe(source);
  });

  it('refuses a diff that reaches outside the project', async () => {
    await expect(
      scratch.applyDiff(['--- /dev/null', '+++ b/../escape.js', '@@ -0,0 +1 @@', '+x'].join('\n')),
    ).rejects.toThrow(/refused/);
  });
});
