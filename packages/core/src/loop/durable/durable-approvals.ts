/**
 * Approvals under a durable runtime, as engines' clients see them. A paused episode
 * publishes the calls it waits on (`DURABLE_APPROVALS_KEY`), each with the name of
 * its wait; the name ends in a random ticket drawn (as a step) when the call began to
 * wait. A decision can only be sent to a wait that was published, so a decision sent
 * before the model proposed the call (a "pre-approval" of a guessed call id) reaches
 * no one, and a decision meant for an earlier call with the same id cannot be taken
 * by a later one. Decisions are checked before they are sent, and again when received.
 */
import { EpisodicError } from '../../errors/episodic-error.js';
import { InvalidArgumentError } from '../../errors/input-errors.js';
import type { ApprovalDecision } from '../../store/approval-record.js';

/** The key under which a running episode publishes its approvals (a DBOS event, Restate workflow state). */
export const DURABLE_APPROVALS_KEY = 'episodic.approvals';

/** One call an episode waited on, or waits on, as its engine publishes it. */
export interface DurableApproval {
  sessionId: string;
  /** The episode waiting. */
  episode: number;
  callId: string;
  toolName: string;
  /** The arguments the model gave (parsed, not yet validated). */
  args: unknown;
  /** The name of the durable wait a decision is sent to (see `stepIds.approval`). */
  wait: string;
  /** Set once the episode received a decision: the call waits no more. */
  decision?: ApprovalDecision;
}

/**
 * A decision an engine's client cannot send: no such call waits in the episode
 * (`approval_not_pending`: never proposed, or not yet), or the call was already
 * decided another way (`approval_decided_otherwise`). A repeat of the decision made is
 * not an error.
 */
export class DurableApprovalError extends EpisodicError<'approval_not_pending' | 'approval_decided_otherwise'> {
  constructor(code: 'approval_not_pending' | 'approval_decided_otherwise', message: string) {
    super(code, message);
  }
}

/** A call waiting for a decision in a durable episode (what a client lists). */
export type PendingDurableApproval = Omit<DurableApproval, 'wait' | 'decision'>;

const MAX_TEXT = 10_000;

/**
 * `value` as an approval decision, or an `InvalidArgumentError` naming what is wrong:
 * `{ decision: 'approved', note? }` or `{ decision: 'rejected', reason? }`, nothing else.
 */
export function checkApprovalDecision(value: unknown): ApprovalDecision {
  const fail = (detail: string) =>
    new InvalidArgumentError(`invalid approval decision: ${detail}; send { decision: "approved", note? } or { decision: "rejected", reason? }`);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw fail(`got ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value}`);
  const record = value as Record<string, unknown>;
  const text = record.decision === 'approved' ? 'note' : record.decision === 'rejected' ? 'reason' : undefined;
  if (!text) throw fail(`"decision" is ${JSON.stringify(record.decision) ?? 'missing'}`);
  const extra = Object.keys(record).filter((key) => key !== 'decision' && key !== text);
  if (extra.length > 0) throw fail(`unexpected field "${extra[0]}"`);
  const detail = record[text];
  if (detail !== undefined && (typeof detail !== 'string' || detail.length > MAX_TEXT)) {
    throw fail(`"${text}" must be a string of at most ${MAX_TEXT} characters`);
  }
  return record.decision === 'approved'
    ? { decision: 'approved', ...(detail === undefined ? {} : { note: detail as string }) }
    : { decision: 'rejected', ...(detail === undefined ? {} : { reason: detail as string }) };
}

/**
 * Whether `decision` may be sent to `approval`: true when it still waits, false when
 * it was decided this same way (a retry: nothing to send). Throws a
 * `DurableApprovalError` (`approval_decided_otherwise`) when it was decided another way.
 */
export function stillWaits(approval: DurableApproval, decision: ApprovalDecision): boolean {
  if (approval.decision === undefined) return true;
  if (JSON.stringify(checkApprovalDecision(approval.decision)) === JSON.stringify(checkApprovalDecision(decision))) return false;
  throw new DurableApprovalError(
    'approval_decided_otherwise',
    `tool call "${approval.callId}" of episode ${approval.episode} in session "${approval.sessionId}" was already ${approval.decision.decision}; this decision was not sent.`,
  );
}

/** The calls of `published` (an engine's published approvals) still waiting, in call order. */
export function pendingOf(published: readonly DurableApproval[] | null | undefined): PendingDurableApproval[] {
  return (published ?? [])
    .filter((approval) => approval.decision === undefined)
    .map(({ sessionId, episode, callId, toolName, args }) => ({ sessionId, episode, callId, toolName, args }));
}

/**
 * The published entry a decision on `callId` goes to: the latest one with that id.
 * Throws a `DurableApprovalError` (`approval_not_pending`) when the episode (named by
 * `episode`, its `<session>/<episode>` key) never waited on such a call.
 */
export function approvalFor(published: readonly DurableApproval[] | null | undefined, callId: string, episode: string): DurableApproval {
  const found = (published ?? []).filter((approval) => approval.callId === callId).at(-1);
  if (found) return found;
  const waiting = pendingOf(published).map((approval) => approval.callId).join(', ') || 'none';
  throw new DurableApprovalError(
    'approval_not_pending',
    `no tool call ${JSON.stringify(callId)} waits for approval in episode "${episode}" (waiting: ${waiting}); take ids from the pending approvals the client lists.`,
  );
}
