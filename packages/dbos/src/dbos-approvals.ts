/**
 * Deciding approvals on DBOS, shared by the client and the workers: a decision is
 * checked, and sent only to a call the episode's workflow published as waiting
 * (its `DURABLE_APPROVALS_KEY` event, see `@episodic/core`'s durable approvals), on
 * that wait's own topic. A decision for a call not proposed yet is refused before
 * anything is sent; one already made the same way is a success that sends nothing.
 * The send carries the wait as its idempotency key: of two deciders racing on one
 * call, only the first message is delivered.
 */
import {
  type ApprovalDecision,
  approvalFor,
  checkApprovalDecision,
  type DurableApproval,
  DurableApprovalError,
  episodeKey,
  type PendingDurableApproval,
  pendingOf,
  stillWaits,
} from '@episodic/core';

/** Which call a decision is for; `episode` may be left out while the call waits (it is looked up). */
export interface DbosApprovalTarget {
  sessionId: string;
  /** The waiting tool call's id (as `pending()` lists it). */
  callId: string;
  /** The episode that waits; looked up among the session's pending calls when left out. */
  episode?: number;
}

/** What deciding needs from DBOS: the workflows' events and messages, and the session's running workflows. */
export interface DbosApprovalIo {
  published(workflowId: string): Promise<DurableApproval[] | null>;
  send(workflowId: string, topic: string, message: { value: ApprovalDecision }, idempotencyKey: string): Promise<void>;
  /** Ids of the session's episode workflows still running. */
  running(sessionId: string): Promise<string[]>;
}

/** The calls the session's running episodes wait on. */
export async function pendingApprovals(io: DbosApprovalIo, sessionId: string): Promise<PendingDurableApproval[]> {
  const lists = await Promise.all((await io.running(sessionId)).map((workflowId) => io.published(workflowId)));
  return lists.flatMap((list) => pendingOf(list));
}

/** Decides one waiting call (see the module comment). */
export async function decideApproval(io: DbosApprovalIo, target: DbosApprovalTarget, decision: ApprovalDecision): Promise<void> {
  const checked = checkApprovalDecision(decision);
  let episode = target.episode;
  if (episode === undefined) {
    episode = (await pendingApprovals(io, target.sessionId)).find((request) => request.callId === target.callId)?.episode;
    if (episode === undefined) {
      throw new DurableApprovalError(
        'approval_not_pending',
        `no tool call ${JSON.stringify(target.callId)} waits for approval in session "${target.sessionId}"; take ids from pending().`,
      );
    }
  }
  const workflowId = episodeKey(target.sessionId, episode);
  const approval = approvalFor(await io.published(workflowId), target.callId, workflowId);
  if (!stillWaits(approval, checked)) return;
  await io.send(workflowId, approval.wait, { value: checked }, approval.wait);
}
