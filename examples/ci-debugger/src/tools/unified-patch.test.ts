import { describe, expect, it } from 'vitest';
import { applyHunks, parseUnifiedDiff } from './unified-patch.js';

const source = ['function idle() {', '  return active === 0 && waiting === 0;', '}', '', 'export { idle };', ''].join(
  '\n',
);

describe('unified diffs', () => {
  it('applies a hunk, ignoring the a/ b/ prefixes', () => {
    const [patch] = parseUnifiedDiff(
      [
        '--- a/src/idle.js',
        '+++ b/src/idle.js',
        '@@ -1,3 +1,3 @@',
        ' function idle() {',
        '-  return active === 0 && waiting === 0;',
        '+  return active === 0 && waiting === 0 && retrying === 0;',
        ' }',
        '',
      ].join('\n'),
    );
    expect(patch?.path).toBe('src/idle.js');
    expect(applyHunks(source, patch!)).toBe(source.replace('waiting === 0;', 'waiting === 0 && retrying === 0;'));
  });

  it('finds a hunk whose line numbers are off, and keeps blank context lines without their space', () => {
    const [patch] = parseUnifiedDiff(
      ['--- a/x.js', '+++ b/x.js', '@@ -40,3 +40,4 @@', ' }', '', '+// exported below', ' export { idle };'].join('\n'),
    );
    expect(applyHunks(source, patch!)).toBe(source.replace('}\n\nexport', '}\n\n// exported below\nexport'));
  });

  it('creates a file from /dev/null and applies several files', () => {
    const patches = parseUnifiedDiff(
      [
        '--- /dev/null',
        '+++ b/test/new.test.js',
        '@@ -0,0 +1,2 @@',
        "+import test from 'node:test';",
        "+test('x', () => {});",
        '--- a/x.js',
        '+++ b/x.js',
        '@@ -5 +5 @@',
        '-export { idle };',
        '+export { idle as isIdle };',
      ].join('\n'),
    );
    expect(patches.map((patch) => [patch.path, patch.created])).toEqual([
      ['test/new.test.js', true],
      ['x.js', false],
    ]);
    expect(applyHunks('', patches[0]!)).toBe("import test from 'node:test';\ntest('x', () => {});");
    expect(applyHunks(source, patches[1]!)).toContain('export { idle as isIdle };');
  });

  it('refuses a hunk that does not match and a text without hunks', () => {
    const [patch] = parseUnifiedDiff(
      ['--- a/x.js', '+++ b/x.js', '@@ -1 +1 @@', '-nothing like this', '+x'].join('\n'),
    );
    expect(() => applyHunks(source, patch!)).toThrow(/Hunk 1 of x.js \(at line 1\) does not match/);
    expect(() => parseUnifiedDiff('please fix onIdle')).toThrow(/No hunks found/);
  });
});
