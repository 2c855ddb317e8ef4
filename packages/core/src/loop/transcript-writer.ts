/**
 * The one writer of a session's transcript during a run. The session builds it with
 * the run's lease and hands it to the loop; the loop appends through it and never
 * calls back into the session. Each append counts the messages for the packer first
 * (nothing is saved that the packer cannot count, and the next pack only adds cached
 * numbers), then persists them under the lease with the length the writer expects,
 * then takes them into memory, so memory never runs ahead of the store.
 */
import type { Message } from '../message/message.js';
import { type MessageFormOptions, prepareForPacking } from '../packing/prepare-for-packing.js';
import type { PackState } from '../packing/pack-types.js';
import type { ReasoningAtRest } from '../store/reasoning-at-rest.js';
import type { SessionLease, SessionStore } from '../store/session-store.js';

/** A session's transcript and packer state in memory; the writer changes both in place. */
export interface Transcript {
  messages: Message[];
  packState: PackState | undefined;
}

/** Where a run writes: the store, under the run's lease, through the reasoning sidecar when it keeps reasoning at rest. */
export interface WriteTarget {
  store: SessionStore;
  id: string;
  lease: SessionLease;
  atRest?: ReasoningAtRest | undefined;
}

/** Appends and saves one session's transcript for one run; see the module comment. */
export class TranscriptWriter {
  /** Tool-call ids of `messages[0, idsSeen)`. */
  private ids = new Set<string>();
  private idsSeen = 0;

  constructor(
    private readonly target: WriteTarget,
    private readonly transcript: Transcript,
    private readonly counting: MessageFormOptions,
  ) {}

  /** The transcript so far. A durable replay rewinds it and takes stored messages back (see {@link TranscriptWriter.take}). */
  get messages(): Message[] {
    return this.transcript.messages;
  }

  /** The packer's state after the latest call. */
  get packState(): PackState | undefined {
    return this.transcript.packState;
  }

  /** Counts `messages`, persists them after what is stored, then takes them into memory. */
  async append(messages: readonly Message[]): Promise<void> {
    if (messages.length === 0) return;
    for (const message of messages) prepareForPacking(message, this.counting);
    const { store, id, lease, atRest } = this.target;
    const expectedLength = this.transcript.messages.length;
    if (atRest) await atRest.persist(messages, expectedLength, { lease });
    else await store.append(id, messages, { lease, expectedLength });
    this.transcript.messages.push(...messages);
  }

  /** Counts messages the store holds already (a durable replay's) and takes them into memory without writing them again. */
  take(messages: readonly Message[]): void {
    for (const message of messages) prepareForPacking(message, this.counting);
    this.transcript.messages.push(...messages);
  }

  /** Keeps the packer's state of the latest call, in memory and in the store. */
  async commit(state: PackState): Promise<void> {
    this.transcript.packState = state;
    await this.target.store.saveState(this.target.id, state, { lease: this.target.lease });
  }

  /**
   * The tool-call ids the transcript holds, kept up to date as it grows (and worked
   * out again after a durable replay rewound it), instead of collected on every step.
   */
  toolCallIds(): ReadonlySet<string> {
    const { messages } = this.transcript;
    if (messages.length < this.idsSeen) {
      this.ids = new Set();
      this.idsSeen = 0;
    }
    for (; this.idsSeen < messages.length; this.idsSeen += 1) {
      const message = messages[this.idsSeen] as Message;
      if (message.role !== 'assistant') continue;
      for (const part of message.content) if (part.type === 'tool-call') this.ids.add(part.id);
    }
    return this.ids;
  }
}
