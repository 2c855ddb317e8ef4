/**
 * The pool's fault run on Restate: `workers` endpoint processes behind a load
 * balancer, one Restate server (its npm binary), `sessions` x `messagesPerSession`
 * episodes sent to the session objects; then SIGKILLs until `kills` have landed
 * (fault-kills.ts): each of a worker in the middle of episodes, aimed at model calls,
 * tools and between steps in turn (the standby worker takes its place in the balancer
 * at once, see worker-process.ts) or, one time in `serverEvery`, of the Restate
 * server itself (restarted on its data). A worker kill
 * lands when the dead worker left an episode unfinished (Restate had not completed
 * it); a server kill when an episode was running. The run fails when no episode
 * finished for `stallMs`, when one ends for good (failed or paused), or after
 * `timeoutMs`. Afterwards the invariants of verify-pool.ts are checked on the
 * session store and the report built, as for the pg-boss and DBOS pools (fault-report.ts).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PostgresSessionStore } from '@episodic/postgres';
import { EPISODE_WORKFLOW, EpisodesClient, episodeKey } from '@episodic/restate';
import { freePort, RestateServer } from '@episodic/restate/testing';
import pg from 'pg';
import { aimOf, chooseVictim, killUntilLanded, killWorker, sleep, until } from './fault-kills.js';
import { buildFaultReport, type FaultReport, type Kill, jobsFor, writeWorkspace } from './fault-report.js';
import type { FaultRunOptions } from './fault-sizes.js';
import { jobMessage } from './handle-job.js';
import { PoolEvents } from './pool-events.js';
import type { Job, JobWithState } from './pool-jobs.js';
import { Balancer } from './restate-balancer.js';
import { promote, type RunningWorker, sparesFor, startWorker, stopWorkers, takeSpare } from './worker-process.js';

/** A Restate run's options: the pool's, and how often a kill hits the server. */
export type RestateFaultOptions = Omit<FaultRunOptions, 'runtime'> & {
  /** One kill in this many is of the Restate server. Default 5. */
  serverEvery?: number;
};

/** Invocation states after which an episode never finishes (a paused one waits for an operator). */
const DEAD_ENDS = new Set(['paused']);

const WORKER_SCRIPT = fileURLToPath(new URL('../dist/restate-worker.js', import.meta.url));

/** Runs the scenario (see above) and returns its report; throws if the pool hangs or an episode fails for good. */
export async function runRestateFaultScenario(options: RestateFaultOptions): Promise<FaultReport> {
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
      const worker = takeSpare(spares) ?? (await spare());
      promote(worker);
      running.add(worker);
      front.add(ports.get(worker)!);
      void spare();
    };
    await Promise.all(Array.from({ length: options.workers + sparesFor(options.workers) }, async () => (await spare()).loaded));
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
    const serverEvery = options.serverEvery ?? 5;
    // Landed if Restate had not completed an episode the dead worker was running: another worker must take it over.
    const keys = new Map(jobs.map((job) => [job.id, episodeKey(job.sessionId, job.position)]));
    const unfinished = async (ids: readonly string[]) => {
      const completed = await completedKeys(restate);
      return new Set(ids.filter((id) => !completed.has(keys.get(id) ?? id)));
    };
    const killed = await killUntilLanded({
      ...options,
      working: async () => sending || (await progress()).remaining > 0,
      async killOnce(turn) {
        if (turn % serverEvery === 0) return { landed: killServer(restate, running), wait: true };
        const aim = aimOf(turn);
        // Longer than the pool's wait: Restate's episodes spend most of their time in model calls and journal round trips.
        const victim = await chooseVictim(running, aim, 2_000);
        if (!victim) return undefined;
        front.remove(ports.get(victim)!);
        const landed = killWorker(victim, aim, unfinished);
        running.delete(victim);
        await promoteSpare();
        return { landed };
      },
    });
    await sent;
    const serverKills = killed.kills.filter((kill) => kill.target === 'server').length;
    log(`${killed.kills.length} kills landed (${serverKills} of the server, ${killed.sent} sent); waiting for the pool to finish`);
    while ((await progress()).remaining > 0) await sleep(200);
    await stopWorkers([...running, ...spares]);
    const client = new EpisodesClient(restate.ingressUrl);
    // Each episode's own output, as a client reads it.
    const done = new Set<string>();
    for (const job of jobs) if ((await client.state(job.sessionId, job.position)).state === 'done') done.add(job.id);
    const withState: JobWithState[] = jobs.map((job) => ({ ...job, status: done.has(job.id) ? 'done' : 'pending' }));
    const record = { pool, events, workspace, kills: killed.kills, killsSent: killed.sent, jobs: withState, started };
    const found = await buildFaultReport(options, record);
    return { ...found, errors: [...crashes, ...found.errors] };
  } finally {
    for (const worker of [...running, ...spares]) worker.process.kill('SIGKILL');
    await balancer?.close();
    await server?.stop();
    await pool.end();
    await rm(workspace, { recursive: true, force: true });
  }
}

/** SIGKILLs the Restate server and restarts it; the kill landed if an episode was running. */
async function killServer(restate: RestateServer, running: Set<RunningWorker>): Promise<Kill | undefined> {
  const kill: Kill = { target: 'server', jobs: new Map([...running].flatMap((worker) => [...worker.jobs])), at: Date.now() };
  await restate.restart();
  return kill.jobs.size > 0 ? kill : undefined;
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
