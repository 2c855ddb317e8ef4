/**
 * A pool run under faults: enqueue `messagesPerSession` jobs for each of `sessions`
 * sessions, start `workers` worker processes on one database, SIGKILL a random
 * worker that is in the middle of a job every few hundred milliseconds (a standby
 * worker takes its place at once, see worker-process.ts) until `kills` kills have
 * landed, let the pool finish, then check the invariants (verify-pool.ts) and report
 * the counts. A kill lands when the dead worker left its job unfinished; a signal
 * that arrives just after the job finished is sent but not counted.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PostgresSessionStore } from '@episodic/postgres';
import pg from 'pg';
import { PoolEvents } from './pool-events.js';
import type { Job } from './pool-jobs.js';
import { type PoolBackend, poolBackend, type PoolRuntime } from './pool-backend.js';
import type { WorkPhase } from './pool-agent.js';
import { verifyPool } from './verify-pool.js';
import { promote, type RunningWorker, startWorker, stopWorkers } from './worker-process.js';

/** Sizes and timings of a run. */
export interface FaultRunOptions {
  /** What runs the jobs. Default pg-boss. */
  runtime?: PoolRuntime;
  connectionString: string;
  /** A schema of its own (dropped first). */
  schema: string;
  workers: number;
  sessions: number;
  messagesPerSession: number;
  /** SIGKILLs that must land: each kills a worker in the middle of a job it had not finished (fewer if the jobs run out first). */
  kills: number;
  /** Random pause between kills, in ms. */
  killGapMs: [number, number];
  leaseMs: number;
  latencyMs: number;
  toolMs: number;
  /** Fail when no job finished for this long: a hang detector, not a latency target. */
  stallMs: number;
  /** Fail when the run takes longer than this in all (a last resort behind `stallMs`). */
  timeoutMs: number;
  /** Progress lines go here. */
  log?: (line: string) => void;
}

/** What a run did and found. */
export interface FaultReport {
  workers: number;
  sessions: number;
  episodes: number;
  /** Kills that landed: the worker was in the middle of a job, and the job was not done when it had died. */
  kills: number;
  /** Every SIGKILL sent (the ones that did not land hit a worker whose job had just finished). */
  killsSent: number;
  /** Landed kills by where the worker was: in a model call, in a tool, or between them. */
  killsByPhase: Record<WorkPhase, number>;
  /** Jobs another worker resumed mid-episode after its worker was killed. */
  takeovers: number;
  /** Jobs whose episode had finished when their worker was killed (only the job was left to mark done). */
  finishedBeforeKill: number;
  /** Attempts refused because another worker (or a dead one's lease) held the session. */
  busyRetries: number;
  /** Attempts refused because the session changed since it was opened. */
  conflicts: number;
  /** From a kill to the episode starting again on another worker: the longest, in ms. */
  maxTakeoverMs: number;
  messagesChecked: number;
  toolCalls: number;
  /** Executions of record_step beyond one per call: tools re-run after a kill inside them (at least once). */
  toolReruns: number;
  /** record_step calls answered "outcome unknown" (DBOS: it is declared not idempotent, so it never runs twice). */
  unknownOutcomes: number;
  /** Unexpected errors recorded by workers, and broken invariants. */
  errors: string[];
  violations: string[];
  durationMs: number;
}

/** One SIGKILL: whose job, when, where in the job, and whether the job was left unfinished. */
interface Kill {
  job: string;
  at: number;
  phase: WorkPhase;
  landed: boolean;
}

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
      const worker = spares.shift() ?? spare();
      promote(worker);
      running.add(worker);
      spare();
    };
    await Promise.all(Array.from({ length: options.workers + 1 }, () => spare().loaded));
    for (let index = 0; index < options.workers; index += 1) promoteSpare();
    await until(() => [...running].every((worker) => worker.isReady) || crashes.length > 0, options.stallMs, 'the workers to start');
    if (crashes.length > 0) throw new Error(`a worker failed to start: ${crashes[0]}`);
    await backend.enqueue(jobsFor(options));
    const progress = progressWatch(backend, options, started);
    log(`${options.workers} workers ready; ${options.sessions * options.messagesPerSession} jobs queued`);
    const kills: Kill[] = [];
    const landed = () => kills.filter((kill) => kill.landed).length;
    while (landed() < options.kills && (await progress()) > 0) {
      const [low, high] = options.killGapMs;
      await sleep(low + Math.random() * (high - low));
      // Kill only while most workers are up: a takeover is the live workers' job.
      if ([...running].filter((worker) => worker.isReady).length < Math.ceil(options.workers / 2) + 1) continue;
      const busy = [...running].filter((worker) => worker.isReady && worker.job !== undefined);
      const victim = busy[Math.floor(Math.random() * busy.length)];
      if (!victim?.job) continue;
      const kill: Kill = { job: victim.job, at: Date.now(), phase: victim.phase, landed: false };
      const exited = new Promise((resolve) => victim.process.once('exit', resolve));
      victim.process.kill('SIGKILL');
      running.delete(victim);
      promoteSpare();
      await exited;
      // Landed if the dead worker left its job unfinished: another worker must take it over.
      kill.landed = (await backend.jobs()).some((job) => job.id === kill.job && job.status !== 'done');
      kills.push(kill);
    }
    log(`${landed()} kills landed (${kills.length} sent); waiting for the pool to finish`);
    while ((await progress()) > 0) await sleep(100);
    await stopWorkers([...running, ...spares]);
    const found = await report(options, { pool, backend, events, workspace, kills, started });
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

async function report(
  options: FaultRunOptions,
  run: { pool: pg.Pool; backend: PoolBackend; events: PoolEvents; workspace: string; kills: Kill[]; started: number },
): Promise<FaultReport> {
  const events = await run.events.all();
  const jobs = await run.backend.jobs();
  const check = await verifyPool(new PostgresSessionStore({ pool: run.pool, schema: options.schema }), jobs);
  const landed = run.kills.filter((kill) => kill.landed);
  const takeoverTimes = landed.map((kill) => {
    const next = events.find((event) => event.jobId === kill.job && event.startedMs !== null && event.startedMs > kill.at);
    return next?.startedMs ? next.startedMs - kill.at : 0;
  });
  const executions = (await readFile(join(run.workspace, 'executions.log'), 'utf8')).split('\n').filter(Boolean);
  const count = (kind: string) => events.filter((event) => event.kind === kind).length;
  const inPhase = (phase: WorkPhase) => landed.filter((kill) => kill.phase === phase).length;
  return {
    workers: options.workers,
    sessions: check.sessions,
    episodes: check.episodes,
    kills: landed.length,
    killsSent: run.kills.length,
    killsByPhase: { model: inPhase('model'), tool: inPhase('tool'), between: inPhase('between') },
    takeovers: count('resumed'),
    finishedBeforeKill: count('already-finished'),
    busyRetries: count('busy'),
    conflicts: count('conflict'),
    maxTakeoverMs: Math.max(0, ...takeoverTimes),
    messagesChecked: check.messagesChecked,
    toolCalls: check.toolCalls,
    toolReruns: executions.length - new Set(executions.map((line) => line.split(' ')[0])).size,
    unknownOutcomes: check.unknownOutcomes,
    errors: events.filter((event) => event.kind === 'error').map((event) => `job ${event.jobId}: ${event.detail}`),
    violations: check.violations,
    durationMs: Date.now() - run.started,
  };
}

/** Jobs for every session, half of them with reasoning kept out of the transcript (in the sidecar). */
function jobsFor(options: FaultRunOptions): Job[] {
  const jobs: Job[] = [];
  for (let session = 0; session < options.sessions; session += 1) {
    for (let position = 0; position < options.messagesPerSession; position += 1) {
      jobs.push({
        id: `s${session}m${position}`,
        sessionId: `session-${session}`,
        position,
        text: `Check the workspace (message ${position + 1} of session ${session}).`,
        persistReasoning: session % 2 === 0 ? 'always' : 'current-episode',
      });
    }
  }
  return jobs;
}

async function writeWorkspace(workspace: string): Promise<void> {
  await mkdir(join(workspace, 'notes'), { recursive: true });
  await writeFile(join(workspace, 'README.md'), '# Pool workspace\n\nThe worker pool example reads this file.\n');
  await writeFile(join(workspace, 'notes', 'todo.md'), '- keep every episode whole\n');
  await writeFile(join(workspace, 'executions.log'), '');
}

async function until(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`waited ${timeoutMs} ms for ${what}`);
    await sleep(50);
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
