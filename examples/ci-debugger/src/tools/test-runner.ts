/**
 * Runs the fixture's node:test suite (or one test file) several times and counts
 * passes and failures. Each run is a child process started from an argv array (no
 * shell) with a small environment and a timeout. With a seed, run k gets
 * `TEST_SEED = seed + k`, so a batch is reproducible; without one the tests draw
 * their own randomness, as they do on a developer's machine.
 */
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { childEnvironment } from '@episodic/tools';
import { type TapFailure, tapFailures } from './tap-failures.js';

/** What to run and how often. */
export interface TestBatch {
  /** The project directory (the child's working directory). */
  root: string;
  times: number;
  /** Run k (from 0) gets TEST_SEED = seed + k. */
  seed?: number;
  /** A test file relative to the root; default: the whole suite (`node --test test/`). */
  file?: string;
  /** Only tests whose name matches this regular expression (`--test-name-pattern`). */
  namePattern?: string;
  /** Milliseconds before one run is killed. Default 20,000. */
  timeoutMs?: number;
  /** Runs at the same time. Default: the number of CPUs, at most 4. */
  concurrency?: number;
  signal?: AbortSignal;
}

/** The outcome of one run. */
export interface TestRun {
  seed: number | undefined;
  passed: boolean;
  timedOut: boolean;
  failures: TapFailure[];
  durationMs: number;
}

/** The outcome of a batch. */
export interface TestBatchReport {
  runs: TestRun[];
  passed: number;
  failed: number;
  durationMs: number;
}

const DEFAULT_TIMEOUT_MS = 20_000;
const MAX_OUTPUT_BYTES = 4_000_000;

/** Runs the batch and reports every run. */
export async function runTestBatch(batch: TestBatch): Promise<TestBatchReport> {
  const started = Date.now();
  const concurrency = batch.concurrency ?? Math.min(4, availableParallelism());
  const runs: TestRun[] = new Array(batch.times);
  let next = 0;
  const worker = async () => {
    while (next < batch.times && !batch.signal?.aborted) {
      const index = next++;
      runs[index] = await runOnce(batch, batch.seed === undefined ? undefined : batch.seed + index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, batch.times) }, worker));
  batch.signal?.throwIfAborted();
  const passed = runs.filter((run) => run.passed).length;
  return { runs, passed, failed: runs.length - passed, durationMs: Date.now() - started };
}

/** The argv after `node` for one run. */
export function testArguments(batch: Pick<TestBatch, 'file' | 'namePattern'>): string[] {
  const pattern = batch.namePattern === undefined ? [] : [`--test-name-pattern=${batch.namePattern}`];
  // A single file runs in this one process, which is about twice as fast as `--test`.
  if (batch.file !== undefined) return ['--test-reporter=tap', ...pattern, batch.file];
  return ['--test', '--test-reporter=tap', ...pattern, 'test/'];
}

function runOnce(batch: TestBatch, seed: number | undefined): Promise<TestRun> {
  const started = Date.now();
  const env = childEnvironment({ envValues: seed === undefined ? {} : { TEST_SEED: String(seed) } });
  // Its own process group (POSIX): `node --test` runs each test file in a child of its
  // own, and a timeout must stop those too, not leave them spinning.
  const ownGroup = process.platform !== 'win32';
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, testArguments(batch), {
      cwd: batch.root,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      signal: batch.signal,
      detached: ownGroup,
    });
    const killTree = () => {
      try {
        if (ownGroup && child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
        else child.kill('SIGKILL');
      } catch {
        // Already gone.
      }
    };
    batch.signal?.addEventListener('abort', killTree, { once: true });
    let output = '';
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killTree();
    }, batch.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      if (output.length < MAX_OUTPUT_BYTES) output += chunk;
    });
    child.stderr.resume();
    child.on('error', (error) => {
      clearTimeout(timer);
      batch.signal?.removeEventListener('abort', killTree);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      batch.signal?.removeEventListener('abort', killTree);
      // A test file that outlived the runner (it exited early, or was killed) goes too.
      killTree();
      const failures = tapFailures(output).map((failure) => ({
        ...failure,
        location: failure.location && relativeLocation(batch.root, failure.location),
      }));
      const passed = code === 0 && !timedOut;
      if (!passed && failures.length === 0) {
        const reason = timedOut ? `timed out after ${batch.timeoutMs ?? DEFAULT_TIMEOUT_MS} ms` : `exit code ${code}`;
        failures.push({ name: '(test process)', location: undefined, error: reason });
      }
      resolve({ seed, passed, timedOut, failures, durationMs: Date.now() - started });
    });
  });
}

/** `file:line:column` relative to the project, as the CI log prints it. */
function relativeLocation(root: string, location: string): string {
  return path.isAbsolute(location) ? path.relative(root, location).split(path.sep).join('/') : location;
}

/** A short report for the model: counts, the failing seeds, and each distinct failure once. */
export function formatBatchReport(label: string, batch: TestBatch, report: TestBatchReport): string {
  const target = batch.file ?? 'the whole suite';
  const filter = batch.namePattern === undefined ? '' : ` (tests matching /${batch.namePattern}/)`;
  const seeds = batch.seed === undefined ? 'unseeded' : `TEST_SEED ${batch.seed}..${batch.seed + batch.times - 1}`;
  const lines = [
    `${label}: ran ${target}${filter} ${batch.times} times (${seeds}) in ${(report.durationMs / 1000).toFixed(1)}s: ` +
      `${report.passed} passed, ${report.failed} failed.`,
  ];
  const failedRuns = report.runs.filter((run) => !run.passed);
  if (failedRuns.length === 0) return lines.join('\n');
  if (batch.seed !== undefined) lines.push(`Failing seeds: ${failedRuns.map((run) => run.seed).join(', ')}`);
  const distinct = new Map<string, { failure: TapFailure; count: number; seed: number | undefined }>();
  for (const run of failedRuns) {
    for (const failure of run.failures) {
      const seen = distinct.get(failure.name);
      if (seen) seen.count += 1;
      else distinct.set(failure.name, { failure, count: 1, seed: run.seed });
    }
  }
  for (const { failure, count, seed } of distinct.values()) {
    const where = failure.location ? ` at ${failure.location}` : '';
    const first = seed === undefined ? '' : `, first with seed ${seed}`;
    lines.push(`✖ "${failure.name}" failed ${count}×${where}${first}:`);
    lines.push(...failure.error.split('\n').map((line) => `    ${line}`));
  }
  return lines.join('\n');
}
