/**
 * Retention of reasoning at rest (`persistReasoning: 'current-episode'`): reasoning
 * is kept out of the persisted transcript once its episode ends. Stores never
 * rewrite history, so reasoning never enters the transcript at all: every
 * assistant message is appended without its reasoning parts, and the current
 * episode's reasoning is kept beside the transcript in a sidecar that the store
 * replaces whole (never appends to). Loading puts the sidecar's parts back into
 * an unfinished episode, so a resumed session keeps its reasoning across a crash;
 * the sidecar is deleted when the episode finishes or a new one starts.
 *
 * Write order, so that a crash at any point leaves a consistent state: the sidecar
 * is saved before the transcript append that needs it (a sidecar entry for a
 * message that never got appended is ignored on load), and deleted after the append
 * of a new user message (a stale sidecar, older than the current episode, is
 * ignored and deleted on load).
 */
import { InvalidArgumentError } from '../errors/input-errors.js';
import { type AssistantMessage, isEpisodeStart, type Message, type ReasoningPart } from '../message/message.js';
import { fingerprintOf, lastUserIndex, type ReasoningSidecar } from './reasoning-sidecar.js';
import type { SessionStore, WriteOptions } from './session-store.js';

/** Writes a session's messages with reasoning kept out of the transcript, as described above. */
export class ReasoningAtRest {
  /** Where the transcript's current episode starts. */
  private episodeStart: number;
  /** The current episode's reasoning, as the stored sidecar holds it. */
  private entries: SidecarEntry[];

  constructor(
    private readonly store: SessionStore,
    private readonly id: string,
    /** The transcript as loaded, reasoning merged back. */
    messages: readonly Message[],
  ) {
    if (!store.saveReasoningSidecar) {
      throw new InvalidArgumentError(
        "persistReasoning 'current-episode' needs a session store with saveReasoningSidecar (MemorySessionStore and FileSessionStore have it); use persistReasoning 'always' with this store.",
      );
    }
    this.episodeStart = lastUserIndex(messages);
    this.entries = entriesOf(messages, this.episodeStart);
  }

  /**
   * Appends `messages` (the transcript holds `offset` messages before them, which the
   * append states as the length it expects); `options` carries the writer's lease.
   */
  async persist(messages: readonly Message[], offset: number, options: WriteOptions = {}): Promise<void> {
    const hadEntries = this.entries.length > 0;
    let episodeStart = this.episodeStart;
    let entries = this.entries;
    const copies: Message[] = [];
    for (const [position, message] of messages.entries()) {
      const index = offset + position;
      if (isEpisodeStart(message)) {
        episodeStart = index;
        entries = [];
      }
      if (message.role !== 'assistant' || !hasReasoning(message)) {
        copies.push(message);
        continue;
      }
      const visible = withoutReasoning(message);
      entries = [...entries, entryOf(message, visible, index)];
      copies.push(visible);
    }
    const changed = entries !== this.entries;
    if (changed && entries.length > 0) await this.save({ version: 1, episodeStart, entries }, options);
    await this.store.append(this.id, copies, { ...options, expectedLength: offset });
    if (changed && entries.length === 0 && hadEntries) await this.save(undefined, options);
    this.episodeStart = episodeStart;
    this.entries = entries;
  }

  /**
   * Deletes the sidecar: call it when an episode has ended normally, answered or
   * stopped by a stop condition (whose transcript still looks resumable, so the
   * transcript alone cannot tell).
   */
  async settle(options: WriteOptions = {}): Promise<void> {
    if (this.entries.length === 0) return;
    await this.save(undefined, options);
    this.entries = [];
  }

  private async save(sidecar: ReasoningSidecar | undefined, options: WriteOptions): Promise<void> {
    await this.store.saveReasoningSidecar?.(this.id, sidecar, options);
  }
}

type SidecarEntry = ReasoningSidecar['entries'][number];

function hasReasoning(message: AssistantMessage): boolean {
  return message.content.some((part) => part.type === 'reasoning');
}

function withoutReasoning(message: AssistantMessage): AssistantMessage {
  return { ...message, content: message.content.filter((part) => part.type !== 'reasoning') };
}

function entryOf(message: AssistantMessage, visible: AssistantMessage, index: number): SidecarEntry {
  const parts: { position: number; part: ReasoningPart }[] = [];
  message.content.forEach((part, position) => {
    if (part.type === 'reasoning') parts.push({ position, part });
  });
  return { index, fingerprint: fingerprintOf(visible), parts };
}

/** Sidecar entries for the reasoning of `messages` from `episodeStart` on. */
function entriesOf(messages: readonly Message[], episodeStart: number): SidecarEntry[] {
  const entries: SidecarEntry[] = [];
  for (let index = episodeStart; index < messages.length; index += 1) {
    const message = messages[index];
    if (message?.role === 'assistant' && hasReasoning(message))
      entries.push(entryOf(message, withoutReasoning(message), index));
  }
  return entries;
}
