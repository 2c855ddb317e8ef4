import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURE_LOGS } from '../fixture-paths.js';
import { loadRuns } from './ci-runs.js';
import { DEFAULT_LOG_LIMITS, logLines, viewLog } from './log-view.js';

const sample = [
  '2026-11-20T10:15:32.1234567Z ##[group]Run npm ci',
  '2026-11-20T10:15:32.2234567Z npm ci',
  '2026-11-20T10:15:32.3234567Z ##[endgroup]',
  '2026-11-20T10:15:33.1234567Z ✔ first test (1ms)',
  '2026-11-20T10:15:33.2234567Z ✖ second test (2ms)',
  '2026-11-20T10:15:33.3234567Z   AssertionError: nope',
  '2026-11-20T10:15:33.4234567Z ✔ third test (1ms)',
  '2026-11-20T10:15:34.1234567Z ##[error]Process completed with exit code 1.',
];

describe('viewLog', () => {
  it('outlines groups and errors when asked for nothing in particular', () => {
    const view = viewLog('run 1', sample, {});
    expect(view).toContain('run 1: 8 lines, 1 error line.');
    expect(view).toContain('1: Run npm ci');
    expect(view).toContain('8: ERROR Process completed with exit code 1.');
    expect(view).not.toContain('first test');
  });

  it('greps with context, numbering lines and hiding timestamps', () => {
    const view = viewLog('run 1', sample, { grep: '✖', context: 1 });
    expect(view.split('\n')).toEqual([
      'run 1: 1 matching line for /✖/ (of 8 lines)',
      '4: ✔ first test (1ms)',
      '5: ✖ second test (2ms)',
      '6:   AssertionError: nope',
    ]);
  });

  it('keeps timestamps on request and separates distant matches', () => {
    const view = viewLog('run 1', sample, { grep: 'test', timestamps: true, context: 0, from: 5 });
    expect(view).toContain('5: 2026-11-20T10:15:33.2234567Z ✖ second test (2ms)');
    expect(view).toContain('7: 2026-11-20T10:15:33.4234567Z ✔ third test (1ms)');
    expect(view).not.toContain('first test');
  });

  it('reads a line range and says where to continue when capped', () => {
    const view = viewLog('run 1', sample, { from: 2, to: 8 }, { maxLines: 3, maxLineLength: 200 });
    expect(view).toContain('run 1: lines 2-4 of 8');
    expect(view).toContain('[stopped at 3 lines; ask for from=5 to continue]');
    expect(view).not.toContain('second test');
  });

  it('caps grep output and counts the matches left out', () => {
    const many = Array.from({ length: 50 }, (_, index) => `line ${index} match`);
    const view = viewLog('big', many, { grep: 'match' }, { maxLines: 10, maxLineLength: 200 });
    expect(view.split('\n')).toHaveLength(12);
    expect(view).toContain('[40 more matches not shown (from line 11)');
  });

  // A model can write a pattern that backtracks for ages, such as (\w+\s?)+$ on a long line.
  it('stops a grep with catastrophic backtracking with a typed error instead of hanging', () => {
    const started = Date.now();
    let error: unknown;
    try {
      viewLog('run 7', [`${'a'.repeat(40)}!`], { grep: '(a+)+$' }, { ...DEFAULT_LOG_LIMITS, regexTimeoutMs: 200 });
    } catch (caught) {
      error = caught;
    }
    expect(error).toMatchObject({ code: 'regex_timeout' });
    expect((error as Error).message).toMatch(/grep took longer than 200 ms on run 7/);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('cuts very long lines', () => {
    const view = viewLog('long', ['x'.repeat(500)], { from: 1 }, { maxLines: 5, maxLineLength: 20 });
    expect(view).toContain(`1: ${'x'.repeat(20)}…[cut]`);
  });

  it('finds the flaky failure and its stack in a recorded failing run', async () => {
    const failing = (await loadRuns(FIXTURE_LOGS)).filter((run) => run.failingTest?.startsWith('onIdle'));
    expect(failing.length).toBeGreaterThanOrEqual(2);
    const lines = logLines(await readFile(path.join(FIXTURE_LOGS, failing[0]!.log), 'utf8'));
    expect(lines.length).toBeGreaterThan(2000);
    const view = viewLog('run', lines, { grep: 'at TestContext' });
    expect(view).toContain('test/queue.test.js:121:12');
  });
});
