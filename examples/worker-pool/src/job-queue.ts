/**
 * A job table on PostgreSQL: "send this user message to session S". Jobs of one
 * session are handed out in order, one at a time (a job waits until the ones
 * before it are done); a claim lapses unless its worker renews it, so a dead
 * worker's job goes to another worker. The session's lease, not the claim, is what
 * keeps two workers from running one session: a claim that lapsed while its worker
 * was merely slow only costs the second worker a busy retry.
 */
import type pg from 'pg';

/** One job as a worker gets it. */
export interface Job {
  id: string;
  sessionId: string;
  position: number;
  text: string;
  persistReasoning: 'always' | 'current-episode';
  attempts: number;
}

interface JobRow {
  id: string;
  session_id: string;
  position: number;
  text: string;
  persist_reasoning: string;
  attempts: number;
}

const jobColumns = 'id::text, session_id, position, text, persist_reasoning, attempts';

function jobOfRow(row: JobRow): Job {
  const persistReasoning = row.persist_reasoning === 'current-episode' ? 'current-episode' : 'always';
  return { id: row.id, sessionId: row.session_id, position: row.position, text: row.text, persistReasoning, attempts: row.attempts };
}

/** What happened to a job in one attempt, as recorded in `pool_events`. */
export type JobEventKind = 'sent' | 'resumed' | 'already-finished' | 'busy' | 'conflict' | 'error';

/** One recorded attempt: which worker, what happened, when its episode started (if it did). */
export interface JobEvent {
  jobId: string;
  worker: string;
  kind: JobEventKind;
  detail: string | null;
  startedMs: number | null;
  atMs: number;
}

/** A job to enqueue. */
export type NewJob = Omit<Job, 'id' | 'attempts'>;

/** The job and event tables in `schema`. */
export class JobQueue {
  private readonly jobs: string;
  private readonly events: string;

  constructor(
    private readonly pool: pg.Pool,
    private readonly schema: string,
  ) {
    this.jobs = `"${schema}".pool_jobs`;
    this.events = `"${schema}".pool_events`;
  }

  /** Creates the tables if missing. */
  async migrate(): Promise<void> {
    await this.pool.query(`CREATE SCHEMA IF NOT EXISTS "${this.schema}"`);
    await this.pool.query(`CREATE TABLE IF NOT EXISTS ${this.jobs} (
      id bigserial PRIMARY KEY,
      session_id text NOT NULL,
      position integer NOT NULL,
      text text NOT NULL,
      persist_reasoning text NOT NULL,
      status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'done')),
      attempts integer NOT NULL DEFAULT 0,
      claimed_by text,
      claimed_until timestamptz,
      available_at timestamptz NOT NULL DEFAULT now(),
      finished_at timestamptz,
      UNIQUE (session_id, position))`);
    await this.pool.query(`CREATE TABLE IF NOT EXISTS ${this.events} (
      job_id bigint NOT NULL, worker text NOT NULL, kind text NOT NULL, detail text,
      started_ms double precision, at_ms double precision NOT NULL)`);
  }

  async enqueue(jobs: readonly NewJob[]): Promise<void> {
    await this.pool.query(
      `INSERT INTO ${this.jobs} (session_id, position, text, persist_reasoning)
       SELECT j->>'sessionId', (j->>'position')::int, j->>'text', j->>'persistReasoning' FROM json_array_elements($1::json) AS j`,
      [JSON.stringify(jobs)],
    );
  }

  /**
   * The first job (in the order enqueued) that is available and whose session has
   * no earlier job pending, claimed for `claimMs`; or undefined. A job put back for
   * later keeps its place, so a takeover is not queued behind every newer job.
   */
  async claim(worker: string, claimMs: number): Promise<Job | undefined> {
    const { rows } = await this.pool.query<JobRow>(
      `UPDATE ${this.jobs} SET claimed_by = $1, claimed_until = now() + $2::int * interval '1 millisecond', attempts = attempts + 1
        WHERE id = (
          SELECT j.id FROM ${this.jobs} j
           WHERE j.status = 'pending' AND j.available_at <= now() AND (j.claimed_until IS NULL OR j.claimed_until < now())
             AND NOT EXISTS (SELECT 1 FROM ${this.jobs} e
                              WHERE e.session_id = j.session_id AND e.position < j.position AND e.status <> 'done')
           ORDER BY j.id
           LIMIT 1 FOR UPDATE SKIP LOCKED)
        RETURNING ${jobColumns}`,
      [worker, claimMs],
    );
    return rows[0] && jobOfRow(rows[0]);
  }

  /** Keeps a claim alive while its worker runs the job. */
  async renew(job: Job, worker: string, claimMs: number): Promise<void> {
    await this.pool.query(
      `UPDATE ${this.jobs} SET claimed_until = now() + $3::int * interval '1 millisecond' WHERE id = $1 AND claimed_by = $2`,
      [job.id, worker, claimMs],
    );
  }

  async complete(job: Job): Promise<void> {
    await this.pool.query(
      `UPDATE ${this.jobs} SET status = 'done', finished_at = now(), claimed_by = NULL, claimed_until = NULL WHERE id = $1`,
      [job.id],
    );
  }

  /** Gives the job back, available again after `delayMs`. */
  async retryLater(job: Job, worker: string, delayMs: number): Promise<void> {
    await this.pool.query(
      `UPDATE ${this.jobs} SET claimed_by = NULL, claimed_until = NULL, available_at = now() + $3::int * interval '1 millisecond'
        WHERE id = $1 AND claimed_by = $2`,
      [job.id, worker, Math.max(0, Math.round(delayMs))],
    );
  }

  async record(job: Job, worker: string, kind: JobEventKind, detail?: string, startedMs?: number): Promise<void> {
    await this.pool.query(`INSERT INTO ${this.events} (job_id, worker, kind, detail, started_ms, at_ms) VALUES ($1, $2, $3, $4, $5, $6)`, [
      job.id,
      worker,
      kind,
      detail ?? null,
      startedMs ?? null,
      Date.now(),
    ]);
  }

  async pendingCount(): Promise<number> {
    const { rows } = await this.pool.query<{ count: number }>(`SELECT count(*)::int AS count FROM ${this.jobs} WHERE status = 'pending'`);
    return rows[0]?.count ?? 0;
  }

  /** Every job, by session and position. */
  async allJobs(): Promise<(Job & { status: string })[]> {
    const { rows } = await this.pool.query<JobRow & { status: string }>(
      `SELECT ${jobColumns}, status FROM ${this.jobs} ORDER BY session_id, position`,
    );
    return rows.map((row) => ({ ...jobOfRow(row), status: row.status }));
  }

  /** Every recorded event, oldest first. */
  async allEvents(): Promise<JobEvent[]> {
    const { rows } = await this.pool.query<JobEvent>(
      `SELECT job_id::text AS "jobId", worker, kind, detail, started_ms AS "startedMs", at_ms AS "atMs"
         FROM ${this.events} ORDER BY at_ms`,
    );
    return rows;
  }
}
