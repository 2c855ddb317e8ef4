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
 * A writer's hold on one session, from {@link SessionStore.acquire}. While it is held
 * no other writer can take the session; the store refuses writes that carry a lease
 * which was released or taken over (its `token` is superseded), so a writer that was
 * paused past its lease (a long GC pause, a lost network) cannot write over the
 * writer that took the session over.
 */
export interface SessionLease {
  readonly sessionId: string;
  /** Fencing token: larger at every acquisition of the session; writes must carry the current one. */
  readonly token: number;
  /**
   * Messages stored when the lease was taken. A writer whose transcript holds another
   * number loaded the session before someone else wrote to it: it must load it again.
   */
  readonly length: number;
  /** Gives the session up; later writes with this lease are refused. Calling it twice is harmless. */
  release(): Promise<void>;
}

/** Options of every write. */
export interface WriteOptions {
  /**
   * The writer's lease. Without one, a store that supports leases refuses the write
   * with a `SessionBusyError` while another writer holds the session.
   */
  lease?: SessionLease;
}

/** Options of {@link SessionStore.saveApprovals}. */
export interface ApprovalWriteOptions extends WriteOptions {
  /**
   * The record's revision the decider saw (0 when there was none): when the store
   * holds another, it refuses the write with an `ApprovalConflictError`, so two
   * decisions made at once are never both taken (compare-and-set).
   */
  expectedRevision?: number;
}

/** Options of {@link SessionStore.append}. */
export interface AppendOptions extends WriteOptions {
  /**
   * The number of messages the writer believes are stored: when the store holds
   * another number, it refuses the append with a `SessionConflictError` and
   * writes nothing (so a step is never lost or doubled by a stale writer).
   */
  expectedLength?: number;
}

/**
 * Persists sessions. Implementations never rewrite history: `append` only adds
 * messages after the ones stored. One shared conformance suite runs every store.
 *
 * **One writer per session.** A store that can be shared (by two `Session` objects,
 * processes or machines) implements `acquire`: the agent loop takes the
 * session's lease before an episode writes anything and releases it at the end; a
 * second writer is refused with a `SessionBusyError`; an append carries the
 * position it expects, so a stale view is refused with a `SessionConflictError`.
 * Each append is atomic for readers (they see all of a step's messages or none). When
 * the writer's process dies, its lease lapses after a bounded time the store
 * documents, and another worker can take the session over and `resume()` it.
 */
export interface SessionStore {
  /** The stored session, or undefined when `id` has never been written. */
  load(id: string): Promise<StoredSession | undefined>;
  /** Adds messages at the end of the session's transcript, durably and atomically, before resolving. */
  append(id: string, messages: readonly Message[], options?: AppendOptions): Promise<void>;
  /** Replaces the session's pack state. */
  saveState(id: string, state: PackState, options?: WriteOptions): Promise<void>;
  /** Ids of the stored sessions. */
  list?(): Promise<string[]>;
  /**
   * Replaces the session's reasoning sidecar whole, durably; `undefined` deletes it.
   * Needed for `persistReasoning: 'current-episode'`, which keeps the current
   * episode's reasoning here instead of in the transcript. `load` returns it.
   */
  saveReasoningSidecar?(id: string, sidecar: ReasoningSidecar | undefined, options?: WriteOptions): Promise<void>;
  /**
   * Replaces the session's approval record whole, durably; `undefined` deletes it.
   * `session.approve()` / `reject()` write it (without a lease, so it is refused while
   * another writer holds the session) so a decision survives a restart until `resume()`
   * acts on it, which then forgets it under its lease; `load` returns it. A store
   * without it keeps decisions in memory only: after a crash the calls are asked about
   * again (none runs unapproved).
   */
  saveApprovals?(id: string, record: ApprovalRecord | undefined, options?: ApprovalWriteOptions): Promise<void>;
  /**
   * Takes the session's single writer lease, or rejects with a `SessionBusyError`
   * when another writer holds it. A store without `acquire` can only be used by one
   * process: the agent loop then keeps one writer per session within the process.
   */
  acquire?(id: string): Promise<SessionLease>;
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
