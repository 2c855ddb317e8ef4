/**
 * The reasoning sidecar of `persistReasoning: 'current-episode'` (see
 * reasoning-at-rest.ts): the current episode's reasoning kept beside the
 * transcript, and how loading merges it back.
 */
import { hashText } from '../support/fingerprint.js';
import { currentEpisodeStart, episodeUnfinished } from '../message/episodes.js';
import type { AssistantMessage, Message, ReasoningPart } from '../message/message.js';

/** Where reasoning is persisted: `always` in the transcript, or `current-episode` only (in a sidecar). */
export type PersistReasoning = 'always' | 'current-episode';

/** The current episode's reasoning, kept apart from the transcript. JSON-serialisable. */
export interface ReasoningSidecar {
  version: 1;
  /** Index of the user message that opened the episode (0 for a preamble). */
  episodeStart: number;
  entries: {
    /** Index of the assistant message in the transcript. */
    index: number;
    /** Fingerprint of the stored (reasoning-free) message, checked on load. */
    fingerprint: string;
    /** The reasoning parts and their positions in the original content. */
    parts: { position: number; part: ReasoningPart }[];
  }[];
}

/** Fingerprint of a message's visible parts: survives a store's round trip of the message. */
export function fingerprintOf(message: AssistantMessage): string {
  const visible = message.content.map((part) =>
    part.type === 'text' ? `t:${part.text}` : part.type === 'tool-call' ? `c:${part.id}` : '',
  );
  return hashText(visible.filter((piece) => piece !== '').join('\u0000'));
}

/** Where the current episode starts (see {@link currentEpisodeStart}). */
export function lastUserIndex(messages: readonly Message[]): number {
  return currentEpisodeStart(messages);
}

/**
 * The transcript with the sidecar's reasoning put back, when the sidecar belongs to
 * its current, unfinished episode; `stale` when it does not (delete it then).
 */
export function mergeSidecar(
  messages: readonly Message[],
  sidecar: ReasoningSidecar | undefined,
): { messages: Message[]; stale: boolean } {
  if (!sidecar) return { messages: [...messages], stale: false };
  const current = sidecar.episodeStart === lastUserIndex(messages) && episodeUnfinished(messages);
  if (!current) return { messages: [...messages], stale: true };
  const merged = [...messages];
  for (const entry of sidecar.entries) {
    const message = merged[entry.index];
    if (message?.role !== 'assistant' || fingerprintOf(message) !== entry.fingerprint) continue;
    const content = [...message.content];
    for (const { position, part } of [...entry.parts].sort((left, right) => left.position - right.position))
      content.splice(position, 0, part);
    merged[entry.index] = { ...message, content };
  }
  return { messages: merged, stale: false };
}
