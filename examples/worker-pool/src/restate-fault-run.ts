/**
 * The pool's fault run on Restate: `workers` endpoint processes behind a load
 * balancer, one Restate server (its npm binary), `sessions` x `messagesPerSession`
 * episodes sent to the session objects; then SIGKILLs at random moments until `kills`
 * have landed: each of a random worker in the middle of episodes (the standby worker
 * takes its place in the balancer at once, see worker-process.ts) or, one time in
 * `serverEvery`, of the Restate server itself (restarted on its data). A worker kill
 * lands when the dead worker left an episode unfinished (Restate had not completed
 * it); a server kill when an episode was running. The run fails when no episode
 * finished for `stallMs`, when one ends for good (failed or paused), or after
 * `timeoutMs`. Afterwards the invariants of verify-pool.ts are checked on the
 * session store, as for the pg-boss and DBOS pools.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PostgresSessionStore } from '@episodic/postgres';
import { EPISODE_WORKFLOW, EpisodesClient, episodeKey } from '@episodic/restate';
import { freePort, RestateServer } from '@episodic/restate/testing';
import pg from 'pg';
import type { FaultReport, FaultRunOptions } from './fault-run.js';
import { jobMessage } from './handle-job.js';
import type { WorkPhase } from './pool-agent.js';
import { PoolEvents } from './pool-events.js';
import type { Job, JobWithState } from './pool-jobs.js';
import { Balancer } from './restate-balancer.js';
import { verifyPool } from './verify-pool.js';
import { promote, type RunningWorker, startWorker, stopWorkers } from './worker-process.js';

/** A Restate run's options: the pool's, and how often a kill hits the server. */
export type RestateFaultOptions = Omit<FaultRunOptions, 'runtime'> & {
  /** One kill in this many is of the Restate server. Default 5. */
  serverEvery?: number;
};

/**
 * The pool's report, with the landed kills of the server counted apart. A worker runs
 * many episodes at once: `killsByPhase` counts each landed worker kill once, by where a
 * random one of the episodes it left unfinished was; `episodesKilledByPhase` counts them all.
 */
export type RestateFaultReport = FaultReport & { serverKills: number; episodesKilledByPhase: Record<WorkPhase, number> };

/** One SIGKILL: of a worker or the server, when, and the episodes it left unfinished with where each was. */
interface Kill {
  target: 'worker' | 'server';
  at: number;
  jobs: Map<string, WorkPhase>;
  /** The phase a worker kill was aimed at. */
  aim?: WorkPhase;
}

const PHASES: readonly WorkPhase[] = ['model', 'tool', 'between'];

/** Invocation states after which an episode never finishes (a paused one waits for an operator). */
const DEAD_ENDS = new Set(['paused']);

const WORKER_SCRIPT = fileURLToPath(new URL('../dist/restate-worker.js', import.meta.url));

/** Runs the scenario (see above) and returns its report; throws if the pool hangs or an episode fails for good. */
export async function runRestateFaultScenario(options: RestateFaultOptions): Promise<RestateFaultReport> {
  const started = Date.now();
  const log = options.log ?? (() => {});
  const pool = new pg.Pool({ connectionString: options.connectionString, max: 2 });
  const workspace = await mkdtemp(join(tmpdir(), 'episodic-restate-pool-'));
  const running = new Set<RunningWorker>();
  const spares: RunningWorker[] = [];
  const ports = new Map<RunningWorker, number>();
  let server: RestateServer | undefined;
  let balancer: Balancer | undefined;
  try {
    await pool.query(`DROP SCHEMA IF EXISTS "${options.schema}" CASCADE`);
    const events = new PoolEvents(pool, options.schema);
    await events.migrate();
    await new PostgresSessionStore({ pool, schema: options.schema }).migrate();
    await writeWorkspace(workspace);
    const [restate, front] = await Promise.all([RestateServer.start(), Balancer.start()]);
    server = restate;
    balancer = front;
    let count = 0;
    const crashes: string[] = [];
    const spare = async () => {
      count += 1;
      const name = `w${count}`;
      const port = await freePort();
      const config = { ...options, worker: name, workspace, port, standby: true };
      const worker = startWorker(WORKER_SCRIPT, config);
      worker.loaded.catch((error: Error) => crashes.push(error.message));
      ports.set(worker, port);
      spares.push(worker);
      return worker;
    };
    const promoteSpare = async () => {
      const worker = spares.shift() ?? (await spare());
      promote(worker);
      running.add(worker);
      front.add(ports.get(worker)!);
      void spare();
    };
    await Promise.all(Array.from({ length: options.workers + 1 }, async () => (await spare()).loaded));
    for (let index = 0; index < options.workers; index += 1) await promoteSpare();
    await until(() => [...running].every((worker) => worker.isReady) || crashes.length > 0, options.stallMs, 'the workers to start');
    if (crashes.length > 0) throw new Error(`a worker failed to start: ${crashes[0]}`);
    await restate.register(front.url);
    const jobs = jobsFor(options);
    const progress = progressWatch(restate, jobs, options, started);
    // Kills start while episodes are still being sent: a send the dead server refused is sent again (same idempotency key).
    let sending = true;
    const sent = sendAll(new EpisodesClient(restate.ingressUrl), jobs).finally(() => (sending = false));
    log(`${options.workers} workers ready; sending ${jobs.length} episodes`);
    const kills: Kill[] = [];
    const checks: Promise<void>[] = [];
    const serverEvery = options.serverEvery ?? 5;
    let turn = 0;
    let killsSent = 0;
    while (kills.length < options.kills && (sending || (await progress()).remaining > 0)) {
      const [low, high] = options.killGapMs;
      await sleep(low + Math.random() * (high - low));
      turn += 1;
      const landed = (kill: Kill | undefined) => {
        if (!kill) return;
        kills.push(kill);
        log(`kill ${kills.length}: ${kill.target} (${kill.jobs.size} episodes unfinished: ${[...kill.jobs.values()].join(' ')}) at ${kill.at - started} ms`);
      };
      // Whether a worker kill landed is known after a query; the next kill does not wait for it.
      const target = { running, restate, jobs, balancer: front, ports };
      const check = turn % serverEvery === 0 ? killServer(restate, running) : killWorker(target, promoteSpare);
      if (check) {
        killsSent += 1;
        checks.push(check.then(landed));
        if (turn % serverEvery === 0) await check;
      }
    }
    await Promise.all(checks);
    await sent;
    const serverKills = kills.filter((kill) => kill.target === 'server').length;
    log(`${kills.length} kills landed (${serverKills} of the server, ${killsSent} sent); waiting for the pool to finish`);
    while ((await progress()).remaining > 0) await sleep(200);
    await stopWorkers([...running, ...spares]);
    const client = new EpisodesClient(restate.ingressUrl);
    // Each episode's own output, as a client reads it.
    const done = new Set<string>();
    for (const job of jobs) if ((await client.state(job.sessionId, job.position)).state === 'done') done.add(job.id);
    const withState: JobWithState[] = jobs.map((job) => ({ ...job, status: done.has(job.id) ? 'done' : 'pending' }));
    const found = await report(options, { pool, events, workspace, kills, started, jobs: withState, killsSent });
    const episodesKilledByPhase = byPhase(kills.flatMap((kill) => [...kill.jobs.values()]));
    return { ...found, serverKills, episodesKilledByPhase, errors: [...crashes, ...found.errors] };
  } finally {
    for (const worker of [...running, ...spares]) worker.process.kill('SIGKILL');
    await balancer?.close();
    await server?.stop();
    await pool.end();
    await rm(workspace, { recursive: true, force: true });
  }
}

/** What {@link killWorker} works on. */
interface Pool {
  running: Set<RunningWorker>;
  restate: RestateServer;
  jobs: readonly Job[];
  balancer: Balancer;
  ports: Map<RunningWorker, number>;
}

/**
 * SIGKILLs a random worker in the middle of episodes and promotes the standby in its
 * place; undefined when no worker is busy (just after a server restart), else whether it landed.
 */
function killWorker(pool: Pool, replace: () => Promise<void>): Promise<Kill | undefined> | undefined {
  const busy = [...pool.running].filter((worker) => worker.isReady && worker.jobs.size > 0);
  // Aimed at a random phase when a worker has an episode in it: tools are a small part of an episode.
  const aim = PHASES[Math.floor(Math.random() * PHASES.length)]!;
  const aimed = busy.filter((worker) => [...worker.jobs.values()].includes(aim));
  const victims = aimed.length > 0 ? aimed : busy;
  const victim = victims[Math.floor(Math.random() * victims.length)];
  if (!victim) return undefined;
  const kill: Kill = { target: 'worker', jobs: new Map(victim.jobs), at: Date.now(), aim };
  const exited = new Promise((resolve) => victim.process.once('exit', resolve));
  pool.balancer.remove(pool.ports.get(victim)!);
  victim.process.kill('SIGKILL');
  pool.running.delete(victim);
  return (async () => {
    await replace();
    await exited;
    // Landed if Restate had not completed an episode the dead worker was running: another worker must take it over.
    const completed = await completedKeys(pool.restate);
    const keys = new Map(pool.jobs.map((job) => [job.id, episodeKey(job.sessionId, job.position)]));
    for (const job of kill.jobs.keys()) if (completed.has(keys.get(job) ?? job)) kill.jobs.delete(job);
    return kill.jobs.size > 0 ? kill : undefined;
  })();
}

/** SIGKILLs the Restate server and restarts it; the kill landed if an episode was running. */
function killServer(restate: RestateServer, running: Set<RunningWorker>): Promise<Kill | undefined> {
  const kill: Kill = { target: 'server', jobs: new Map([...running].flatMap((worker) => [...worker.jobs])), at: Date.now() };
  return restate.restart().then(() => (kill.jobs.size > 0 ? kill : undefined));
}

/** How many of `phases` are each phase. */
function byPhase(phases: readonly WorkPhase[]): Record<WorkPhase, number> {
  const count = (phase: WorkPhase) => phases.filter((each) => each === phase).length;
  return { model: count('model'), tool: count('tool'), between: count('between') };
}

/** The keys of the episode workflows Restate completed (asked again while the server restarts). */
async function completedKeys(restate: RestateServer): Promise<Set<string>> {
  const sql = `SELECT target_service_key AS key FROM sys_invocation WHERE target_service_name = '${EPISODE_WORKFLOW}' AND status = 'completed'`;
  for (let tries = 0; ; tries += 1) {
    try {
      return new Set((await restate.query<{ key: string }>(sql)).map((row) => row.key));
    } catch (error) {
      if (tries >= 300) throw error;
      await sleep(100);
    }
  }
}

/**
 * Counts the episodes not completed yet, and fails the run when one ended for good, when
 * none completed for `stallMs` (naming the unfinished ones), or after `timeoutMs` in all.
 * While the server restarts its tables cannot be read: the last count stands.
 */
function progressWatch(restate: RestateServer, jobs: readonly Job[], options: RestateFaultOptions, started: number) {
  let done = -1;
  let progressAt = Date.now();
  let unfinished = '';
  return async (): Promise<{ remaining: number }> => {
    const rows = await restate
      .query<{ key: string; status: string; result: string | null }>(
        `SELECT target_service_key AS key, status, completion_result AS result FROM sys_invocation WHERE target_service_name = '${EPISODE_WORKFLOW}'`,
      )
      .catch(() => undefined);
    const now = Date.now();
    if (rows) {
      const failed = rows.filter((row) => DEAD_ENDS.has(row.status) || (row.status === 'completed' && row.result === 'failure'));
      if (failed.length > 0) throw new Error(`episodes ended without finishing: ${failed.map((row) => `${row.key} ${row.status}`).join(', ')}`);
      const completed = rows.filter((row) => row.status === 'completed').length;
      unfinished = rows.filter((row) => row.status !== 'completed').slice(0, 10).map((row) => `${row.key} ${row.status}`).join(', ');
      if (completed > done) {
        done = completed;
        progressAt = now;
      }
    }
    if (now - progressAt > options.stallMs) throw new Error(`no episode finished for ${options.stallMs} ms (the pool hangs); unfinished: ${unfinished}`);
    if (now - started > options.timeoutMs) throw new Error(`the Restate pool did not finish within ${options.timeoutMs} ms; unfinished: ${unfinished}`);
    return { remaining: jobs.length - Math.max(done, 0) };
  };
}

async function report(
  options: RestateFaultOptions,
  run: { pool: pg.Pool; events: PoolEvents; workspace: string; kills: Kill[]; started: number; jobs: JobWithState[]; killsSent: number },
): Promise<FaultReport> {
  const events = await run.events.all();
  const sorted = [...run.jobs].sort((a, b) => a.sessionId.localeCompare(b.sessionId) || a.position - b.position);
  const check = await verifyPool(new PostgresSessionStore({ pool: run.pool, schema: options.schema }), sorted);
  const takeoverTimes = run.kills.flatMap((kill) =>
    [...kill.jobs.keys()].map((job) => {
      const next = events.find((event) => event.jobId === job && event.startedMs !== null && event.startedMs > kill.at);
      return next?.startedMs ? next.startedMs - kill.at : 0;
    }),
  );
  const executions = (await readFile(join(run.workspace, 'executions.log'), 'utf8')).split('\n').filter(Boolean);
  const count = (kind: string) => events.filter((event) => event.kind === kind).length;
  // Each worker kill once: where it was aimed if an episode it left unfinished was there, else where a random one was.
  const landedIn = run.kills.filter((kill) => kill.target === 'worker').map((kill) => {
    const phases = [...kill.jobs.values()];
    return kill.aim && phases.includes(kill.aim) ? kill.aim : phases[Math.floor(Math.random() * phases.length)]!;
  });
  return {
    workers: options.workers,
    sessions: check.sessions,
    episodes: check.episodes,
    kills: run.kills.length,
    killsSent: run.killsSent,
    killsByPhase: byPhase(landedIn),
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
