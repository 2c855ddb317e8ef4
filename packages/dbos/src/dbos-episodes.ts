/**
 * A session's episode as a DBOS workflow (id `<session>/<episode>`), on the
 * PostgreSQL the session store already uses. Each model call and each tool
 * execution is a checkpointed step (see dbos-runtime.ts); a workflow whose process
 * died is run again by a live worker, which replays the recorded steps and carries on.
 *
 * - One running workflow per session: episodes go through a partitioned DBOS queue
 *   (partition = session, one at a time per partition, lower episodes first), and the
 *   session store's lease keeps any second writer out.
 * - Approvals are durable waits: `approve()` from any process sends the decision, to
 *   a call the episode published as waiting (dbos-approvals.ts).
 * - Workers may launch together: DBOS's tables are migrated by one at a time (migrate-once.ts).
 * - Recovery across live workers: every process has its own executor id and a
 *   heartbeat row (executor-heartbeats.ts); a live worker that finds a silent
 *   executor hands its pending workflows back to the queue.
 *
 * DBOS is one per process: call {@link DbosEpisodes.launch} once.
 */
import { randomUUID } from 'node:crypto';
import { DBOS, type WorkflowQueue } from '@dbos-inc/dbos-sdk';
import {
  type Agent,
  type AgentEvent,
  type ApprovalDecision,
  DURABLE_APPROVALS_KEY,
  type DurableApproval,
  type EpisodeRequest,
  type EpisodeSummary,
  episodeKey,
  type PendingDurableApproval,
  SessionBusyError,
  SessionConflictError,
} from '@episodic/core';
import { claimNow } from './claim-now.js';
import { type DbosApprovalIo, type DbosApprovalTarget, decideApproval, pendingApprovals } from './dbos-approvals.js';
import { dbosRuntime } from './dbos-runtime.js';
import { migrateOnce } from './migrate-once.js';
import { withIdleTimeoutOption } from './system-database-url.js';
import { APPLICATION_VERSION, DEFAULT_QUEUE, EPISODE_WORKFLOW, FINISHED_EVENT } from './workflow-names.js';
import { ExecutorHeartbeats, type RecoveredExecutor } from './executor-heartbeats.js';

/** Options of {@link DbosEpisodes.launch}. */
export interface DbosEpisodesOptions {
  /** The agent that runs the episodes (its store is the canonical transcript). */
  agent: Agent;
  /** The PostgreSQL server for DBOS's system tables (the session store's server, usually). */
  databaseUrl: string;
  /** Schema of DBOS's tables. Default `dbos`. */
  schema?: string | undefined;
  /** This process's executor id; unique per process. Default a random one. */
  executorId?: string | undefined;
  /** Episodes this process runs at the same time. Default 4. */
  concurrency?: number | undefined;
  /** A process silent this long is dead, and its workflows go to live workers. Default 10,000 ms. */
  leaseMs?: number | undefined;
  /** The queue's name. Default `episodic-episodes`. */
  queueName?: string | undefined;
  /**
   * How often this process asks the queue for an episode to start, in ms: an episode
   * enqueued elsewhere (by an `EpisodesClient`, or behind a session's running one) waits
   * on average half of it before it runs, and each ask is one small query on the system
   * database. An episode this process starts with `start()` is claimed at once when the
   * process has room. Default 20 (DBOS's own default is 1,000).
   */
  queuePollMs?: number | undefined;
  /**
   * Told when this process starts and ends running an episode (a replay after a
   * takeover included), of each event of the run (see {@link DbosEpisodesObserver.event}),
   * and when it hands a dead process's workflows back to the queue.
   */
  observe?: DbosEpisodesObserver | undefined;
}

/** What {@link DbosEpisodesOptions.observe} is told. */
export interface DbosEpisodesObserver {
  /** This process starts running `request` (a replay after a takeover included). */
  start?(request: EpisodeRequest): void;
  /** That run ends (finished, failed, or paused on an approval and left to a later run). */
  end?(request: EpisodeRequest): void;
  /**
   * An event of the run (the events `session.send()` reports to `onEvent`: warnings,
   * deltas, tool calls and results, step and episode ends). At least once: a run that
   * replays a workflow after a takeover reports again the events of the steps it replays
   * from their records (a replayed model call's deltas and its adapter's warnings come
   * only from the run that made the call). Must not throw.
   */
  event?(request: EpisodeRequest, event: AgentEvent): void;
  /** This process handed a silent process's workflows back to the queue. */
  recovered?(recovered: RecoveredExecutor): void;
}

let running: Pick<DbosEpisodesOptions, 'agent' | 'observe'> | undefined;

/** The workflow: opens the session and runs (or replays) the episode on the DBOS runtime. */
async function runEpisodeWorkflow(request: EpisodeRequest): Promise<EpisodeSummary> {
  const agent = running?.agent;
  if (!agent) throw new Error('@episodic/dbos: DbosEpisodes.launch() was not called in this process');
  running?.observe?.start?.(request);
  try {
    const summary = await runEpisodeOnce(agent, request, running?.observe);
    // A waiter in any launched process is woken by this event at once (DBOS pushes
    // events by LISTEN/NOTIFY), where a workflow's result is only polled (each second).
    await DBOS.setEvent(FINISHED_EVENT, summary);
    return summary;
  } finally {
    running?.observe?.end?.(request);
  }
}

async function runEpisodeOnce(agent: Agent, request: EpisodeRequest, observe: DbosEpisodesObserver | undefined): Promise<EpisodeSummary> {
  const onEvent = observe?.event && ((event: AgentEvent) => observe.event?.(request, event));
  for (;;) {
    try {
      const session = await agent.session({ id: request.sessionId, ...request.session });
      const durable = { runtime: dbosRuntime(), episode: request.episode };
      const result = await session.send(request.input, { durable, ...(onEvent ? { onEvent } : {}) });
      const text = result.message?.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('') ?? '';
      return { status: result.status, reason: result.reason, text };
    } catch (error) {
      // Both come before the episode's first step: retrying consumes no checkpoint.
      if (error instanceof SessionBusyError) await pause(error.retryAfterMs ?? 100);
      else if (!(error instanceof SessionConflictError)) throw error;
    }
  }
}

const episodeWorkflow = DBOS.registerWorkflow(runEpisodeWorkflow, { name: EPISODE_WORKFLOW });

/** Episodes as DBOS workflows in this process (see the module comment). */
export class DbosEpisodes {
  private constructor(
    readonly executorId: string,
    private readonly queue: WorkflowQueue,
    private readonly concurrency: number,
    private readonly heartbeats: ExecutorHeartbeats,
  ) {}

  /** Configures and launches DBOS in this process, with the episode workflow and its queue. */
  static async launch(options: DbosEpisodesOptions): Promise<DbosEpisodes> {
    const executorId = options.executorId ?? `episodic-${randomUUID()}`;
    const schema = options.schema ?? 'dbos';
    const queueName = options.queueName ?? DEFAULT_QUEUE;
    const concurrency = options.concurrency ?? 4;
    running = { agent: options.agent, observe: options.observe };
    // Beating before DBOS takes any work: a process that dies holding a workflow always
    // has a row that goes silent, or none at all; either way the live ones take it over.
    const heartbeats = new ExecutorHeartbeats({
      databaseUrl: options.databaseUrl,
      schema,
      executorId,
      leaseMs: options.leaseMs ?? 10_000,
      queueName,
      onRecovered: options.observe?.recovered,
    });
    await heartbeats.start();
    const systemDatabaseUrl = withIdleTimeoutOption(options.databaseUrl);
    DBOS.setConfig({
      name: 'episodic',
      systemDatabaseUrl,
      systemDatabaseSchemaName: schema,
      executorID: executorId,
      applicationVersion: APPLICATION_VERSION,
      runAdminServer: false,
      logLevel: 'error',
      // Migrated just before, by one process at a time (migrate-once.ts).
      runMigrations: false,
    });
    let queue: WorkflowQueue;
    try {
      await migrateOnce(systemDatabaseUrl, schema);
      await DBOS.launch();
      queue = await DBOS.registerQueue(queueName, {
        partitionConcurrency: 1,
        workerConcurrency: concurrency,
        minPollingIntervalMs: options.queuePollMs ?? 20,
        onConflict: 'always_update',
      });
    } catch (error) {
      await heartbeats.stop();
      throw error;
    }
    heartbeats.startRecovering();
    return new DbosEpisodes(executorId, queue, concurrency, heartbeats);
  }

  /**
   * Enqueues an episode (once: a workflow id already started is not started again) and,
   * when this process has room, claims it at once rather than at the queue's next poll
   * (claim-now.ts); returns its workflow id.
   */
  async start(request: EpisodeRequest): Promise<string> {
    const workflowID = episodeKey(request.sessionId, request.episode);
    await DBOS.startWorkflow(episodeWorkflow, {
      workflowID,
      queueName: this.queue.name,
      enqueueOptions: { queuePartitionKey: request.sessionId, priority: request.episode + 1 },
    })(request);
    await claimNow(this.queue, this.concurrency);
    return workflowID;
  }

  /**
   * Waits for the episode to finish and returns its summary (its error, if it failed).
   * In a process that is not a worker, use {@link EpisodesClient.result} (it launches nothing).
   */
  async result(sessionId: string, episode: number): Promise<EpisodeSummary> {
    const workflowId = episodeKey(sessionId, episode);
    for (;;) {
      const summary = await DBOS.getEvent<EpisodeSummary>(workflowId, FINISHED_EVENT, { timeoutSeconds: 1 });
      if (summary !== null) return summary;
      // No event yet: a workflow that ended without one (it failed, or finished before
      // the event existed) has its outcome in its result; one still running is waited on.
      const status = await DBOS.getWorkflowStatus(workflowId);
      if (status && !['PENDING', 'ENQUEUED'].includes(status.status)) {
        return (await DBOS.retrieveWorkflow<EpisodeSummary>(workflowId).getResult()) as EpisodeSummary;
      }
    }
  }

  /** The calls the session's running episodes wait on (as {@link EpisodesClient.pending}). */
  pending(sessionId: string): Promise<PendingDurableApproval[]> {
    return pendingApprovals(launchedIo, sessionId);
  }

  /** Decides a call an episode waits on, from this worker (as {@link EpisodesClient.approve}, with the same checks). */
  approve(target: DbosApprovalTarget, decision: ApprovalDecision): Promise<void> {
    return decideApproval(launchedIo, target, decision);
  }

  /** Stops taking work and shuts DBOS down (running workflows are left to recovery). */
  async shutdown(): Promise<void> {
    // DBOS first: until it stops taking work, this process must keep its row.
    this.heartbeats.stopRecovering();
    await DBOS.shutdown();
    await this.heartbeats.stop();
    running = undefined;
  }
}

function pause(ms: number): Promise<void> {
  // A store's hint beyond setTimeout's range would otherwise fire at once.
  return new Promise((resolve) => setTimeout(resolve, Math.min(ms, 2 ** 31 - 1)));
}

/** Deciding approvals through the DBOS launched in this process. */
const launchedIo: DbosApprovalIo = {
  published: (workflowId) => DBOS.getEvent<DurableApproval[]>(workflowId, DURABLE_APPROVALS_KEY, 0),
  send: (workflowId, topic, message, idempotencyKey) => DBOS.send(workflowId, message, topic, idempotencyKey),
  running: async (sessionId) =>
    (await DBOS.listWorkflows({ workflowName: EPISODE_WORKFLOW, workflow_id_prefix: `${sessionId}/`, status: 'PENDING', loadInput: false, loadOutput: false }))
      .map((status) => status.workflowID),
};
