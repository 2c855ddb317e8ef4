/**
 * The approval record: decisions a person made on tool calls that wait for approval,
 * kept beside the transcript until the calls run.
 *
 * What is pending is not stored: it is a function of the transcript (the last
 * assistant message's tool calls without results, whose tools need approval). Only
 * a decision made between the pause and the `resume()` that acts on it needs a home
 * of its own; once the call has its result, the result's `approval` field keeps the
 * decision for good and the record forgets it. So a crash at any point loses
 * nothing: a call without a stored decision is asked about again, never run unasked.
 */
import type { z } from 'zod/v4';
import { type PersistedFormat, parsePersistedJson } from '../support/persisted-format.js';
import { lazily, type ZodModule } from '../support/zod-loader.js';

/** A person's decision on one tool call. */
export type ApprovalDecision =
  | { decision: 'approved'; /** Read by the model after the tool's output. */ note?: string }
  | { decision: 'rejected'; /** Read by the model in the call's error result. */ reason?: string };

/** One stored decision. */
export interface StoredApprovalDecision {
  /** The tool call's id in the transcript of `sessionId`. */
  callId: string;
  /** The session whose transcript holds the call: a sub-agent's, for requests that came up through an agent tool. */
  sessionId: string;
  decision: 'approved' | 'rejected';
  note?: string;
  reason?: string;
  /** ISO 8601 time of the decision. */
  decidedAt: string;
}

/** The versioned record a store keeps per session (`<id>.approvals.json` in the file store). */
export interface ApprovalRecord {
  version: 1;
  /**
   * One more at every decision written: a decider states the revision it saw, and the
   * store refuses the write when another decider wrote since (absent counts as 0).
   */
  revision?: number;
  decisions: StoredApprovalDecision[];
}

// The schemas stay private (persisted formats are checked here, not by applications);
// `satisfies` keeps them and the interfaces above in step.
function build(z: ZodModule['z']) {
  const StoredApprovalDecisionSchema = z.object({
    callId: z.string().min(1),
    sessionId: z.string().min(1),
    decision: z.enum(['approved', 'rejected']),
    note: z.string().optional(),
    reason: z.string().optional(),
    decidedAt: z.string(),
  }) satisfies z.ZodType<StoredApprovalDecision>;

  return z.object({
    version: z.literal(1),
    revision: z.number().int().nonnegative().optional(),
    decisions: z.array(StoredApprovalDecisionSchema),
  }) satisfies z.ZodType<ApprovalRecord>;
}

/** How stores load a saved approval record. */
export const approvalRecordFormat: PersistedFormat<ReturnType<typeof build>> = {
  code: 'invalid_approval_record',
  name: 'approval record',
  version: 1,
  schema: lazily(build),
  remedy: 'delete it (the calls waiting for approval are then asked about again; none runs unapproved)',
};

/**
 * Parses a stored record; `where` names its file or row in the error. Throws a
 * `PersistedFormatError` with code `invalid_approval_record` that says how to recover.
 */
export function parseApprovalRecord(text: string, where: string): ApprovalRecord {
  return parsePersistedJson(approvalRecordFormat, text, { file: where });
}
