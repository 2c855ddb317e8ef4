/**
 * A pool run under faults: enqueue `messagesPerSession` jobs for each of `sessions`
 * sessions, start `workers` worker processes on one database, SIGKILL a random
 * worker that is in the middle of an episode every so often (starting a fresh one
 * in its place) until `kills` kills, let the pool finish, then check the invariants
 * (verify-pool.ts) and report the counts.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PostgresSessionStore } from '@episodic/postgres';
import pg from 'pg';
import { PoolEvents } from './pool-events.js';
import type { Job } from './pool-jobs.js';
import { type PoolBackend, poolBackend, type PoolRuntime } from './pool-backend.js';
import { verifyPool } from './verify-pool.js';
import type { WorkerConfig } from './worker-config.js';

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
  /** SIGKILLs to deliver (fewer if the jobs run out first). */
  kills: number;
  /** Random pause between kills, in ms. */
  killGapMs: [number, number];
  leaseMs: number;
  latencyMs: number;
  toolMs: number;
  /** Give up (and fail) after this long. */
  timeoutMs: number;
  /** Progress lines go here. */
  log?: (line: string) => void;
}

/** What a run did and found. */
export interface FaultReport {
  workers: number;
  sessions: number;
  episodes: number;
  kills: number;
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

interface RunningWorker {
  name: string;
  process: ChildProcess;
  /** The job it is running, from its `start`/`end` lines. */
  job: string | undefined;
  /** Set once it printed `ready`. */
  isReady: boolean;
  ready: Promise<void>;
}

/** Runs the scenario (see above) and returns its report; throws if the pool does not finish in time. */
export async function runFaultScenario(options: FaultRunOptions): Promise<FaultReport> {
  const started = Date.now();
  const log = options.log ?? (() => {});
  const pool = new pg.Pool({ connectionString: options.connectionString, max: 2 });
  const workspace = await mkdtemp(join(tmpdir(), 'episodic-pool-'));
  const running = new Set<RunningWorker>();
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
    const config = (name: string): WorkerConfig => ({ ...options, worker: name, workspace });
    const start = () => {
      count += 1;
      const worker = startWorker(backend.workerScript, config(`w${count}`));
      worker.ready.catch((error: Error) => crashes.push(error.message));
      running.add(worker);
      return worker;
    };
    await Promise.all(Array.from({ length: options.workers }, () => start().ready));
    if (crashes.length > 0) throw new Error(`a worker failed to start: ${crashes[0]}`);
    await backend.enqueue(jobsFor(options));
    const pendingCount = async () => (await backend.jobs()).filter((job) => job.status !== 'done').length;
    log(`${options.workers} workers ready; ${options.sessions * options.messagesPerSession} jobs queued`);
    const kills: { job: string; at: number }[] = [];
    while (kills.length < options.kills && (await pendingCount()) > 0) {
      checkTime(started, options);
      const [low, high] = options.killGapMs;
      await sleep(low + Math.random() * (high - low));
      // Kill only while most workers are up: replacements take a moment to start, and
      // a takeover is the live workers' job.
      if ([...running].filter((worker) => worker.isReady).length < Math.ceil(options.workers / 2) + 1) continue;
      const busy = [...running].filter((worker) => worker.job !== undefined);
      const victim = busy[Math.floor(Math.random() * busy.length)];
      if (!victim?.job) continue;
      kills.push({ job: victim.job, at: Date.now() });
      victim.process.kill('SIGKILL');
      running.delete(victim);
      start();
    }
    log(`${kills.length} workers killed; waiting for the pool to finish`);
    while ((await pendingCount()) > 0) {
      checkTime(started, options);
      await sleep(100);
    }
    await stopWorkers(running);
    const found = await report(options, { pool, backend, events, workspace, kills, started });
    return { ...found, errors: [...crashes, ...found.errors] };
  } finally {
    for (const worker of running) worker.process.kill('SIGKILL');
    await backend.close().catch(() => {});
    await pool.end();
    await rm(workspace, { recursive: true, force: true });
  }
}

type Kill = { job: string; at: number };

async function report(
  options: FaultRunOptions,
  run: { pool: pg.Pool; backend: PoolBackend; events: PoolEvents; workspace: string; kills: Kill[]; started: number },
): Promise<FaultReport> {
  const events = await run.events.all();
  const jobs = await run.backend.jobs();
  const check = await verifyPool(new PostgresSessionStore({ pool: run.pool, schema: options.schema }), jobs);
  const takeoverTimes = run.kills.map((kill) => {
    const next = events.find((event) => event.jobId === kill.job && event.startedMs !== null && event.startedMs > kill.at);
    return next?.startedMs ? next.startedMs - kill.at : 0;
  });
  const executions = (await readFile(join(run.workspace, 'executions.log'), 'utf8')).split('\n').filter(Boolean);
  const count = (kind: string) => events.filter((event) => event.kind === kind).length;
  return {
    workers: options.workers,
    sessions: check.sessions,
    episodes: check.episodes,
    kills: run.kills.length,
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

function startWorker(workerScript: string, config: WorkerConfig): RunningWorker {
  const child = spawn(process.execPath, [workerScript, JSON.stringify(config)], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const worker: RunningWorker = { name: config.worker, process: child, job: undefined, isReady: false, ready: Promise.resolve() };
  worker.ready = new Promise((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const lines = output.split('\n');
      output = lines.pop() ?? '';
      for (const line of lines) {
        if (line === 'ready') {
          worker.isReady = true;
          resolve();
        } else if (line.startsWith('start ')) worker.job = line.slice('start '.length);
        else if (line.startsWith('end ')) worker.job = undefined;
      }
    });
    let errors = '';
    child.stderr?.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    child.on('exit', (code, signal) => {
      if (signal !== 'SIGKILL' && signal !== 'SIGTERM' && code !== 0) reject(new Error(`worker ${config.worker} exited with ${code}: ${errors}`));
      resolve();
    });
  });
  return worker;
}

async function stopWorkers(running: Set<RunningWorker>): Promise<void> {
  const exits = [...running].map((worker) => new Promise((resolve) => worker.process.once('exit', resolve)));
  for (const worker of running) worker.process.kill('SIGTERM');
  await Promise.race([Promise.all(exits), sleep(10_000)]);
  running.clear();
}

async function writeWorkspace(workspace: string): Promise<void> {
  await mkdir(join(workspace, 'notes'), { recursive: true });
  await writeFile(join(workspace, 'README.md'), '# Pool workspace\n\nThe worker pool example reads this file.\n');
  await writeFile(join(workspace, 'notes', 'todo.md'), '- keep every episode whole\n');
  await writeFile(join(workspace, 'executions.log'), '');
}

function checkTime(started: number, options: FaultRunOptions): void {
  if (Date.now() - started > options.timeoutMs) throw new Error(`the pool did not finish within ${options.timeoutMs} ms`);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
