/**
 * One worker process: claims jobs from the job table and runs them on the shared
 * session store until told to stop (SIGTERM ends it after the current job).
 * Prints `ready`, then `start <job>` and `end <job>` lines, so the fault run knows
 * which workers are in the middle of an episode.
 *
 *   node dist/worker.js '{"connectionString":"postgres://...","schema":"pool","worker":"w1",...}'
 */
import { SessionBusyError, SessionConflictError } from '@episodic/core';
import { PostgresSessionStore } from '@episodic/postgres';
import pg from 'pg';
import { handleJob } from './handle-job.js';
import { type Job, JobQueue } from './job-queue.js';
import { poolAgent } from './pool-agent.js';
import type { WorkerConfig } from './worker-config.js';

const config = JSON.parse(process.argv[2] ?? '{}') as WorkerConfig;
const pool = new pg.Pool({ connectionString: config.connectionString, max: 4 });
// An idle connection closed by the server must not end the worker; the pool reconnects.
pool.on('error', () => {});
const store = new PostgresSessionStore({ pool, schema: config.schema, leaseMs: config.leaseMs });
const queue = new JobQueue(pool, config.schema);
const agent = poolAgent({ ...config, store });
let stopping = false;
process.on('SIGTERM', () => {
  stopping = true;
});

async function runOne(job: Job): Promise<void> {
  // A failed renewal only lets the claim lapse: another worker then claims the job and finds the session busy.
  const renew = () => queue.renew(job, config.worker, config.leaseMs).catch(() => {});
  const renewal = setInterval(() => void renew(), config.leaseMs / 3);
  try {
    const outcome = await handleJob(agent, job);
    await queue.record(job, config.worker, outcome.kind, undefined, outcome.startedMs);
    await queue.complete(job);
  } catch (error) {
    if (error instanceof SessionBusyError) {
      await queue.record(job, config.worker, 'busy');
      await queue.retryLater(job, config.worker, Math.min(error.retryAfterMs ?? 100, config.leaseMs) + 20);
    } else if (error instanceof SessionConflictError) {
      await queue.record(job, config.worker, 'conflict', error.message);
      await queue.retryLater(job, config.worker, 0);
    } else {
      await queue.record(job, config.worker, 'error', error instanceof Error ? error.stack : String(error));
      await queue.retryLater(job, config.worker, 200);
    }
  } finally {
    clearInterval(renewal);
  }
}

process.stdout.write('ready\n');
while (!stopping) {
  const job = await queue.claim(config.worker, config.leaseMs);
  if (!job) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    continue;
  }
  process.stdout.write(`start ${job.id}\n`);
  await runOne(job);
  process.stdout.write(`end ${job.id}\n`);
}
await store.close();
await pool.end();
