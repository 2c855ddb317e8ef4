/**
 * Recovery across live workers. DBOS recovers a process's pending workflows when a
 * process with the same executor id starts again; a pool whose processes come and go
 * under fresh ids needs the live ones to do it. Each process beats in a row of its
 * own every `leaseMs / 3`; each also deletes the rows of processes silent for
 * `leaseMs` (one delete wins each row) and hands the winner's catch back to the queue
 * through DBOS's recovery, so any live worker runs them, replaying their steps.
 */
import { DBOS } from '@dbos-inc/dbos-sdk';
import { DBOSExecutor } from '@dbos-inc/dbos-sdk/internal/dbos-executor';
import pg from 'pg';

/** Options of {@link ExecutorHeartbeats}. */
export interface HeartbeatOptions {
  databaseUrl: string;
  /** DBOS's schema; the heartbeat table sits beside its tables. */
  schema: string;
  executorId: string;
  leaseMs: number;
}

/** This process's heartbeat, and the search for silent ones (see the module comment). */
export class ExecutorHeartbeats {
  private readonly pool: pg.Pool;
  private readonly table: string;
  private timer: NodeJS.Timeout | undefined;
  private beating: Promise<void> = Promise.resolve();
  /** Executors whose workflows this process handed back, and when. */
  readonly recovered: { executorId: string; workflows: number; atMs: number }[] = [];

  constructor(private readonly options: HeartbeatOptions) {
    this.pool = new pg.Pool({ connectionString: options.databaseUrl, max: 1 });
    // A dropped idle connection is replaced at the next beat; it must not end the process.
    this.pool.on('error', () => {});
    this.table = `"${options.schema}".episodic_executors`;
  }

  /** Creates the table if missing, beats once, and keeps beating. */
  async start(): Promise<void> {
    await this.pool
      .query(`CREATE TABLE IF NOT EXISTS ${this.table} (executor_id text PRIMARY KEY, seen_at timestamptz NOT NULL)`)
      .catch((error: { code?: string }) => {
        // Workers launching together race on IF NOT EXISTS; the loser finds the table made (23505, 42P07).
        if (error.code !== '23505' && error.code !== '42P07') throw error;
      });
    await this.beat();
    this.timer = setInterval(() => {
      this.beating = this.beating.then(() => this.beat()).catch(() => {});
    }, Math.max(50, Math.floor(this.options.leaseMs / 3)));
  }

  /** Stops beating and removes this process's row (its workflows are then left alone until it is declared dead: none run). */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.beating;
    await this.pool.query(`DELETE FROM ${this.table} WHERE executor_id = $1`, [this.options.executorId]).catch(() => {});
    await this.pool.end();
  }

  private async beat(): Promise<void> {
    const { executorId, leaseMs } = this.options;
    await this.pool.query(
      `INSERT INTO ${this.table} (executor_id, seen_at) VALUES ($1, now()) ON CONFLICT (executor_id) DO UPDATE SET seen_at = now()`,
      [executorId],
    );
    const { rows } = await this.pool.query<{ executor_id: string }>(
      `DELETE FROM ${this.table} WHERE seen_at < now() - $1::int * interval '1 millisecond' AND executor_id <> $2 RETURNING executor_id`,
      [leaseMs, executorId],
    );
    const executor = DBOSExecutor.globalInstance;
    if (!executor) return;
    for (const { executor_id: dead } of rows) {
      const handles = await executor.recoverPendingWorkflows([dead]);
      // Ahead of every episode not yet started (theirs are 1 and up): a takeover should not queue behind them.
      for (const handle of handles) await DBOS.setWorkflowPriority(handle.workflowID, 0).catch(() => {});
      this.recovered.push({ executorId: dead, workflows: handles.length, atMs: Date.now() });
    }
  }
}
