/**
 * A {@link SessionStore} in memory, for tests and short-lived agents. It keeps deep
 * copies, so later changes to the caller's objects never reach stored history.
 */
import type { Message } from '../message/message.js';
import type { PackState } from '../packing/pack-types.js';
import type { ApprovalRecord } from './approval-record.js';
import type { ReasoningSidecar } from './reasoning-sidecar.js';
import { assertSessionId, type SessionStore, type StoredSession } from './session-store.js';

/** Sessions held in a Map; lost when the process ends. */
export class MemorySessionStore implements SessionStore {
  private readonly sessions = new Map<string, { messages: Message[]; packState: PackState | undefined }>();
  private readonly sidecars = new Map<string, ReasoningSidecar>();
  private readonly approvals = new Map<string, ApprovalRecord>();

  async load(id: string): Promise<StoredSession | undefined> {
    assertSessionId(id);
    const stored = this.sessions.get(id);
    if (!stored) return undefined;
    const sidecar = this.sidecars.get(id);
    const approvals = this.approvals.get(id);
    return {
      messages: structuredClone(stored.messages),
      packState: structuredClone(stored.packState),
      ...(sidecar ? { reasoningSidecar: structuredClone(sidecar) } : {}),
      ...(approvals ? { approvals: structuredClone(approvals) } : {}),
    };
  }

  async append(id: string, messages: readonly Message[]): Promise<void> {
    this.entry(id).messages.push(...structuredClone(messages));
  }

  async saveState(id: string, state: PackState): Promise<void> {
    this.entry(id).packState = structuredClone(state);
  }

  async saveReasoningSidecar(id: string, sidecar: ReasoningSidecar | undefined): Promise<void> {
    assertSessionId(id);
    if (sidecar) this.sidecars.set(id, structuredClone(sidecar));
    else this.sidecars.delete(id);
  }

  async saveApprovals(id: string, record: ApprovalRecord | undefined): Promise<void> {
    assertSessionId(id);
    if (record) this.approvals.set(id, structuredClone(record));
    else this.approvals.delete(id);
  }

  async list(): Promise<string[]> {
    return [...this.sessions.keys()];
  }

  private entry(id: string) {
    assertSessionId(id);
    let stored = this.sessions.get(id);
    if (!stored) {
      stored = { messages: [], packState: undefined };
      this.sessions.set(id, stored);
    }
    return stored;
  }
}
