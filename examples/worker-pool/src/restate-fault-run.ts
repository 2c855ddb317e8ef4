/**
 * The pool's fault run on Restate: `workers` endpoint processes behind a load
 * balancer, one Restate server (its npm binary), `sessions` x `messagesPerSession`
 * episodes sent to the session objects; then SIGKILLs at random moments, each of a
 * random worker in the middle of an episode (a fresh one starts in its place) or,
 * one time in `serverEvery`, of the Restate server itself (restarted on its data).
 * Afterwards the invariants of verify-pool.ts are checked on the session store, as
 * for the pg-boss and DBOS pools.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PostgresSessionStore } from '@episodic/postgres';
import { EPISODE_WORKFLOW, EpisodesClient } from '@episodic/restate';
import { freePort, RestateServer } from '@episodic/restate/testing';
import pg from 'pg';
import type { FaultReport, FaultRunOptions } from './fault-run.js';
import { jobMessage } from './handle-job.js';
import { PoolEvents } from './pool-events.js';
import type { Job, JobWithState } from './pool-jobs.js';
import { Balancer } from './restate-balancer.js';
import type { RestateWorkerConfig } from './restate-worker.js';
import { verifyPool } from './verify-pool.js';

/** A Restate run's options: the pool's, and how often a kill hits the server. */
export type RestateFaultOptions = Omit<FaultRunOptions, 'runtime'> & {
  /** One kill in this many is of the Restate server. Default 3. */
  serverEvery?: number;
};

/** The pool's report, with the kills of the server counted apart. */
export type RestateFaultReport = FaultReport & { serverKills: number };

interface Worker {
  name: string;
  port: number;
  process: ChildProcess;
  jobs: Set<string>;
}

type Kill = { jobs: string[]; at: number };

/** Runs the scenario (see above); throws if the pool does not finish within `timeoutMs`. */
export async function runRestateFaultScenario(options: RestateFaultOptions): Promise<RestateFaultReport> {
  const started = Date.now();
  const log = options.log ?? (() => {});
  const pool = new pg.Pool({ connectionString: options.connectionString, max: 2 });
  const workspace = await mkdtemp(join(tmpdir(), 'episodic-restate-pool-'));
  const workers = new Set<Worker>();
  let starting = 0;
  let server: RestateServer | undefined;
  let balancer: Balancer | undefined;
  try {
    await pool.query(`DROP SCHEMA IF EXISTS "${options.schema}" CASCADE`);
    const events = new PoolEvents(pool, options.schema);
    await events.migrate();
    await new PostgresSessionStore({ pool, schema: options.schema }).migrate();
    await writeWorkspace(workspace);
    server = await RestateServer.start();
    balancer = await Balancer.start();
    let count = 0;
    const crashes: string[] = [];
    const start = async () => {
      count += 1;
      starting += 1;
      const config: RestateWorkerConfig = { ...options, worker: `w${count}`, workspace, port: await freePort() };
      try {
        const worker = await startWorker(config);
        workers.add(worker);
        balancer?.add(worker.port);
      } catch (error) {
        crashes.push(error instanceof Error ? error.message : String(error));
      } finally {
        starting -= 1;
      }
    };
    await Promise.all(Array.from({ length: options.workers }, () => start()));
    if (crashes.length > 0) throw new Error(`a worker failed to start: ${crashes[0]}`);
    await server.register(balancer.url);
    const jobs = jobsFor(options);
    const restate = server;
    const finished = async () => {
      const rows = await restate
        .query<{ done: number }>(`SELECT count(*) AS done FROM sys_invocation WHERE target_service_name = '${EPISODE_WORKFLOW}' AND status = 'completed'`)
        .catch(() => [{ done: 0 }]);
      return Number(rows[0]?.done ?? 0);
    };
    // Kills start while episodes are still being sent: a send the dead server refused is sent again (same idempotency key).
    let sending = true;
    const sent = sendAll(new EpisodesClient(server.ingressUrl), jobs).finally(() => (sending = false));
    log(`${options.workers} workers ready; sending ${jobs.length} episodes`);
    const kills: Kill[] = [];
    let serverKills = 0;
    const serverEvery = options.serverEvery ?? 3;
    // Kills stop at the target, when the episodes are done, or half way to the time limit (a loaded machine
    // starts replacement processes slowly), so the pool always has time to finish.
    const killUntil = started + options.timeoutMs / 2;
    while (kills.length < options.kills && Date.now() < killUntil && (sending || (await finished()) < jobs.length)) {
      checkTime(started, options);
      const [low, high] = options.killGapMs;
      await sleep(low + Math.random() * (high - low));
      if ((kills.length + 1) % serverEvery === 0) {
        kills.push({ jobs: [...workers].flatMap((worker) => [...worker.jobs]), at: Date.now() });
        serverKills += 1;
        await server.restart();
        log(`kill ${kills.length}: the Restate server, restarted at ${Date.now() - started} ms`);
        continue;
      }
      // Replacements start in the background; at least half the workers stay up to take over.
      if (workers.size < Math.ceil(options.workers / 2) + 1) continue;
      // Mostly a worker in the middle of an episode; an idle one (between steps) when none is.
      const busy = [...workers].filter((worker) => worker.jobs.size > 0);
      const candidates = busy.length > 0 ? busy : [...workers];
      const victim = candidates[Math.floor(Math.random() * candidates.length)];
      if (!victim) continue;
      kills.push({ jobs: [...victim.jobs], at: Date.now() });
      balancer.remove(victim.port);
      victim.process.kill('SIGKILL');
      workers.delete(victim);
      log(`kill ${kills.length}: ${victim.name} (${victim.jobs.size} episodes) at ${Date.now() - started} ms`);
      void start();
    }
    await sent;
    while (starting > 0) await sleep(100);
    log(`${kills.length} kills (${serverKills} of the server); waiting for the pool to finish`);
    const client = new EpisodesClient(server.ingressUrl);
    const done = new Set<string>();
    while ((await finished()) < jobs.length) {
      checkTime(started, options);
      await sleep(200);
    }
    // Each episode's own output, as a client reads it.
    for (const job of jobs) if ((await client.state(job.sessionId, job.position)).state === 'done') done.add(job.id);
    const withState: JobWithState[] = jobs.map((job) => ({ ...job, status: done.has(job.id) ? 'done' : 'pending' }));
    const found = await report(options, { pool, events, workspace, kills, started, jobs: withState });
    return { ...found, serverKills, errors: [...crashes, ...found.errors] };
  } finally {
    // Replacements still starting would outlive the run.
    for (let waited = 0; starting > 0 && waited < 300; waited += 1) await sleep(100);
    for (const worker of workers) worker.process.kill('SIGKILL');
    await balancer?.close();
    await server?.stop();
    await pool.end();
    await rm(workspace, { recursive: true, force: true });
  }
}

async function report(
  options: RestateFaultOptions,
  run: { pool: pg.Pool; events: PoolEvents; workspace: string; kills: Kill[]; started: number; jobs: JobWithState[] },
): Promise<FaultReport> {
  const events = await run.events.all();
  const sorted = [...run.jobs].sort((a, b) => a.sessionId.localeCompare(b.sessionId) || a.position - b.position);
  const check = await verifyPool(new PostgresSessionStore({ pool: run.pool, schema: options.schema }), sorted);
  const takeoverTimes = run.kills.flatMap((kill) =>
    kill.jobs.map((job) => {
      const next = events.find((event) => event.jobId === job && event.startedMs !== null && event.startedMs > kill.at);
      return next?.startedMs ? next.startedMs - kill.at : 0;
    }),
  );
  const executions = (await readFile(join(run.workspace, 'executions.log'), 'utf8')).split('\n').filter(Boolean);
  const count = (kind: string) => events.filter((event) => event.kind === kind).length;
  return {
    workers: options.workers,
    sessions: check.sessions,
    episodes: check.episodes,
    kills: run.kills.length,
    takeovers: count('resumed'),
    finishedBeforeKill: 0,
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

/** Sends every job to its session, in order; a send refused while the server was down is sent again. */
async function sendAll(client: EpisodesClient, jobs: readonly Job[]): Promise<void> {
  for (const job of jobs) {
    const session = { persistReasoning: job.persistReasoning };
    const request = { sessionId: job.sessionId, episode: job.position, input: jobMessage(job), session };
    for (let tries = 0; ; tries += 1) {
      try {
        await client.send(request);
        break;
      } catch (error) {
        if (tries >= 200) throw error;
        await sleep(100);
      }
    }
  }
}

/** The pool's jobs (as fault-run.ts makes them), position by position. */
function jobsFor(options: RestateFaultOptions): Job[] {
  const jobs: Job[] = [];
  for (let position = 0; position < options.messagesPerSession; position += 1) {
    for (let session = 0; session < options.sessions; session += 1) {
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

function startWorker(config: RestateWorkerConfig): Promise<Worker> {
  const script = fileURLToPath(new URL('../dist/restate-worker.js', import.meta.url));
  const child = spawn(process.execPath, [script, JSON.stringify(config)], { stdio: ['pipe', 'pipe', 'pipe'] });
  const worker: Worker = { name: config.worker, port: config.port, process: child, jobs: new Set() };
  let output = '';
  let errors = '';
  child.stderr?.on('data', (chunk: Buffer) => (errors = (errors + chunk.toString()).slice(-4_000)));
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const lines = output.split('\n');
      output = lines.pop() ?? '';
      for (const line of lines) {
        if (line === 'ready') resolve(worker);
        else if (line.startsWith('start ')) worker.jobs.add(line.slice('start '.length));
        else if (line.startsWith('end ')) worker.jobs.delete(line.slice('end '.length));
      }
    });
    child.once('exit', (code, signal) => reject(new Error(`worker ${config.worker} exited (${code ?? signal}) before it was ready: ${errors}`)));
  });
}

async function writeWorkspace(workspace: string): Promise<void> {
  await mkdir(join(workspace, 'notes'), { recursive: true });
  await writeFile(join(workspace, 'README.md'), '# Pool workspace\n\nThe worker pool example reads this file.\n');
  await writeFile(join(workspace, 'notes', 'todo.md'), '- keep every episode whole\n');
  await writeFile(join(workspace, 'executions.log'), '');
}

function checkTime(started: number, options: RestateFaultOptions): void {
  if (Date.now() - started > options.timeoutMs) throw new Error(`the Restate pool did not finish within ${options.timeoutMs} ms`);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
