import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTestBatch } from './test-runner.js';

let project: string;

beforeAll(async () => {
  project = await mkdtemp(path.join(tmpdir(), 'ci-debugger-runner-'));
  await mkdir(path.join(project, 'test'));
  // What a bad patch can do: a test file that never ends. `node --test` runs it in a
  // child process of its own, which writes its pid so the test can look for it.
  await writeFile(
    path.join(project, 'test', 'spin.test.js'),
    "require('node:fs').writeFileSync(require('node:path').join(__dirname, '..', 'pid'), String(process.pid));\n" +
      "require('node:test').test('spins', () => { for (;;); });\n",
  );
});

afterAll(async () => {
  await rm(project, { recursive: true, force: true });
});

/** Running (a zombie waiting for its reaper counts as gone; Linux shows it in /proc). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

describe('runTestBatch', () => {
  it('kills the whole test process tree on timeout, leaving no test file running', async () => {
    const report = await runTestBatch({ root: project, times: 1, timeoutMs: 1_500 });
    expect(report.runs[0]).toMatchObject({ passed: false, timedOut: true });
    const pid = Number(await readFile(path.join(project, 'pid'), 'utf8'));
    try {
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(alive(pid), `test file process ${pid} still running`).toBe(false);
    } finally {
      if (alive(pid)) process.kill(pid, 'SIGKILL');
    }
  });
});
