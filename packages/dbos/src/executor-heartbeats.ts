/**
 * Recovery across live workers. DBOS recovers a process's pending workflows when a
 * process with the same executor id starts again; a pool whose processes come and go
 * under fresh ids needs the live ones to do it. Each process beats in a row of its
 * own every `leaseMs / 3`, from before it can take any work. As often, it looks for
 * executors that hold running (PENDING) workflows of the queue but have no row seen
 * within `leaseMs`, and hands their workflows back to the queue through DBOS's
 * recovery, so any live worker runs them, replaying their steps.
 *
 * The dead are found from the workflows they hold, never from a row that one process
 * removes: a process killed half-way through a takeover (or one that died before its
 * first beat) leaves the workflows PENDING under a silent executor, and the next beat
 * of any live process finds them again. Handing back is idempotent: it moves only
 * workflows still PENDING under the dead executor's id, so two live processes that
 * find the same executor at once do not both move a workflow another has since taken.
 * A row is deleted only when it is silent and its executor holds nothing.
 */
import { DBOS } from '@dbos-inc/dbos-sdk';
import { DBOSExecutor } from '@dbos-inc/dbos-sdk/internal/dbos-executor';
import pg from 'pg';

/** Options of {@link ExecutorHeartbeats}. */
export interface HeartbeatOptions {
  /** The PostgreSQL server of DBOS's system tables. */
  databaseUrl: string;
  /** DBOS's schema; the heartbeat table sits beside its tables. */
  schema: string;
  /** This process's executor id (DBOS's `executorID`). */
  executorId: string;
  /** A process silent this long is dead. */
  leaseMs: number;
  /** The queue whose running workflows are looked after: an executor holding one and silent is dead. */
  queueName: string;
  /** Told of every handover, after DBOS has put the workflows back on the queue. */
  onRecovered?(recovered: RecoveredExecutor): void;
}

/** One dead executor whose workflows this process handed back. */
export interface RecoveredExecutor {
  /** The dead executor. */
  executorId: string;
  /** Ids of the workflows put back on the queue. */
  workflowIds: string[];
  /** When they were handed back (this process's clock). */
  atMs: number;
}

/** This process's heartbeat, and the search for silent executors (see the module comment). */
export class ExecutorHeartbeats {
  private readonly pool: pg.Pool;
  private readonly table: string;
  private timers: NodeJS.Timeout[] = [];
  private readonly inFlight = new Set<Promise<void>>();
  private recovering = false;
  /** Executors whose workflows this process handed back, and when. */
  readonly recovered: RecoveredExecutor[] = [];

  constructor(private readonly options: HeartbeatOptions) {
    this.pool = new pg.Pool({ connectionString: options.databaseUrl, max: 2 });
    // A dropped idle connection is replaced at the next beat; it must not end the process.
    this.pool.on('error', () => {});
    this.table = `"${options.schema}".episodic_executors`;
  }

  /**
   * Creates the table if missing, beats once, and keeps beating. Call it before DBOS
   * takes work in this process: an executor that holds a workflow and has no row is dead.
   */
  async start(): Promise<void> {
    await this.createTable();
    await this.beat();
    const every = Math.max(50, Math.floor(this.options.leaseMs / 3));
    // The beat and the search run apart, each skipping a tick while its last one is still
    // running: on a loaded server a slow search must not hold the beat back (the process
    // would look dead), nor may late ticks pile up behind each other.
    this.timers = [this.every(every, () => this.beat()), this.every(every, () => this.recoverSilent())];
  }

  /** From the next search on, hands the workflows of silent executors back (DBOS must be launched). */
  startRecovering(): void {
    this.recovering = true;
  }

  /** Stops handing workflows back (before DBOS shuts down in this process); the beats go on. */
  stopRecovering(): void {
    this.recovering = false;
  }

  /** Stops beating and removes this process's row (its workflows are then handed back at the next beat of a live one). */
  async stop(): Promise<void> {
    for (const timer of this.timers) clearInterval(timer);
    this.recovering = false;
    await Promise.all(this.inFlight);
    await this.pool.query(`DELETE FROM ${this.table} WHERE executor_id = $1`, [this.options.executorId]).catch(() => {});
    await this.pool.end();
  }

  private async createTable(): Promise<void> {
    for (const statement of [
      `CREATE SCHEMA IF NOT EXISTS "${this.options.schema}"`,
      `CREATE TABLE IF NOT EXISTS ${this.table} (executor_id text PRIMARY KEY, seen_at timestamptz NOT NULL)`,
    ]) {
      await this.pool.query(statement).catch((error: { code?: string }) => {
        // Workers launching together race on IF NOT EXISTS; the loser finds it made (23505, 42P06, 42P07, or 42710: the table's row type).
        if (!['23505', '42P06', '42P07', '42710'].includes(error.code ?? '')) throw error;
      });
    }
  }

  /** Runs `task` every `ms`, skipping a tick while the last run is still going; a failed run waits for the next tick. */
  private every(ms: number, task: () => Promise<void>): NodeJS.Timeout {
    let running: Promise<void> | undefined;
    return setInterval(() => {
      if (running) return;
      running = task()
        .catch(() => {})
        .finally(() => {
          this.inFlight.delete(running!);
          running = undefined;
        });
      this.inFlight.add(running);
    }, ms);
  }

  private async beat(): Promise<void> {
    await this.pool.query(
      `INSERT INTO ${this.table} (executor_id, seen_at) VALUES ($1, now()) ON CONFLICT (executor_id) DO UPDATE SET seen_at = now()`,
      [this.options.executorId],
    );
  }

  /** Hands the workflows of silent executors back to the queue, then forgets silent rows that hold nothing. */
  private async recoverSilent(): Promise<void> {
    const executor = DBOSExecutor.globalInstance;
    if (!this.recovering || !executor) return;
    for (const dead of await this.silentExecutors()) {
      const handles = await executor.recoverPendingWorkflows([dead]);
      if (handles.length === 0) continue;
      // Ahead of the session's episodes not yet started (theirs are 1 and up).
      for (const handle of handles) await DBOS.setWorkflowPriority(handle.workflowID, 0).catch(() => {});
      const recovered = { executorId: dead, workflowIds: handles.map((handle) => handle.workflowID), atMs: Date.now() };
      this.recovered.push(recovered);
      this.options.onRecovered?.(recovered);
    }
    await this.pool.query(
      `DELETE FROM ${this.table} AS e WHERE e.seen_at < now() - $1::int * interval '1 millisecond' AND e.executor_id <> $2
         AND NOT EXISTS (SELECT 1 FROM "${this.options.schema}".workflow_status AS w WHERE w.status = 'PENDING' AND w.executor_id = e.executor_id)`,
      [this.options.leaseMs, this.options.executorId],
    );
  }

  /** Executors other than this one that hold a running workflow of the queue and have no row seen within the lease. */
  private async silentExecutors(): Promise<string[]> {
    const { rows } = await this.pool.query<{ executor_id: string }>(
      `SELECT DISTINCT w.executor_id FROM "${this.options.schema}".workflow_status AS w
        WHERE w.status = 'PENDING' AND w.queue_name = $1 AND w.executor_id <> $2
          AND NOT EXISTS (SELECT 1 FROM ${this.table} AS e
                           WHERE e.executor_id = w.executor_id AND e.seen_at >= now() - $3::int * interval '1 millisecond')`,
      [this.options.queueName, this.options.executorId, this.options.leaseMs],
    );
    return rows.map((row) => row.executor_id);
  }
}
