/**
 * Starting episodes and deciding approvals from any process, without launching
 * DBOS there (a web server, a CLI, the process that fills the queue): a thin layer
 * over `DBOSClient` that speaks in sessions and episodes.
 */
import { DBOSClient } from '@dbos-inc/dbos-sdk';
import { type ApprovalDecision, type EpisodeRequest, episodeKey, stepIds } from '@episodic/core';
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
  private constructor(
    private readonly client: DBOSClient,
    private readonly queueName: string,
  ) {}

  /** Connects to DBOS's tables (the workers create them at launch, or `DBOS.migrate`). */
  static async create(options: EpisodesClientOptions): Promise<EpisodesClient> {
    const client = await DBOSClient.create({ systemDatabaseUrl: options.databaseUrl, systemDatabaseSchemaName: options.schema ?? 'dbos' });
    return new EpisodesClient(client, options.queueName ?? DEFAULT_QUEUE);
  }

  /** Enqueues an episode for the workers (a workflow id already used is not run again); returns the workflow id. */
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
    return workflowID;
  }

  /** Decides a call an episode waits on (see `DbosEpisodes.approve`). */
  async approve(target: { sessionId: string; episode: number; callId: string }, decision: ApprovalDecision): Promise<void> {
    const topic = stepIds.approval(target.sessionId, target.callId);
    await this.client.send(episodeKey(target.sessionId, target.episode), { value: decision }, topic);
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
