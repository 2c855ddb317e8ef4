/**
 * A {@link SessionStore} in memory, for tests and short-lived agents. It keeps deep
 * copies, so later changes to the caller's objects never reach stored history, and
 * hands out deep copies, so changes to what `load` returned never reach it either
 * (strings, which cannot change, are shared: see plain-copy.ts).
 *
 * One writer per session within the process: {@link MemorySessionStore.acquire}
 * hands out one lease per session at a time. The store dies with its process, so
 * there is never a dead holder to take over from.
 */
import type { Message } from '../message/message.js';
import type { PackState } from '../packing/pack-types.js';
import type { ApprovalRecord } from './approval-record.js';
import { plainCopy } from './plain-copy.js';
import type { ReasoningSidecar } from './reasoning-sidecar.js';
import { checkApprovalRevision, SessionBusyError, SessionConflictError } from '../errors/session-errors.js';
import {
  type AppendOptions,
  type ApprovalWriteOptions,
  assertSessionId,
  type SessionLease,
  type SessionStore,
  type StoredSession,
  type WriteOptions,
} from './session-store.js';

/** Sessions held in a Map; lost when the process ends. */
export class MemorySessionStore implements SessionStore {
  private readonly sessions = new Map<string, { messages: Message[]; packState: PackState | undefined }>();
  private readonly sidecars = new Map<string, ReasoningSidecar>();
  private readonly approvals = new Map<string, ApprovalRecord>();
  /** Per session: the latest fencing token handed out, and whether its lease is still held. */
  private readonly leases = new Map<string, { token: number; held: boolean }>();

  async load(id: string): Promise<StoredSession | undefined> {
    assertSessionId(id);
    const stored = this.sessions.get(id);
    if (!stored) return undefined;
    const sidecar = this.sidecars.get(id);
    const approvals = this.approvals.get(id);
    return {
      messages: plainCopy(stored.messages),
      packState: plainCopy(stored.packState),
      ...(sidecar ? { reasoningSidecar: plainCopy(sidecar) } : {}),
      ...(approvals ? { approvals: plainCopy(approvals) } : {}),
    };
  }

  async acquire(id: string): Promise<SessionLease> {
    assertSessionId(id);
    const previous = this.leases.get(id);
    if (previous?.held) throw new SessionBusyError(id, 'another writer in this process holds its lease; retry when it is done.');
    const lease = { token: (previous?.token ?? 0) + 1, held: true };
    this.leases.set(id, lease);
    return {
      sessionId: id,
      token: lease.token,
      length: this.sessions.get(id)?.messages.length ?? 0,
      release: async () => {
        lease.held = false;
      },
    };
  }

  async append(id: string, messages: readonly Message[], options?: AppendOptions): Promise<void> {
    assertSessionId(id);
    this.checkWriter(id, options);
    const stored = this.sessions.get(id)?.messages.length ?? 0;
    if (options?.expectedLength !== undefined && options.expectedLength !== stored) {
      throw new SessionConflictError(
        id,
        `the store holds ${stored} messages, not the ${options.expectedLength} this writer expected; load the session again.`,
      );
    }
    this.entry(id).messages.push(...plainCopy(messages));
  }

  async saveState(id: string, state: PackState, options?: WriteOptions): Promise<void> {
    assertSessionId(id);
    this.checkWriter(id, options);
    this.entry(id).packState = plainCopy(state);
  }

  async saveReasoningSidecar(id: string, sidecar: ReasoningSidecar | undefined, options?: WriteOptions): Promise<void> {
    assertSessionId(id);
    this.checkWriter(id, options);
    if (sidecar) this.sidecars.set(id, plainCopy(sidecar));
    else this.sidecars.delete(id);
  }

  async saveApprovals(id: string, record: ApprovalRecord | undefined, options?: ApprovalWriteOptions): Promise<void> {
    assertSessionId(id);
    this.checkWriter(id, options);
    checkApprovalRevision(id, this.approvals.get(id), options?.expectedRevision);
    if (record) this.approvals.set(id, plainCopy(record));
    else this.approvals.delete(id);
  }

  async list(): Promise<string[]> {
    return [...this.sessions.keys()];
  }

  /**
   * Deletes a session; true when it existed. A writer still running it is refused at
   * its next write: the lease is dropped but its token is kept, so the session created
   * again never hands the same token out.
   */
  async delete(id: string): Promise<boolean> {
    assertSessionId(id);
    const existed = this.sessions.delete(id);
    this.sidecars.delete(id);
    this.approvals.delete(id);
    const lease = this.leases.get(id);
    if (lease) this.leases.set(id, { token: lease.token, held: false });
    return existed;
  }

  /** A write with a lease needs it to be the current one; a write without needs nobody to hold one. */
  private checkWriter(id: string, options: WriteOptions | undefined): void {
    const current = this.leases.get(id);
    if (options?.lease) {
      if (current?.held && current.token === options.lease.token) return;
      throw new SessionConflictError(
        id,
        `the lease with token ${options.lease.token} was released or taken over; nothing was written.`,
      );
    }
    if (current?.held) throw new SessionBusyError(id, 'another writer holds its lease; write through that writer or wait.');
  }

  private entry(id: string) {
    let stored = this.sessions.get(id);
    if (!stored) {
      stored = { messages: [], packState: undefined };
      this.sessions.set(id, stored);
    }
    return stored;
  }
}
