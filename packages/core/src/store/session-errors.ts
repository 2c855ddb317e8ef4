/**
 * Errors of the one-writer-per-session rule (see `SessionStore.acquire`). Both are
 * raised before anything is written, so the stored session is unchanged.
 */
import { EpisodicError } from '../errors.js';

/**
 * Another writer holds the session: another `send()` on the same `Session`, another
 * `Session` object, another process or another machine. Retry later (a job queue
 * puts the job back); `retryAfterMs`, when the store knows it, is how long the
 * holder's lease has left if the holder never renews it (it died).
 */
export class SessionBusyError extends EpisodicError {
  readonly sessionId: string;
  /** Time until the holder's lease expires unless renewed, when the store knows it. */
  readonly retryAfterMs: number | undefined;

  constructor(sessionId: string, detail?: string, retryAfterMs?: number) {
    super(
      'session_busy',
      detail === undefined
        ? `Session "${sessionId}" is already running an episode: await it (or abort it) before sending again.`
        : `Session "${sessionId}" is busy: ${detail}`,
    );
    this.sessionId = sessionId;
    this.retryAfterMs = retryAfterMs;
  }
}

/**
 * The writer's view of the session is out of date: the stored transcript does not
 * have the length it expected (someone else wrote since it loaded), or its lease
 * was released or taken over by another writer (its fencing token is superseded).
 * Open the session again and retry.
 */
export class SessionConflictError extends EpisodicError {
  readonly sessionId: string;

  constructor(sessionId: string, detail: string) {
    super('session_conflict', `Session "${sessionId}": ${detail}`);
    this.sessionId = sessionId;
  }
}

/**
 * Another decider (another process, another `Session` object) wrote the session's
 * approval decisions since this one loaded them: a decision is made once, so this
 * one is refused and nothing is written. Open the session again and look at what is
 * decided and still pending.
 */
export class ApprovalConflictError extends EpisodicError {
  readonly sessionId: string;

  constructor(sessionId: string, expected: number, found: number) {
    super(
      'approval_conflict',
      `Session "${sessionId}": its approval decisions changed since this decision was made (revision ${found}, not the ${expected} this decider saw): another decider wrote them. Nothing was written; open the session again and decide what is still pending.`,
    );
    this.sessionId = sessionId;
  }
}

/** Throws an {@link ApprovalConflictError} when the stored record is not at the revision the writer expects. */
export function checkApprovalRevision(sessionId: string, stored: { revision?: number } | undefined, expected: number | undefined): void {
  const found = stored?.revision ?? 0;
  if (expected !== undefined && found !== expected) throw new ApprovalConflictError(sessionId, expected, found);
}
