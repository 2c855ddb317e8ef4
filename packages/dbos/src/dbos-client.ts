/**
 * Starting episodes, listing and deciding approvals, and getting results from any
 * process, without launching DBOS there (a web server, a CLI, the process that fills
 * the queue): a thin layer over `DBOSClient` that speaks in sessions and episodes.
 */
import { DBOSClient } from '@dbos-inc/dbos-sdk';
import {
  type ApprovalDecision,
  DURABLE_APPROVALS_KEY,
  type DurableApproval,
  type EpisodeRequest,
  type EpisodeSummary,
  episodeKey,
  InvalidArgumentError,
  type PendingDurableApproval,
} from '@episodic/core';
import { type DbosApprovalIo, type DbosApprovalTarget, decideApproval, pendingApprovals } from './dbos-approvals.js';
import { episodeOutcome, type EpisodeState } from './episode-state.js';
import { withIdleTimeoutOption } from './system-database-url.js';
import { APPLICATION_VERSION, DEFAULT_QUEUE, EPISODE_WORKFLOW } from './workflow-names.js';

/** Options of {@link EpisodesClient.create}. */
export interface EpisodesClientOptions {
  databaseUrl: string;
  /** DBOS's schema, as the workers use it. Default `dbos`. */
  schema?: string | undefined;
  /** The workers' queue. Default `episodic-episodes`. */
  queueName?: string | undefined;
}

/** The state of one episode's workflow (DBOS's status: ENQUEUED, PENDING, SUCCESS, ERROR, ...). */
export interface EpisodeStatus {
  workflowId: string;
  status: string;
  executorId: string | undefined;
}

/** See the module comment. */
export class EpisodesClient {
  private readonly io: DbosApprovalIo;

  private constructor(
    private readonly client: DBOSClient,
    private readonly queueName: string,
  ) {
    this.io = {
      published: (workflowId) => client.getEvent<DurableApproval[]>(workflowId, DURABLE_APPROVALS_KEY, 0),
      send: (workflowId, topic, message, idempotencyKey) => client.send(workflowId, message, topic, idempotencyKey),
      running: async (sessionId) =>
        (await client.listWorkflows({ workflowName: EPISODE_WORKFLOW, workflow_id_prefix: `${sessionId}/`, status: 'PENDING', loadInput: false, loadOutput: false }))
          .map((status) => status.workflowID),
    };
  }

  /** Connects to DBOS's tables (the workers create them at launch, or `DBOS.migrate`). */
  static async create(options: EpisodesClientOptions): Promise<EpisodesClient> {
    const client = await DBOSClient.create({
      systemDatabaseUrl: withIdleTimeoutOption(options.databaseUrl),
      systemDatabaseSchemaName: options.schema ?? 'dbos',
    });
    return new EpisodesClient(client, options.queueName ?? DEFAULT_QUEUE);
  }

  /**
   * Enqueues an episode for the workers; returns the workflow id. The episode number is
   * the idempotency key: starting it again with the same input changes nothing, with
   * another input throws an `InvalidArgumentError` (the input would otherwise be dropped).
   */
  async start(request: EpisodeRequest): Promise<string> {
    const workflowID = episodeKey(request.sessionId, request.episode);
    await this.client.enqueue(
      {
        workflowName: EPISODE_WORKFLOW,
        queueName: this.queueName,
        workflowID,
        appVersion: APPLICATION_VERSION,
        queuePartitionKey: request.sessionId,
        // Within a session, lower episodes first (episodes enqueued in the same millisecond included).
        priority: request.episode + 1,
      },
      request,
    );
    const started = (await this.client.getWorkflow(workflowID))?.input?.[0] as EpisodeRequest | undefined;
    if (started && started.input !== request.input) {
      throw new InvalidArgumentError(
        `episode ${request.episode} of session "${request.sessionId}" was already started with another input; ` +
          'start the next episode with the next number (the session\'s episode count).',
      );
    }
    return workflowID;
  }

  /** The calls the session's running episodes wait on (tool, arguments, episode): what `approve()` decides. */
  pending(sessionId: string): Promise<PendingDurableApproval[]> {
    return pendingApprovals(this.io, sessionId);
  }

  /**
   * Decides a call an episode waits on. Only a call that waits can be decided: a
   * decision that is not valid throws an `InvalidArgumentError`, one for a call that
   * does not wait (not yet proposed, or unknown) a `DurableApprovalError`
   * (`approval_not_pending`), both before anything is sent. Safe to retry: deciding
   * again the same way succeeds, another way throws `approval_decided_otherwise`.
   */
  approve(target: DbosApprovalTarget, decision: ApprovalDecision): Promise<void> {
    return decideApproval(this.io, target, decision);
  }

  /** Waits for the episode to finish and returns its summary (throws when its workflow failed). */
  async result(sessionId: string, episode: number): Promise<EpisodeSummary> {
    return (await this.client.retrieveWorkflow<EpisodeSummary>(episodeKey(sessionId, episode)).getResult()) as EpisodeSummary;
  }

  /** Whether the episode finished, without waiting (throws when its workflow failed). */
  async state(sessionId: string, episode: number): Promise<EpisodeState> {
    return episodeOutcome(episodeKey(sessionId, episode), await this.client.getWorkflow(episodeKey(sessionId, episode)));
  }

  /** The status of every episode workflow on the queue. */
  async statuses(): Promise<EpisodeStatus[]> {
    const found = await this.client.listWorkflows({ workflowName: EPISODE_WORKFLOW, loadInput: false, loadOutput: false });
    return found.map((status) => ({ workflowId: status.workflowID, status: status.status, executorId: status.executorId }));
  }

  async close(): Promise<void> {
    await this.client.destroy();
  }
}
