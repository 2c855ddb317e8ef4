/**
 * Who decides a tool call that needs approval: the request a person (or a policy)
 * sees, and the policy type. Apart from `approvals.ts` so that tools and the tool
 * executor can name them without importing the approval gate.
 */
import type { ApprovalDecision } from '../store/approval-record.js';

export type { ApprovalDecision } from '../store/approval-record.js';

/** A tool call waiting for a person's decision. */
export interface ApprovalRequest {
  callId: string;
  toolName: string;
  /** The arguments the model gave (parsed, not yet validated). */
  args: unknown;
  /** The session whose transcript holds the call: a sub-agent's when the call came up through an agent tool. */
  sessionId: string;
}

/**
 * Decides calls without a person: return a decision, or undefined to ask one (the
 * episode pauses). Meant for tests and for rules such as "read-only commands run".
 */
export type ApprovalPolicy = (
  request: ApprovalRequest,
) => ApprovalDecision | undefined | Promise<ApprovalDecision | undefined>;

/** An {@link ApprovalPolicy} that approves every call (tests, trusted sandboxes). */
export const autoApprove: ApprovalPolicy = () => ({ decision: 'approved' });

/** An {@link ApprovalPolicy} that rejects every call with `reason`. */
export function autoReject(reason = 'Rejected by the approval policy.'): ApprovalPolicy {
  return () => ({ decision: 'rejected', reason });
}
