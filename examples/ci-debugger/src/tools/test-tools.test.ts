import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AgentTool } from '@episodic/core';
import { afterAll, describe, expect, it } from 'vitest';
import { FIXTURE_PROJECT } from '../fixture-paths.js';
import { ScratchWorkspace } from './scratch-workspace.js';
import { tapFailures } from './tap-failures.js';
import { testTools } from './test-tools.js';

const scratch = new ScratchWorkspace(FIXTURE_PROJECT);
const tools = new Map(testTools({ project: FIXTURE_PROJECT, scratch }).map((tool) => [tool.spec.name, tool]));
const context = { signal: new AbortController().signal, toolCallId: 'call_1' };
const call = (name: string, args: unknown) => (tools.get(name) as AgentTool).execute(args, context);
const queueFile = path.join(FIXTURE_PROJECT, 'src', 'queue.js');

// Seeds whose first jitter draw makes the upload retry (10 + 0..39 ms) outlast the 40 ms siblings:
// 1887 draws 47 ms, 1883 draws 44 ms (see scripts/make-logs.mjs, which picked them as CI run numbers).
const failingSeed = 1887;

// The fix the offline model proposes: count jobs waiting for a retry as not idle.
const fix = [
  { path: 'src/queue.js', search: '  #active = 0;\n', replace: '  #active = 0;\n  #retrying = 0;\n' },
  {
    path: 'src/queue.js',
    search: 'return this.#active === 0 && this.#waiting.length === 0;',
    replace: 'return this.#active === 0 && this.#waiting.length === 0 && this.#retrying === 0;',
  },
  {
    path: 'src/queue.js',
    search: '    setTimeout(() => {\n',
    replace: '    this.#retrying += 1;\n    setTimeout(() => {\n      this.#retrying -= 1;\n',
  },
];

afterAll(() => scratch.dispose());

describe('test tools on the fixture', () => {
  it('reproduces the flaky failure with a failing CI seed and names the test and its location', async () => {
    const report = await call('run_tests', { times: 1, seed: failingSeed, file: 'test/queue.test.js' });
    expect(report.isError).toBe(false);
    expect(report.content).toContain('0 passed, 1 failed');
    expect(report.content).toContain(
      '"onIdle waits for jobs that are being retried" failed 1× at test/queue.test.js:96:3',
    );
    expect(report.content).toContain("-   'upload'");
  });

  it('passes with a seed that draws a short retry delay', async () => {
    const report = await call('run_tests', { times: 1, seed: 1886, file: 'test/queue.test.js' });
    expect(report.content).toContain('1 passed, 0 failed');
  });

  it('runs the patched copy, leaves the original alone, and the fix holds for failing seeds', async () => {
    const before = await readFile(queueFile, 'utf8');
    const applied = await call('apply_patch', { edits: fix });
    expect(applied.content).toContain(
      '+    return this.#active === 0 && this.#waiting.length === 0 && this.#retrying === 0;',
    );
    expect(await readFile(queueFile, 'utf8')).toBe(before);
    const patched = await call('run_tests_on_patched', { times: 6, seed: 1883, file: 'test/queue.test.js' });
    expect(patched.content).toContain('6 passed, 0 failed');
    const suite = await call('run_tests_on_patched', { times: 1, seed: failingSeed });
    expect(suite.content).toContain('the whole suite 1 times');
    expect(suite.content).toContain('1 passed, 0 failed');
  });

  it('refuses test files outside the project and patches outside it', async () => {
    await expect(call('run_tests', { times: 1, file: '../../package.json' })).rejects.toThrow(/refused/);
    await expect(
      call('apply_patch', { edits: [{ path: '../../../package.json', search: 'a', replace: 'b' }] }),
    ).rejects.toThrow(/refused/);
  });

  it('passes the test file to node as a path, never as an option (no --eval or --require injection)', async () => {
    const outside = await mkdtemp(path.join(tmpdir(), 'ci-debugger-outside-'));
    const marker = path.join(outside, 'ran');
    try {
      // Inside the root as a path, but node would read it as an option that runs code.
      const injected = `--eval=require("fs").writeFileSync(${JSON.stringify(marker)}, "x")`;
      await expect(call('run_tests', { times: 1, file: injected })).rejects.toThrow(/No test file/);
      expect(existsSync(marker)).toBe(false);
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });

  it('says when the test file does not exist', async () => {
    await expect(call('run_tests', { times: 1, file: 'test/nope.test.js' })).rejects.toThrow(
      /No test file "test\/nope.test.js"/,
    );
  });

  it('asks for a patch before running the patched copy', async () => {
    const fresh = testTools({ project: FIXTURE_PROJECT, scratch: new ScratchWorkspace(FIXTURE_PROJECT) });
    const patched = fresh.find((tool) => tool.spec.name === 'run_tests_on_patched') as AgentTool;
    await expect(patched.execute({ times: 1 }, context)).rejects.toThrow(/apply_patch first/);
  });
});

describe('tapFailures', () => {
  it('reads failed tests, skipping failed suites', () => {
    const tap = [
      '# Subtest: suite',
      '    not ok 1 - breaks',
      '      ---',
      "      location: '/p/test/a.test.js:3:3'",
      '      error: |-',
      '        expected 1',
      '        got 2',
      "      code: 'ERR_ASSERTION'",
      '      ...',
      'not ok 1 - suite',
      '  ---',
      "  type: 'suite'",
      '  ...',
      'not ok 2 - plain # TODO later',
      '  ---',
      "  error: 'boom'",
      '  ...',
    ].join('\n');
    expect(tapFailures(tap)).toEqual([
      { name: 'breaks', location: '/p/test/a.test.js:3:3', error: 'expected 1\ngot 2' },
      { name: 'plain', location: undefined, error: 'boom' },
    ]);
  });
});
