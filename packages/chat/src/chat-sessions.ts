/**
 * The chat server's sessions in memory: at most `maxSessions`, each dropped after
 * `idleMs` unused, and never while its episode streams (a dropped session still
 * streaming would be opened again beside itself and run twice at once). One chat id
 * runs one episode at a time; a client (remote address) opens at most `count` new
 * sessions per `windowMs`, so nobody can push everyone else's sessions out.
 */
import type { Agent, Session } from '@episodic/core';
import type { Refusal } from './request-guard.js';

/** Limits of {@link ChatSessions}. */
export interface ChatSessionLimits {
  maxSessions: number;
  idleMs: number;
  newPerClient: { count: number; windowMs: number };
}

interface Entry {
  session: Promise<Session>;
  usedAt: number;
  busy: boolean;
}

/** A session lent to one request; `done` gives it back. */
export interface Lent {
  session: Session;
  done(): void;
}

/** The sessions of one chat server. */
export class ChatSessions {
  private readonly entries = new Map<string, Entry>();
  private readonly opened = new Map<string, number[]>();

  constructor(
    private readonly agent: Agent,
    private readonly limits: ChatSessionLimits,
  ) {}

  /** The chat's session for one episode, or why not (busy, too many sessions, too many new ones). */
  async lend(id: string, client: string): Promise<Lent | Refusal> {
    let entry = this.entries.get(id);
    if (entry?.busy) return { status: 409, message: `Chat ${id} is still answering: wait for it, or stop it first.` };
    if (entry) {
      // Most recently used last, so eviction finds the least recently used first.
      this.entries.delete(id);
      this.entries.set(id, entry);
    } else {
      const refused = this.admit(client);
      if (refused) return refused;
      entry = { session: this.agent.session({ id }), usedAt: Date.now(), busy: true };
      this.entries.set(id, entry);
    }
    entry.busy = true;
    let session: Session;
    try {
      session = await entry.session;
    } catch (error) {
      this.entries.delete(id);
      throw error;
    }
    const lent = entry;
    return {
      session,
      done: () => {
        lent.busy = false;
        lent.usedAt = Date.now();
      },
    };
  }

  /** Room for a new session from `client`, or why not; drops idle sessions, then the least recently used idle one. */
  private admit(client: string): Refusal | undefined {
    const now = Date.now();
    const { count, windowMs } = this.limits.newPerClient;
    const recent = (this.opened.get(client) ?? []).filter((at) => at > now - windowMs);
    if (recent.length >= count) {
      return { status: 429, message: `Too many new chats from this client (${count} per ${windowMs / 1000} s): retry later.` };
    }
    for (const [id, entry] of this.entries) if (!entry.busy && entry.usedAt < now - this.limits.idleMs) this.entries.delete(id);
    if (this.entries.size >= this.limits.maxSessions) {
      // Map order is insertion order, refreshed on use below: the first idle entry is the least recently used.
      const idle = [...this.entries].find(([, entry]) => !entry.busy);
      if (!idle) return { status: 503, message: `All ${this.limits.maxSessions} chats are answering: retry shortly.` };
      this.entries.delete(idle[0]);
    }
    recent.push(now);
    this.opened.set(client, recent);
    if (this.opened.size > 10_000) this.forgetQuietClients(now);
    return undefined;
  }

  /** Keeps the per-client record bounded too. */
  private forgetQuietClients(now: number): void {
    for (const [client, times] of this.opened) {
      if (times.every((at) => at <= now - this.limits.newPerClient.windowMs)) this.opened.delete(client);
    }
  }
}
