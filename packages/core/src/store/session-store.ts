/**
 * Where sessions live between runs. The agent loop appends every step's messages as
 * soon as the step completes (write-ahead) and saves the packer's state beside
 * them, so a crash loses at most the model call in flight.
 */
import { InvalidArgumentError } from '../errors.js';
import type { Message } from '../message/message.js';
import type { PackState } from '../packing/pack-types.js';
import type { ApprovalRecord } from './approval-record.js';
import type { ReasoningSidecar } from './reasoning-sidecar.js';

/** A torn write found when loading: a last line cut short by a crash. It is ignored. */
export interface TornLine {
  /** 1-based line number in the stored transcript. */
  line: number;
  reason: string;
}

/** A session as loaded from a store. */
export interface StoredSession {
  messages: Message[];
  packState: PackState | undefined;
  /** Set when the stored transcript ended in a torn write (reported, then ignored). */
  torn?: TornLine;
  /** The current episode's reasoning kept apart from the transcript, if any (see {@link SessionStore.saveReasoningSidecar}). */
  reasoningSidecar?: ReasoningSidecar;
  /** Approval decisions not yet acted on (see {@link SessionStore.saveApprovals}). */
  approvals?: ApprovalRecord;
}

/**
 * Persists sessions. Implementations never rewrite history: `append` only adds
 * messages after the ones stored. One shared conformance suite runs every store.
 */
export interface SessionStore {
  /** The stored session, or undefined when `id` has never been written. */
  load(id: string): Promise<StoredSession | undefined>;
  /** Adds messages at the end of the session's transcript, durably, before resolving. */
  append(id: string, messages: readonly Message[]): Promise<void>;
  /** Replaces the session's pack state. */
  saveState(id: string, state: PackState): Promise<void>;
  /** Ids of the stored sessions. */
  list?(): Promise<string[]>;
  /**
   * Replaces the session's reasoning sidecar whole, durably; `undefined` deletes it.
   * Needed for `persistReasoning: 'current-episode'`, which keeps the current
   * episode's reasoning here instead of in the transcript. `load` returns it.
   */
  saveReasoningSidecar?(id: string, sidecar: ReasoningSidecar | undefined): Promise<void>;
  /**
   * Replaces the session's approval record whole, durably; `undefined` deletes it.
   * `session.approve()` / `reject()` write it so a decision survives a restart until
   * `resume()` acts on it; `load` returns it. A store without it keeps decisions in
   * memory only: after a crash the calls are asked about again (none runs unapproved).
   */
  saveApprovals?(id: string, record: ApprovalRecord | undefined): Promise<void>;
}

const safeId = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$/;

/**
 * Checks a session id: letters, digits, `.`, `_` and `-`, not starting with a dot,
 * at most 128 characters. Ids become file names, so nothing else is allowed.
 */
export function assertSessionId(id: string): void {
  if (!safeId.test(id)) {
    throw new InvalidArgumentError(
      `invalid session id ${JSON.stringify(id)}: use 1 to 128 letters, digits, ".", "_" or "-" (not starting with ".")`,
    );
  }
}
