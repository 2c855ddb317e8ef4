/**
 * What each attempt at a job did, recorded by the workers for the fault run's
 * report (takeovers, busy retries, takeover times). Not part of the queue.
 */
import type pg from 'pg';

/** What happened to a job in one attempt. */
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

/** The event table in `schema`. */
export class PoolEvents {
  private readonly table: string;

  constructor(
    private readonly pool: pg.Pool,
    private readonly schema: string,
  ) {
    this.table = `"${schema}".pool_events`;
  }

  /** Creates the table if missing. */
  async migrate(): Promise<void> {
    await this.pool.query(`CREATE SCHEMA IF NOT EXISTS "${this.schema}"`);
    await this.pool.query(`CREATE TABLE IF NOT EXISTS ${this.table} (
      job_id text NOT NULL, worker text NOT NULL, kind text NOT NULL, detail text,
      started_ms double precision, at_ms double precision NOT NULL)`);
  }

  async record(jobId: string, worker: string, kind: JobEventKind, detail?: string, startedMs?: number): Promise<void> {
    await this.pool.query(`INSERT INTO ${this.table} (job_id, worker, kind, detail, started_ms, at_ms) VALUES ($1, $2, $3, $4, $5, $6)`, [
      jobId,
      worker,
      kind,
      detail ?? null,
      startedMs ?? null,
      Date.now(),
    ]);
  }

  /** Every recorded event, oldest first. */
  async all(): Promise<JobEvent[]> {
    const { rows } = await this.pool.query<JobEvent>(
      `SELECT job_id AS "jobId", worker, kind, detail, started_ms AS "startedMs", at_ms AS "atMs" FROM ${this.table} ORDER BY at_ms`,
    );
    return rows;
  }
}
