/**
 * The session stores benchmark (issue 14):
 * - append latency per step (an assistant message with reasoning and a tool call,
 *   plus its tool result, appended under the writer's lease with the expected
 *   length, as the agent loop does), p50/p99 and steps/s, for the file store
 *   (the baseline), PGlite in memory, and a PostgreSQL server on loopback;
 * - load time of a 5,000-message session in each;
 * - throughput with 1, 2 and 4 worker processes on one server database, each taking
 *   sessions (lease, 10 steps, release) for a fixed time.
 *
 *   npm run bench -- stores     (EPISODIC_PG_URL names the server; else a throwaway one is started)
 *
 * Needs the built packages (`npx tsc -b`). Writes bench/results/stores.md.
 */
import { fork } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { FileSessionStore } from '@episodic/core/node';
import { openPGlite, PostgresSessionStore } from '@episodic/postgres';
import { serverForTests } from '@episodic/postgres/testing';
import pg from 'pg';
import { percentile } from './metrics.js';
import { stepMessages } from './step-messages.js';

const APPENDS = 400;
const WARMUP = 40;
const LONG_SESSION = 5_000;
const LOADS = 15;
const WORKER_SECONDS = 4;

function summary(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  return { median: percentile(sorted, 0.5), p99: percentile(sorted, 0.99), count: sorted.length };
}

/** Appends APPENDS steps to one session under a lease; returns per-step latencies and steps/s. */
async function appendSteps(store) {
  const lease = await store.acquire('bench-appends');
  let length = lease.length;
  const samples = [];
  const started = performance.now();
  for (let step = 0; step < WARMUP + APPENDS; step += 1) {
    if (step === WARMUP) samples.length = 0;
    const messages = stepMessages(step);
    const before = performance.now();
    await store.append('bench-appends', messages, { lease, expectedLength: length });
    samples.push(performance.now() - before);
    length += messages.length;
  }
  const seconds = (performance.now() - started) / 1000;
  await lease.release();
  return { ...summary(samples), stepsPerSecond: (WARMUP + APPENDS) / seconds };
}

/** Stores a 5,000-message session in 50-step batches, then times loading it. */
async function loadLongSession(store) {
  let stored = 0;
  for (let batch = 0; stored < LONG_SESSION; batch += 1) {
    const messages = [];
    for (let step = 0; step < 50 && stored + messages.length < LONG_SESSION; step += 1) messages.push(...stepMessages(batch * 50 + step));
    await store.append('bench-long', messages, { expectedLength: stored });
    stored += messages.length;
  }
  const samples = [];
  for (let load = 0; load < LOADS + 2; load += 1) {
    const before = performance.now();
    const loaded = await store.load('bench-long');
    if (load >= 2) samples.push(performance.now() - before);
    if (loaded?.messages.length !== LONG_SESSION) throw new Error(`loaded ${loaded?.messages.length} messages`);
  }
  return summary(samples);
}

async function measure(store) {
  return { appends: await appendSteps(store), load: await loadLongSession(store) };
}

/** Total steps/s of `workers` processes on one database, sessions of their own. */
async function workerThroughput(url, schema, workers) {
  const script = fileURLToPath(new URL('./stores-worker.js', import.meta.url));
  const children = Array.from({ length: workers }, (_, index) =>
    fork(script, [JSON.stringify({ url, schema, worker: index, seconds: WORKER_SECONDS })], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] }),
  );
  const ready = children.map((child) => new Promise((resolve) => child.once('message', resolve)));
  await Promise.all(ready);
  const done = children.map((child) => new Promise((resolve) => child.once('message', resolve)));
  for (const child of children) child.send('go');
  const results = await Promise.all(done);
  return results.reduce((sum, result) => sum + result.steps, 0) / WORKER_SECONDS;
}

/** A server we did not start keeps no benchmark tables. */
async function dropSchema(url, schema) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await client.end();
}

const ms = (value) => `${value.toFixed(2)} ms`;
const ratio = (value, base) => `${(value / base).toFixed(2)}×`;

/** Runs every measurement and returns a markdown section. */
export default async function run() {
  const directory = await mkdtemp(join(tmpdir(), 'episodic-bench-stores-'));
  const server = await serverForTests();
  const pglite = await openPGlite();
  const schema = `bench_${Date.now()}`;
  try {
    const file = await measure(new FileSessionStore({ directory }));
    const embedded = await measure(new PostgresSessionStore({ pglite, schema }));
    const serverStore = new PostgresSessionStore({ connectionString: server.url, schema, poolSize: 4 });
    const real = await measure(serverStore);
    const throughput = [];
    for (const workers of [1, 2, 4]) throughput.push({ workers, stepsPerSecond: await workerThroughput(server.url, schema, workers) });
    await serverStore.close();
    if (process.env.EPISODIC_PG_URL) await dropSchema(server.url, schema);
    const rows = [
      ['file store (baseline)', file],
      ['PGlite, in memory', embedded],
      ['PostgreSQL server, loopback', real],
    ];
    const appendRows = rows.map(
      ([name, result]) =>
        `| ${name} | ${ms(result.appends.median)} | ${ms(result.appends.p99)} | ${result.appends.stepsPerSecond.toFixed(0)} | ${ratio(result.appends.median, file.appends.median)} |`,
    );
    const loadRows = rows.map(
      ([name, result]) => `| ${name} | ${ms(result.load.median)} | ${ms(result.load.p99)} | ${ratio(result.load.median, file.load.median)} |`,
    );
    const workerRows = throughput.map(
      (row) => `| ${row.workers} | ${row.stepsPerSecond.toFixed(0)} | ${ratio(row.stepsPerSecond, throughput[0].stepsPerSecond)} |`,
    );
    const markdown = `## Session stores

Node ${process.version}, ${availableParallelism()} cores, load average ${loadavg()[0].toFixed(1)} when it finished
(other work on the machine moves p99 and throughput most). A step is an assistant message with
600 characters of reasoning and a tool call plus a 1,500-character tool result, appended under the
writer's lease with its expected length (the file store: write + fsync; PostgreSQL: one statement,
synchronous commit, fsync on). Ratios against the file store, measured in the same run.

| append per step | median | p99 | steps/s (one writer) | median vs file |
| --- | --- | --- | --- | --- |
${appendRows.join('\n')}

| load a ${LONG_SESSION.toLocaleString('en-US')}-message session | median | p99 | median vs file |
| --- | --- | --- | --- |
${loadRows.join('\n')}

Worker processes on one server database, each taking sessions of its own (lease, 10 steps,
release) for ${WORKER_SECONDS} s:

| workers | steps/s, all workers | vs 1 worker |
| --- | --- | --- |
${workerRows.join('\n')}

Targets: a step append on the server p50 under 2 ms on loopback; loading 5,000 messages under 150 ms.
With ${availableParallelism()} cores the server, the workers and this process share the CPUs, so
throughput cannot grow linearly past that many busy processes.
`;
    await mkdir(new URL('./results/', import.meta.url), { recursive: true });
    await writeFile(new URL('./results/stores.md', import.meta.url), markdown);
    return markdown;
  } finally {
    await pglite.close();
    await server.stop();
    await rm(directory, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.stdout.write(await run());
}
