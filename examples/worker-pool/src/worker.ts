/**
 * One worker process: takes jobs from the pg-boss queue and runs them on the shared
 * session store until told to stop (SIGTERM ends it after the current job).
 * Prints `ready`, then `start <job>`, `phase <model|tool|between> <job>` and `end <job>`
 * lines, so the fault run knows which workers are in the middle of an episode, and where.
 * Started as a standby (`"standby":true`), it waits for `go` on stdin first (standby.ts).
 *
 *   node dist/worker.js '{"connectionString":"postgres://...","schema":"pool","worker":"w1",...}'
 */
import { SessionBusyError, SessionConflictError } from '@episodic/core';
import { PostgresSessionStore } from '@episodic/postgres';
import pg from 'pg';
import { handleJob } from './handle-job.js';
import { PoolEvents } from './pool-events.js';
import { type Job, POOL_QUEUE, poolBoss } from './pool-jobs.js';
import { poolAgent } from './pool-agent.js';
import { phaseReporter, startReporter } from './phase-report.js';
import { awaitGo } from './standby.js';
import type { WorkerConfig } from './worker-config.js';

const config = JSON.parse(process.argv[2] ?? '{}') as WorkerConfig;
const pool = new pg.Pool({ connectionString: config.connectionString, max: 4 });
// An idle connection closed by the server must not end the worker; the pool reconnects.
pool.on('error', () => {});
const store = new PostgresSessionStore({ pool, schema: config.schema, leaseMs: config.leaseMs });
const events = new PoolEvents(pool, config.schema);
const agent = poolAgent({ ...config, store, onPhase: phaseReporter(config) });
const reportStart = startReporter(config);
const boss = poolBoss(config.connectionString, config.schema);
// Started before the standby waits: pg-boss's start takes seconds on a loaded machine, and a
// promoted standby should take jobs at once. Jobs are only fetched by the loop below.
await boss.start();
await awaitGo(config);

/** Runs one job; a failure is recorded and thrown, for the job to be retried (before the session's later ones). */
async function runOne(job: Job): Promise<void> {
  try {
    const outcome = await handleJob(agent, job);
    await events.record(job.id, config.worker, outcome.kind, undefined, outcome.startedMs);
  } catch (error) {
    if (error instanceof SessionBusyError) {
      await events.record(job.id, config.worker, 'busy');
      // Not before the dead writer's lease can have lapsed.
      await new Promise((resolve) => setTimeout(resolve, Math.min(error.retryAfterMs ?? 100, config.leaseMs)));
    } else if (error instanceof SessionConflictError) await events.record(job.id, config.worker, 'conflict', error.message);
    else await events.record(job.id, config.worker, 'error', error instanceof Error ? error.stack : String(error));
    throw error;
  }
}

let stopping = false;
process.on('SIGTERM', () => {
  stopping = true;
});
process.stdout.write('ready\n');
// Its own fetch loop rather than boss.work(): work() polls at most every 500 ms, and a
// session's next job becomes ready only when the one before completes.
while (!stopping) {
  const [job] = await boss.fetch<Job>(POOL_QUEUE, { batchSize: 1 });
  if (!job) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    continue;
  }
  reportStart(job.data.id);
  try {
    await runOne(job.data);
    await boss.complete(POOL_QUEUE, job.id);
  } catch (error) {
    // Back in the queue (state `retry`), still ahead of the session's later jobs.
    await boss.fail(POOL_QUEUE, job.id, { message: error instanceof Error ? error.message : String(error) });
  }
  process.stdout.write(`end ${job.data.id}\n`);
}
await boss.stop({ graceful: true, timeout: 10_000 });
await store.close();
await pool.end();
