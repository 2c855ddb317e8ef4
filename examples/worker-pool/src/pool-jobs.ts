/**
 * The pool's jobs on pg-boss: "send this user message to session S". The queue's
 * `key_strict_fifo` policy with the session id as `singletonKey` hands a session's
 * jobs out in order, one at a time (a job active or waiting to be retried holds back
 * the session's later jobs, never other sessions'); a job whose worker died expires
 * and is retried by another worker. The session's lease, not the job, is what keeps
 * two workers from running one session: a job that expired while its worker was
 * merely slow only costs the second worker a busy retry.
 */
import { PgBoss } from 'pg-boss';

/** One job as a worker gets it (the job's data). */
export interface Job {
  /** The pool's own id (`s<session>m<position>`): it goes into the user message, so it must be a word. */
  id: string;
  sessionId: string;
  position: number;
  text: string;
  persistReasoning: 'always' | 'current-episode';
}

/** A job with its state in pg-boss (`completed` when done). */
export type JobWithState = Job & { status: string };

/** The queue's name. */
export const POOL_QUEUE = 'episodic-pool';

/** pg-boss's own schema beside the pool's. */
export function bossSchema(schema: string): string {
  return `${schema}_boss`;
}

/** A pg-boss instance for the pool in `schema`; call `start()` before use. */
export function poolBoss(connectionString: string, schema: string): PgBoss {
  const boss = new PgBoss({
    connectionString,
    schema: bossSchema(schema),
    max: 3,
    // Expired jobs (their worker died) are found within a second of expiring.
    superviseIntervalSeconds: 1,
    monitorIntervalSeconds: 1,
  });
  // A dropped connection is retried by pg-boss; it must not end the process.
  boss.on('error', () => {});
  return boss;
}

/**
 * Creates the queue: `key_strict_fifo`, retried (almost) without limit, at once, and
 * expiring `leaseMs * 2` (at least a second) after a worker took the job, so a dead
 * worker's job goes to another worker about as soon as its session lease lapses.
 */
export async function createPoolQueue(boss: PgBoss, leaseMs: number): Promise<void> {
  await boss.createQueue(POOL_QUEUE, {
    policy: 'key_strict_fifo',
    retryLimit: 10_000,
    retryDelay: 0,
    expireInSeconds: Math.max(1, Math.ceil((2 * leaseMs) / 1000)),
  });
}

/**
 * Enqueues `jobs`; each session's jobs run in position order. pg-boss orders a key's
 * jobs by creation time (then by their random id), and one insert gives all its jobs
 * the same time: so each position goes in an insert of its own, after the one before.
 */
export async function enqueueJobs(boss: PgBoss, jobs: readonly Job[]): Promise<void> {
  const positions = [...new Set(jobs.map((job) => job.position))].sort((a, b) => a - b);
  for (const position of positions) {
    const batch = jobs.filter((job) => job.position === position);
    await boss.insert(POOL_QUEUE, batch.map((job) => ({ data: { ...job }, singletonKey: job.sessionId })));
  }
}

/** Every job with its state, by session and position. */
export async function allJobs(boss: PgBoss): Promise<JobWithState[]> {
  const found = await boss.findJobs<Job>(POOL_QUEUE, { limit: 100_000 });
  return found
    .map((job) => ({ ...job.data, status: job.state === 'completed' ? 'done' : job.state }))
    .sort((a, b) => a.sessionId.localeCompare(b.sessionId) || a.position - b.position);
}

/** Jobs not completed yet. */
export async function pendingCount(boss: PgBoss): Promise<number> {
  return (await allJobs(boss)).filter((job) => job.status !== 'done').length;
}
