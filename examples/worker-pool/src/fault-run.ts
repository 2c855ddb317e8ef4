/**
 * A pool run under faults on pg-boss or DBOS: enqueue `messagesPerSession` jobs for
 * each of `sessions` sessions, start `workers` worker processes on one database,
 * SIGKILL a worker in the middle of a job every few hundred milliseconds (aimed at
 * model calls, tools and between steps in turn, see fault-kills.ts; a standby worker
 * takes its place at once, see worker-process.ts) until `kills` kills have landed,
 * let the pool finish, then check the invariants (verify-pool.ts) and report the
 * counts (fault-report.ts). A kill lands when the dead worker left its job
 * unfinished; a signal that arrives just after the job finished is sent but not counted.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PostgresSessionStore } from '@episodic/postgres';
import pg from 'pg';
import { aimOf, chooseVictim, killUntilLanded, killWorker, sleep, until } from './fault-kills.js';
import { buildFaultReport, type FaultReport, jobsFor, writeWorkspace } from './fault-report.js';
import type { FaultRunOptions } from './fault-sizes.js';
import { PoolEvents } from './pool-events.js';
import { type PoolBackend, poolBackend } from './pool-backend.js';
import { promote, type RunningWorker, sparesFor, startWorker, stopWorkers, takeSpare } from './worker-process.js';

/** Job states after which a job never finishes: the run fails at once rather than waiting for them. */
const DEAD_ENDS = new Set(['failed', 'cancelled', 'ERROR', 'CANCELLED', 'MAX_RECOVERY_ATTEMPTS_EXCEEDED']);

/** Runs the scenario (see above) and returns its report; throws if the pool hangs or a job fails for good. */
export async function runFaultScenario(options: FaultRunOptions): Promise<FaultReport> {
  const started = Date.now();
  const log = options.log ?? (() => {});
  const pool = new pg.Pool({ connectionString: options.connectionString, max: 2 });
  const workspace = await mkdtemp(join(tmpdir(), 'episodic-pool-'));
  const running = new Set<RunningWorker>();
  const spares: RunningWorker[] = [];
  const backend = poolBackend(options.runtime ?? 'pg-boss', options.connectionString, options.schema, options.leaseMs);
  try {
    for (const schema of [options.schema, ...backend.schemas]) await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    const events = new PoolEvents(pool, options.schema);
    await events.migrate();
    await new PostgresSessionStore({ pool, schema: options.schema }).migrate();
    await writeWorkspace(workspace);
    await backend.prepare();
    let count = 0;
    const crashes: string[] = [];
    const spare = () => {
      count += 1;
      const worker = startWorker(backend.workerScript, { ...options, worker: `w${count}`, workspace, standby: true });
      worker.loaded.catch((error: Error) => crashes.push(error.message));
      spares.push(worker);
      return worker;
    };
    const promoteSpare = () => {
      const worker = takeSpare(spares) ?? spare();
      promote(worker);
      running.add(worker);
      spare();
    };
    await Promise.all(Array.from({ length: options.workers + sparesFor(options.workers) }, () => spare().loaded));
    for (let index = 0; index < options.workers; index += 1) promoteSpare();
    await until(() => [...running].every((worker) => worker.isReady) || crashes.length > 0, options.stallMs, 'the workers to start');
    if (crashes.length > 0) throw new Error(`a worker failed to start: ${crashes[0]}`);
    await backend.enqueue(jobsFor(options));
    const progress = progressWatch(backend, options, started);
    log(`${options.workers} workers ready; ${options.sessions * options.messagesPerSession} jobs queued`);
    const unfinished = async (ids: readonly string[]) =>
      new Set((await backend.jobs()).filter((job) => ids.includes(job.id) && job.status !== 'done').map((job) => job.id));
    const { kills, sent } = await killUntilLanded({
      ...options,
      working: async () => (await progress()) > 0,
      async killOnce(turn) {
        // Kill only while most workers are up: a takeover is the live workers' job.
        if ([...running].filter((worker) => worker.isReady).length < Math.ceil(options.workers / 2) + 1) return undefined;
        const aim = aimOf(turn);
        const victim = await chooseVictim(running, aim);
        if (!victim) return undefined;
        const landed = killWorker(victim, aim, unfinished);
        running.delete(victim);
        promoteSpare();
        return { landed };
      },
    });
    log(`${kills.length} kills landed (${sent} sent); waiting for the pool to finish`);
    while ((await progress()) > 0) await sleep(100);
    await stopWorkers([...running, ...spares]);
    const found = await buildFaultReport(options, { pool, events, workspace, kills, killsSent: sent, jobs: await backend.jobs(), started });
    return { ...found, errors: [...crashes, ...found.errors] };
  } finally {
    for (const worker of [...running, ...spares]) worker.process.kill('SIGKILL');
    await backend.close().catch(() => {});
    await pool.end();
    await rm(workspace, { recursive: true, force: true });
  }
}

/**
 * Counts the jobs not done yet, and fails the run when one ended for good, when no job
 * finished for `stallMs` (naming the unfinished ones), or after `timeoutMs` in all.
 */
function progressWatch(backend: PoolBackend, options: FaultRunOptions, started: number): () => Promise<number> {
  let done = -1;
  let progressAt = Date.now();
  return async () => {
    const jobs = await backend.jobs();
    const stuck = jobs.filter((job) => job.status !== 'done');
    const failed = stuck.filter((job) => DEAD_ENDS.has(job.status));
    if (failed.length > 0) throw new Error(`jobs ended without finishing: ${failed.map((job) => `${job.id} ${job.status}`).join(', ')}`);
    const now = Date.now();
    if (jobs.length - stuck.length > done) {
      done = jobs.length - stuck.length;
      progressAt = now;
    }
    const unfinished = () => stuck.slice(0, 10).map((job) => `${job.id} ${job.status}`).join(', ');
    if (now - progressAt > options.stallMs) throw new Error(`no job finished for ${options.stallMs} ms (the pool hangs); unfinished: ${unfinished()}`);
    if (now - started > options.timeoutMs) throw new Error(`the pool did not finish within ${options.timeoutMs} ms; unfinished: ${unfinished()}`);
    return stuck.length;
  };
}
