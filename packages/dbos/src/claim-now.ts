/**
 * Starting an episode enqueued by a worker without waiting for the queue's next poll.
 * DBOS starts queued workflows only when it polls the queue (every `queuePollMs`), so
 * an episode a worker enqueues waits half that on average before it runs. Right after
 * enqueueing, the worker claims the queue's startable workflows itself, with the claim
 * DBOS's own poll makes (one transaction: the head of each partition with nothing
 * running, in priority order, marked running under this executor), and runs what it
 * claimed. The guarantees are the poll's: one running workflow per session, episodes in
 * order. A poll of DBOS's running at the same moment counts the workers' running
 * workflows before either has started its claim, so each claim here takes at most one
 * workflow: together they start at most one more than the worker's concurrency.
 *
 * This uses DBOS internals (the queue runner's claim and dispatch); where they are
 * missing (another DBOS version), nothing is claimed here and the poll starts the episode.
 */
import { randomUUID } from 'node:crypto';
import type { WorkflowQueue } from '@dbos-inc/dbos-sdk';
import { DBOSExecutor } from '@dbos-inc/dbos-sdk/internal/dbos-executor';
import { globalParams } from '@dbos-inc/dbos-sdk/internal/utils';

/** What the claim needs of DBOS's executor and system database (checked at run time). */
interface Claimer {
  executorID: string;
  dispatchDequeuedWorkflows(workflowIds: string[], ownerXid: string): Promise<void>;
  systemDatabase: {
    countRunningWorkflowsForQueue(queueName: string): number;
    findAndMarkStartablePartitionedWorkflows(
      queue: WorkflowQueue,
      executorId: string,
      appVersion: string,
      maxTasks: number,
      ownerXid: string,
    ): Promise<string[]>;
  };
}

/** The executor, when it has what the claim needs. */
function claimer(): Claimer | undefined {
  const executor = DBOSExecutor.globalInstance as unknown as Partial<Claimer> | undefined;
  const database = executor?.systemDatabase as Partial<Claimer['systemDatabase']> | undefined;
  const usable =
    typeof executor?.dispatchDequeuedWorkflows === 'function' &&
    typeof database?.countRunningWorkflowsForQueue === 'function' &&
    typeof database?.findAndMarkStartablePartitionedWorkflows === 'function';
  return usable ? (executor as Claimer) : undefined;
}

/**
 * Claims and starts at most one startable workflow of `queue` in this process, when it
 * runs fewer than `concurrency`. Best effort: a failure (a peer claiming the same rows)
 * leaves the workflow to the next poll. Resolves once the claimed workflow has started.
 */
export async function claimNow(queue: WorkflowQueue, concurrency: number): Promise<void> {
  const executor = claimer();
  if (!executor || typeof globalParams.appVersion !== 'string') return;
  const database = executor.systemDatabase;
  if (database.countRunningWorkflowsForQueue(queue.name) >= concurrency) return;
  const ownerXid = randomUUID();
  try {
    const { appVersion } = globalParams;
    const claimed = await database.findAndMarkStartablePartitionedWorkflows(queue, executor.executorID, appVersion, 1, ownerXid);
    await executor.dispatchDequeuedWorkflows(claimed, ownerXid);
  } catch {
    // Contention with a peer's claim, or a connection lost: the queue's poll starts it.
  }
}
