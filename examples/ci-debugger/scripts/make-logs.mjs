#!/usr/bin/env node
/**
 * Writes the recorded CI runs of the tiny-queue fixture: one GitHub Actions job log
 * per run (fixtures/logs/run-<id>.log) and the run index (fixtures/logs/runs.json).
 *
 * The output is a pure function of this script: a seeded generator picks every
 * timestamp and duration, so running it again gives byte-identical files. The test
 * output follows what `node --test --test-reporter=spec` prints on Node 20 with
 * QUEUE_DEBUG=1 (debug lines of the child processes interleaved with results).
 *
 * Each run's TEST_SEED is its run number, and the flaky test's outcome in a run is
 * the one the fixture really produces with that seed: the script asks the fixture's
 * own backoff code which retry delay the seed draws.
 *
 * Usage: node examples/ci-debugger/scripts/make-logs.mjs
 */
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { backoffDelay } from '../fixtures/tiny-queue/src/backoff.js';
import { seededRandom } from '../fixtures/tiny-queue/src/random.js';
import { cleanUp, createLog, setUpJob, setUpNode, workdir } from './runner-steps.mjs';

const outDir = fileURLToPath(new URL('../fixtures/logs/', import.meta.url));
const stressJobs = 900;
const flakyTest = 'onIdle waits for jobs that are being retried';
const orderTest = 'starts jobs in the order they were added';

/** The planned runs, oldest first. `kind` says how the test step ends. */
const plan = [
  { branch: 'main', commit: 'a1c9e07d3b5f2e8c4a6b9d0e1f2a3b4c5d6e7f80', event: 'push', kind: 'pass' },
  {
    branch: 'feat/priority-lanes',
    commit: '5e2b7d19c0a4f6e8b2d1c3a5e7f9b0d2c4e6a8f1',
    event: 'pull_request',
    kind: 'order',
  },
  { branch: 'main', commit: '7f3d2c94e1b0a8d6c5f3e2a1b9d8c7e6f5a4b3c2', event: 'push', kind: 'flaky' },
  { branch: 'main', commit: '7f3d2c94e1b0a8d6c5f3e2a1b9d8c7e6f5a4b3c2', event: 'workflow_dispatch', kind: 'pass' },
  { branch: 'docs/readme', commit: 'c8a1e5f3d7b9024c6e8a0f2b4d6c8e0a2b4d6f81', event: 'pull_request', kind: 'pass' },
  { branch: 'main', commit: '0b8e4aa6f2c1d9e7b5a3c1f9e7d5b3a1c9e7f5d3', event: 'push', kind: 'flaky' },
  {
    branch: 'feat/priority-lanes',
    commit: '9d1f6b3e8a2c4d6f0b1e3a5c7d9f1b3e5a7c9d0e',
    event: 'pull_request',
    kind: 'pass',
  },
  { branch: 'main', commit: '3c7a5e2d9f1b8c6a4e2d0f8b6c4a2e0d8f6b4c2a', event: 'push', kind: 'pass' },
  { branch: 'main', commit: '3c7a5e2d9f1b8c6a4e2d0f8b6c4a2e0d8f6b4c2a', event: 'schedule', kind: 'flaky' },
];

/** The retry delay the flaky test draws with this seed (its first jitter draw). */
function flakyDelay(seed) {
  return backoffDelay(1, { baseDelayMs: 10, maxDelayMs: 1000, maxJitterMs: 40, random: seededRandom(seed) });
}

/** Run numbers whose seed really gives the planned outcome, keeping clear of the 40 ms boundary. */
function pickRunNumbers() {
  let number = 1841;
  return plan.map((run) => {
    const wantsFailure = run.kind === 'flaky';
    for (;;) {
      number += 1;
      const delay = flakyDelay(number);
      if (wantsFailure ? delay >= 44 : delay <= 34) return number;
    }
  });
}

/** Debug lines of the queue's own tests before the flaky one (shape of the real output). */
function queueTests(log, debug, run) {
  debug('job 1 (job-1) queued size=1');
  debug('job 1 (job-1) start attempt=1 active=1');
  debug('job 1 (job-1) completed attempt=1');
  debug('idle (waiters=0)');
  for (let id = 1; id <= 12; id += 1) {
    debug(`job ${id} (job-${id}) queued size=${id <= 3 ? 1 : id - 3}`);
    if (id <= 3) debug(`job ${id} (job-${id}) start attempt=1 active=${id}`);
  }
  log.write('\u25b6 JobQueue');
  log.write(`  \u2714 runs a job and resolves with its value (${ms(log, 3)}ms)`);
  for (let id = 1; id <= 12; id += 1) {
    debug(`job ${id} (job-${id}) completed attempt=1`, 2);
    if (id + 3 <= 12) debug(`job ${id + 3} (job-${id + 3}) start attempt=1 active=3`);
  }
  debug('idle (waiters=0)');
  const names = ['a', 'b', 'c', 'd'];
  for (const [index, name] of names.entries())
    debug(`job ${index + 1} (${name}) queued size=${index === 0 ? 1 : index}`);
  const order = run.kind === 'order' ? ['a', 'c', 'b', 'd'] : names;
  order.forEach((name) => {
    debug(`job ${names.indexOf(name) + 1} (${name}) start attempt=1 active=1`);
    debug(`job ${names.indexOf(name) + 1} (${name}) completed attempt=1`);
  });
  debug('idle (waiters=0)');
  log.write(`  \u2714 never runs more jobs than the concurrency limit (${ms(log, 28)}ms)`);
  if (run.kind === 'order') {
    log.write(`  \u2716 ${orderTest} (${ms(log, 2)}ms)`);
    orderFailure(log, '    ');
  } else {
    log.write(`  \u2714 ${orderTest} (${ms(log, 1.5)}ms)`);
  }
  for (const line of [
    'job 1 (job-1) queued size=1',
    'job 1 (job-1) start attempt=1 active=1',
    'job 2 (job-2) queued size=1',
  ]) {
    debug(line);
  }
  debug('job 1 (job-1) completed attempt=1', 5);
  debug('job 2 (job-2) start attempt=1 active=1');
  debug('job 2 (job-2) completed attempt=1', 5);
  debug('idle (waiters=1)');
  log.write(`  \u2714 reports size and pending (${ms(log, 12)}ms)`);
  log.write(`  \u2714 onIdle resolves at once on an empty queue (${ms(log, 0.2)}ms)`);
  for (let attempt = 1; attempt <= 3; attempt += 1) {
    if (attempt === 1) debug('job 1 (job-1) queued size=1');
    else debug('job 1 (job-1) requeued for retry', attempt);
    debug(`job 1 (job-1) start attempt=${attempt} active=1`);
    if (attempt < 3) debug(`job 1 (job-1) failed attempt=${attempt}: boom; retry in ${attempt}ms`);
    else debug('job 1 (job-1) gave up after 3 attempts: boom');
    debug('idle (waiters=0)');
  }
  log.write(`  \u2714 rejects a job that keeps failing after its retries (${ms(log, 6)}ms)`);
  for (const line of ['completed attempt=1', 'failed attempt=1: no', 'gave up after 1 attempts: no']) {
    debug(`job ${line.startsWith('completed') ? '1 (one)' : '2 (two)'} ${line}`);
  }
  log.write(`  \u2714 emits completed and failed events (${ms(log, 0.4)}ms)`);
  log.write(`  \u2714 refuses a concurrency below one (${ms(log, 0.1)}ms)`);
  log.write(run.kind === 'order' ? `\u2716 JobQueue (${ms(log, 55)}ms)` : `\u2714 JobQueue (${ms(log, 55)}ms)`);
}

/** The retries suite; returns the debug lines the flaky test leaves for later (its late retry). */
function retryTests(log, debug, run) {
  log.write('\u25b6 JobQueue retries');
  debug('job 1 (job-1) queued size=1');
  for (let attempt = 1; attempt <= 3; attempt += 1) {
    if (attempt > 1) debug('job 1 (job-1) requeued for retry', attempt);
    debug(`job 1 (job-1) start attempt=${attempt} active=1`);
    if (attempt < 3) debug(`job 1 (job-1) failed attempt=${attempt}: EAGAIN; retry in ${attempt + 1}ms`);
  }
  debug('job 1 (job-1) completed attempt=3');
  debug('idle (waiters=0)');
  log.write(`  \u2714 retries a failed job and passes the attempt number (${ms(log, 11)}ms)`);
  const delay = flakyDelay(run.number);
  const jobs = ['resize', 'thumbnail', 'upload'];
  for (const [index, name] of jobs.entries()) debug(`job ${index + 1} (${name}) queued size=1`);
  for (const [index, name] of jobs.entries()) debug(`job ${index + 1} (${name}) start attempt=1 active=${index + 1}`);
  debug(`job 3 (upload) failed attempt=1: ECONNRESET: upstream closed the connection; retry in ${delay}ms`);
  const retry = [
    ['job 3 (upload) requeued for retry', delay],
    ['job 3 (upload) start attempt=2 active=1', 0.3],
    ['job 3 (upload) completed attempt=2', 0.2],
  ];
  if (run.kind !== 'flaky') {
    debug(retry[0][0], delay);
    debug('job 3 (upload) start attempt=2 active=3');
    debug(retry[2][0]);
    debug('job 1 (resize) completed attempt=1', 40 - delay);
    debug('job 2 (thumbnail) completed attempt=1');
    debug('idle (waiters=1)');
    log.write(`  \u2714 ${flakyTest} (${ms(log, 41)}ms)`);
    log.write(`\u2714 JobQueue retries (${ms(log, 55)}ms)`);
    return [];
  }
  debug('job 1 (resize) completed attempt=1', 40);
  debug('job 2 (thumbnail) completed attempt=1');
  debug('idle (waiters=1)');
  log.write(`  \u2716 ${flakyTest} (${ms(log, 42)}ms)`);
  flakyFailure(log, '    ');
  log.write(`\u2716 JobQueue retries (${ms(log, 56)}ms)`);
  return retry;
}

const flakyStack = [
  'AssertionError [ERR_ASSERTION]: Expected values to be strictly deep-equal:',
  '+ actual - expected',
  '',
  '  [',
  "    'resize',",
  "    'thumbnail',",
  "-   'upload'",
  '  ]',
  `    at TestContext.<anonymous> (file://${workdir}/test/queue.test.js:121:12)`,
  '    at async Test.run (node:internal/test_runner/test:797:9)',
  '    at async Suite.processPendingSubtests (node:internal/test_runner/test:526:7) {',
  '  generatedMessage: true,',
  "  code: 'ERR_ASSERTION',",
  "  actual: [ 'resize', 'thumbnail' ],",
  "  expected: [ 'resize', 'thumbnail', 'upload' ],",
  "  operator: 'deepStrictEqual'",
  '}',
];

const orderStack = [
  'AssertionError [ERR_ASSERTION]: Expected values to be strictly deep-equal:',
  '+ actual - expected',
  '',
  '  [',
  "    'a',",
  "+   'c',",
  "    'b',",
  "-   'c',",
  "    'd'",
  '  ]',
  `    at TestContext.<anonymous> (file://${workdir}/test/queue.test.js:37:12)`,
  '    at async Test.run (node:internal/test_runner/test:797:9)',
  '    at async Suite.processPendingSubtests (node:internal/test_runner/test:526:7) {',
  '  generatedMessage: true,',
  "  code: 'ERR_ASSERTION',",
  "  actual: [ 'a', 'c', 'b', 'd' ],",
  "  expected: [ 'a', 'b', 'c', 'd' ],",
  "  operator: 'deepStrictEqual'",
  '}',
];

function flakyFailure(log, indent) {
  for (const line of flakyStack) log.write(line === '' ? indent.trimEnd() : `${indent}${line}`, 0.05);
  log.write('');
}

function orderFailure(log, indent) {
  for (const line of orderStack) log.write(line === '' ? indent.trimEnd() : `${indent}${line}`, 0.05);
  log.write('');
}

/** Simulates the burst test's queue (concurrency 8, transient failures) as debug lines, in time order. */
function stressTest(log, debug, random, late) {
  const events = [];
  const at = (time, text) => events.push({ time, text, order: events.length });
  let clock = 0;
  const free = Array.from({ length: 8 }, () => 0);
  const attempts = new Map();
  const pending = Array.from({ length: stressJobs }, (_, index) => ({ index, ready: 0 }));
  for (let index = 0; index < stressJobs; index += 1)
    at(0, `job ${index + 1} (batch-${index}) queued size=${index + 1}`);
  while (pending.length > 0) {
    pending.sort((left, right) => left.ready - right.ready || left.index - right.index);
    const job = pending.shift();
    const slot = free.indexOf(Math.min(...free));
    clock = Math.max(free[slot], job.ready);
    const attempt = (attempts.get(job.index) ?? 0) + 1;
    attempts.set(job.index, attempt);
    const name = `job ${job.index + 1} (batch-${job.index})`;
    at(clock, `${name} start attempt=${attempt} active=${1 + free.filter((time) => time > clock).length}`);
    const end = clock + (job.index % 4) + random();
    free[slot] = end;
    if (job.index % 7 === 0 && attempt === 1) {
      const delay = 1 + Math.floor(random() * 3);
      at(end, `${name} failed attempt=1: ETIMEDOUT job ${job.index}; retry in ${delay}ms`);
      at(end + delay, `${name} requeued for retry`);
      pending.push({ index: job.index, ready: end + delay });
    } else {
      at(end, `${name} completed attempt=${attempt}`);
    }
  }
  at(Math.max(...free), 'idle (waiters=0)');
  events.sort((left, right) => left.time - right.time || left.order - right.order);
  let previous = 0;
  for (const [index, event] of events.entries()) {
    // The flaky test's late retry lands among the first burst lines, as it does for real.
    if (index === 3) for (const [text, wait] of late) debug(text, wait / 20);
    debug(event.text, (event.time - previous) / 4);
    previous = event.time;
  }
  log.write(`\u2714 processes a burst of jobs with transient failures (${ms(log, 1900)}ms)`);
}

function ms(log, around) {
  return (around * (0.8 + (log.elapsedMs() % 400) / 1000)).toFixed(6);
}

function testStep(log, run, random) {
  log.write('##[group]Run npm test', 30);
  log.write('\u001b[36;1mnpm test\u001b[0m');
  log.write('shell: /usr/bin/bash -e {0}');
  log.write('env:');
  for (const line of ['QUEUE_DEBUG: 1', `TEST_SEED: ${run.number}`, `STRESS_JOBS: ${stressJobs}`])
    log.write(`  ${line}`);
  log.write('##[endgroup]');
  log.write('', 200);
  log.write('> tiny-queue@1.4.2 test');
  log.write('> node --test --test-reporter=spec test/');
  log.write('');
  const started = log.elapsedMs();
  const debug = (text, wait = 0.2) => log.write(`tiny-queue +${log.elapsedMs() - started}ms ${text}`, wait);
  log.write(`\u2714 backoff doubles with each attempt (${ms(log, 120)}ms)`);
  log.write(`\u2714 backoff is capped by maxDelayMs (${ms(log, 0.2)}ms)`);
  log.write(`\u2714 jitter stays below maxJitterMs (${ms(log, 1.8)}ms)`);
  log.write(`\u2714 seededRandom replays the same sequence for the same seed (${ms(log, 0.2)}ms)`);
  log.write(`\u2714 seededRandom spreads values over [0, 1) (${ms(log, 2.7)}ms)`);
  queueTests(log, debug, run);
  const late = retryTests(log, debug, run);
  stressTest(log, debug, random, late);
  const failed = run.kind === 'pass' ? 0 : 1;
  for (const [key, value] of [
    ['tests', 16],
    ['suites', 2],
    ['pass', 16 - failed],
    ['fail', failed],
    ['cancelled', 0],
    ['skipped', 0],
    ['todo', 0],
    ['duration_ms', ms(log, 2300)],
  ]) {
    log.write(`\u2139 ${key} ${value}`);
  }
  if (failed === 0) return;
  log.write('');
  log.write('\u2716 failing tests:');
  log.write('');
  if (run.kind === 'flaky') {
    log.write('test at test/queue.test.js:96:3');
    log.write(`\u2716 ${flakyTest} (${ms(log, 42)}ms)`);
    flakyFailure(log, '  ');
  } else {
    log.write('test at test/queue.test.js:33:3');
    log.write(`\u2716 ${orderTest} (${ms(log, 2)}ms)`);
    orderFailure(log, '  ');
  }
  log.write('##[error]Process completed with exit code 1.', 20);
}

const subjects = {
  pass: 'queue: document onIdle semantics',
  flaky: 'queue: emit failed events after the last retry',
  order: 'queue: add priority lanes',
};

async function main() {
  const numbers = pickRunNumbers();
  await mkdir(outDir, { recursive: true });
  for (const name of await readdir(outDir)) if (name.startsWith('run-')) await rm(`${outDir}${name}`);
  const index = [];
  let startMs = Date.UTC(2026, 10, 18, 8, 12, 4);
  for (const [position, planned] of plan.entries()) {
    const run = { ...planned, number: numbers[position], subject: subjects[planned.kind] };
    const random = seededRandom(run.number * 7919);
    startMs += Math.floor((5 + random() * 14) * 3_600_000);
    const log = createLog(startMs, random);
    setUpJob(log, run);
    setUpNode(log);
    testStep(log, run, random);
    cleanUp(log, run);
    const id = 11_873_000_000 + run.number * 37;
    const file = `run-${id}.log`;
    await writeFile(`${outDir}${file}`, `${log.lines.join('\n')}\n`);
    index.push({
      id,
      number: run.number,
      workflow: 'CI',
      job: 'test (20.x)',
      branch: run.branch,
      commit: run.commit,
      event: run.event,
      status: run.kind === 'pass' ? 'success' : 'failure',
      started: new Date(startMs).toISOString(),
      durationSeconds: Math.round(log.elapsedMs() / 1000),
      failingTest: { pass: null, flaky: flakyTest, order: orderTest }[run.kind],
      logLines: log.lines.length,
      log: file,
    });
  }
  await writeFile(`${outDir}runs.json`, `${JSON.stringify(index.reverse(), null, 2)}\n`);
  console.log(`Wrote ${index.length} runs to ${outDir}`);
}

await main();
