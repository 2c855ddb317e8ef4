/**
 * The episode workflow's approval handlers. `approve` decides a call only when the
 * running episode published it as waiting (see `@episodic/core`'s durable approvals):
 * a decision for a call that does not exist yet, or is not valid, is refused before
 * anything is recorded. Deciding again the same way succeeds without doing anything
 * (a retry after a lost answer), deciding another way is refused. Refusals are
 * terminal errors whose message starts with the error's code, which the client maps
 * back to a typed error.
 */
import {
  type ApprovalDecision,
  approvalFor,
  checkApprovalDecision,
  DURABLE_APPROVALS_KEY,
  type DurableApproval,
  EpisodicError,
  stillWaits,
} from '@episodic/core';
import * as restate from '@restatedev/restate-sdk';

/** What `approve` is sent: the call's id and the decision. */
export interface ApprovalMessage {
  /** The waiting tool call's id (as `pending()` lists it). */
  callId: string;
  /** Checked by the handler: `{ decision: 'approved', note? }` or `{ decision: 'rejected', reason? }`. */
  decision: ApprovalDecision;
}

/** HTTP status of each refusal, as the ingress answers it. */
const STATUS: Record<string, number> = { invalid_argument: 400, approval_not_pending: 404, approval_decided_otherwise: 409 };

/** The calls the episode waited on or waits on (its published approvals). */
export async function publishedApprovals(ctx: restate.WorkflowSharedContext): Promise<DurableApproval[]> {
  return (await ctx.get<DurableApproval[]>(DURABLE_APPROVALS_KEY)) ?? [];
}

/** Decides one waiting call (see the module comment). */
export async function approve(ctx: restate.WorkflowSharedContext, message: ApprovalMessage): Promise<void> {
  const decision = refusing(() => checkApprovalDecision((message as Partial<ApprovalMessage> | null)?.decision));
  const callId = message.callId;
  if (typeof callId !== 'string') throw refusal('invalid_argument', 'invalid approval: "callId" must be a string');
  const published = await publishedApprovals(ctx);
  const approval = refusing(() => approvalFor(published, callId, ctx.key));
  if (!refusing(() => stillWaits(approval, decision))) return;
  const promise = ctx.promise<ApprovalDecision>(approval.wait);
  // The published list trails the wait by a moment: the promise itself says whether a decision landed.
  const earlier = await promise.peek();
  if (earlier !== undefined) {
    refusing(() => stillWaits({ ...approval, decision: earlier }, decision));
    return;
  }
  await promise.resolve(decision);
}

function refusing<T>(check: () => T): T {
  try {
    return check();
  } catch (error) {
    if (EpisodicError.isInstance(error) && error.code in STATUS) throw refusal(error.code, error.message);
    throw error;
  }
}

function refusal(code: string, message: string): restate.TerminalError {
  return new restate.TerminalError(`${code}: ${message}`, { errorCode: STATUS[code] ?? 400 });
}
