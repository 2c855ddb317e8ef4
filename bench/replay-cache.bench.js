/**
 * The replay cache's management operations on 100,000 entries (issue 25): list
 * (newest 100, and filtered by provider), report, delete of one tool call's entry,
 * delete of a provider's 10,000 entries, and a sweep of 20,000 expired entries, for
 * the memory cache (the baseline), the file cache (its log is rewritten after a
 * delete or sweep), PGlite and a PostgreSQL server on loopback.
 *
 *   npm run bench -- replay-cache   (EPISODIC_PG_URL names the server; else a throwaway one is started)
 *
 * Needs the built packages (`npx tsc -b`). Writes bench/results/replay-cache.md.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { MemoryReplayCache } from '@episodic/core/reasoning';
import { FileReplayCache } from '@episodic/core/node';
import { openPGlite, PostgresReplayCache } from '@episodic/postgres';
import { serverForTests } from '@episodic/postgres/testing';
import { percentile } from './metrics.js';

const ENTRIES = 100_000;
const BATCH = 5_000;
const REPEATS = 5;
const HOUR = 60 * 60 * 1000;
const providers = ['deepseek', 'moonshot', 'zai', 'xiaomi', 'siliconflow', 'together', 'fireworks', 'nebius', 'deepinfra', 'opencode'];
const text = 'Read the failing job log first, then compare the fixture timeout with the runner clock. '.repeat(3);

/** The clock every cache reads: entries are stored "now", and the sweep moves it on. */
let now = 10 * HOUR;
const bounds = { maxEntries: 10 * ENTRIES, maxTokens: Number.MAX_SAFE_INTEGER, ttlMs: 2 * HOUR, now: () => now };

/** Entry `n`: provider by n mod 10, the first 20% stored 1.5 hours ago (they expire when the clock moves on 1 hour). */
function entry(n) {
  const provider = providers[n % providers.length];
  const model = `${provider}-model-${n % 3}`;
  return {
    key: `call\u0000${provider}\u0000${model}\u0000call_${n}`,
    provider,
    model,
    parts: [{ type: 'reasoning', text }],
    tokens: 60,
    storedAt: n < ENTRIES / 5 ? now - 1.5 * HOUR : now - (n % 1000),
  };
}

async function fill(cache) {
  const started = performance.now();
  for (let first = 0; first < ENTRIES; first += BATCH) {
    await cache.set(Array.from({ length: BATCH }, (_, index) => entry(first + index)));
  }
  return performance.now() - started;
}

async function timed(operation, repeats = REPEATS) {
  const samples = [];
  let result;
  for (let run = 0; run < repeats; run += 1) {
    const before = performance.now();
    result = await operation(run);
    samples.push(performance.now() - before);
  }
  return { median: percentile([...samples].sort((a, b) => a - b), 0.5), result };
}

/** Every measurement on one cache; the clock is reset for each. */
async function measure(open) {
  now = 10 * HOUR;
  const cache = await open();
  const fillMs = await fill(cache);
  const list = await timed(() => cache.list({ limit: 100 }));
  const listProvider = await timed(() => cache.list({ provider: 'zai', limit: 100 }));
  const report = await timed(() => cache.report(), 3);
  if (report.result.entries !== ENTRIES) throw new Error(`report saw ${report.result.entries} entries`);
  const deleteOne = await timed((run) => cache.delete({ toolCallId: `call_${ENTRIES - 1 - run}` }));
  const deleteProvider = await timed(() => cache.delete({ provider: 'moonshot' }), 1);
  now += HOUR;
  const sweep = await timed(() => cache.sweep(), 1);
  await cache.close?.();
  return { fillMs, list, listProvider, report, deleteOne, deleteProvider, sweep };
}

const ms = (value) => (value >= 100 ? `${value.toFixed(0)} ms` : `${value.toFixed(2)} ms`);
const ratio = (value, base) => `${(value / base).toFixed(1)}×`;

/** Runs every measurement and returns a markdown section. */
export default async function run() {
  const directory = await mkdtemp(join(tmpdir(), 'episodic-bench-replay-'));
  const server = await serverForTests();
  const pglite = await openPGlite();
  const schema = `bench_replay_${Date.now()}`;
  try {
    const memory = await measure(async () => new MemoryReplayCache(bounds));
    const file = await measure(() => FileReplayCache.open({ ...bounds, path: join(directory, 'replay.jsonl'), compactAfter: 10 * ENTRIES }));
    const embedded = await measure(async () => new PostgresReplayCache({ pglite, schema, ...bounds }));
    const real = await measure(async () => new PostgresReplayCache({ connectionString: server.url, schema, poolSize: 2, ...bounds }));
    const rows = [
      ['memory (baseline)', memory],
      ['file (log rewritten on delete/sweep)', file],
      ['PGlite, in memory', embedded],
      ['PostgreSQL server, loopback', real],
    ];
    const line = ([name, r]) =>
      `| ${name} | ${ms(r.list.median)} | ${ms(r.listProvider.median)} | ${ms(r.report.median)} | ${ms(r.deleteOne.median)} | ` +
      `${ms(r.deleteProvider.median)} (${r.deleteProvider.result}) | ${ms(r.sweep.median)} (${r.sweep.result}) | ${(r.fillMs / 1000).toFixed(1)} s |`;
    const vs = ([name, r]) =>
      `| ${name} | ${ratio(r.list.median, memory.list.median)} | ${ratio(r.deleteOne.median, memory.deleteOne.median)} | ` +
      `${ratio(r.deleteProvider.median, memory.deleteProvider.median)} | ${ratio(r.sweep.median, memory.sweep.median)} |`;
    return `## Replay cache operations on ${ENTRIES.toLocaleString('en-US')} entries

Node ${process.version}, ${availableParallelism()} cores, load average ${loadavg()[0].toFixed(1)} when it finished.
Entries of 10 providers x 3 models, ${text.length} characters of reasoning each. Medians of ${REPEATS} runs
(report: 3; the destructive deletes and the sweep: 1 run each). Delete by provider removes 10% of the
entries, the sweep the 20% stored 1.5 hours before the clock moved 1 hour on (2-hour time to live).

| cache | list newest 100 | list 100 of a provider | report | delete one tool call | delete a provider (entries) | sweep (entries) | fill (20 sets of ${BATCH.toLocaleString('en-US')}) |
| --- | --- | --- | --- | --- | --- | --- | --- |
${rows.map(line).join('\n')}

| vs memory, same run | list | delete one | delete a provider | sweep |
| --- | --- | --- | --- | --- |
${rows.slice(1).map(vs).join('\n')}

The file cache serves every operation from memory and then rewrites its log (temporary file, fsync,
rename): a delete costs a rewrite of every live entry. PostgreSQL's list by recency sorts on
\`stored_at\` (indexed); delete by tool-call id and by provider scan the table (no index on them).
`;
  } finally {
    await pglite.close();
    await server.stop();
    await rm(directory, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.stdout.write(await run());
}
