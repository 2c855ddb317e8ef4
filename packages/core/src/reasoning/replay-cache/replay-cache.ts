/**
 * The replay cache: reasoning captured from model responses, kept apart from any
 * transcript, so that it can be put back into a history an application brings
 * without it (a chat UI that stores only visible messages, a client that strips
 * `reasoning_content`). Some providers reject such a history: DeepSeek thinking
 * mode needs the reasoning of every assistant message that made tool calls
 * (docs/providers.md, "OpenAI-compatible endpoints").
 *
 * Entries are keyed by the producing provider and model plus the tool-call id (one
 * entry per call of the message) or, for a message without tool calls, a hash of
 * its visible text and of the message before it.
 */
import { hashText } from '../../support/fingerprint.js';
import type { AssistantMessage, Message, ModelRef, ReasoningPart } from '../../message/message.js';
import { toolResultText, userText } from '../../message/message.js';

/** One cached trace set: the reasoning parts of one assistant message. */
export interface ReplayEntry {
  key: string;
  provider: string;
  model: string;
  /** The message's reasoning parts, opaque data included, in order. */
  parts: ReasoningPart[];
  /** Raw tokens of the parts' text, counted when captured. */
  tokens: number;
  /** When it was stored, in ms since the epoch. */
  storedAt: number;
}

/** Counters of a replay cache since it was opened. */
export interface ReplayCacheStats {
  /** Entries held now. */
  entries: number;
  hits: number;
  misses: number;
  /** Tokens of the entries handed out by hits. */
  restoredTokens: number;
  /** Entries written. */
  stored: number;
  /** Entries dropped to stay within the size bounds. */
  evicted: number;
  /** Entries dropped because their time to live had passed. */
  expired: number;
}

/**
 * A replay cache. Implementations bound their size and drop entries older than
 * their time to live; a lookup that finds nothing is never an error.
 */
export interface ReplayCache {
  /** The entry for `key`, or undefined (missing or expired). Counts a hit or a miss. */
  get(key: string): Promise<ReplayEntry | undefined>;
  /** Stores entries, replacing any with the same key. */
  set(entries: readonly ReplayEntry[]): Promise<void>;
  stats(): ReplayCacheStats;
  /** Flushes pending writes and releases files; the cache must not be used afterwards. */
  close?(): Promise<void>;
}

/** Size and age bounds shared by the built-in caches. */
export interface ReplayCacheBounds {
  /** Most entries held; the least recently used go first. Default 5,000. */
  maxEntries?: number;
  /** Most tokens held over all entries; the least recently used go first. Default 5,000,000. */
  maxTokens?: number;
  /** Time to live of an entry, in ms. Default 2 hours. */
  ttlMs?: number;
  /** The clock, in ms since the epoch (inject one in tests). Default `Date.now`. */
  now?: () => number;
}

const scope = (model: ModelRef) => `${model.provider}\u0000${model.id}`;

/** Key of the reasoning behind tool call `id` of `model`. */
export function toolCallKey(model: ModelRef, id: string): string {
  return `call\u0000${scope(model)}\u0000${id}`;
}

function visibleOf(message: Message): string {
  switch (message.role) {
    case 'assistant':
      return message.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
    case 'user':
      return userText(message);
    case 'tool':
      return toolResultText(message);
    default:
      return message.content;
  }
}

/**
 * Key of the reasoning behind an assistant message without tool calls: a hash of
 * its visible text and of the message before it, so that the same short answer in
 * two conversations ("Done.") does not share a trace.
 */
export function messageKey(model: ModelRef, message: AssistantMessage, previous: Message | undefined): string {
  const before = previous ? `${previous.role}:${visibleOf(previous)}` : '';
  return `message\u0000${scope(model)}\u0000${hashText(`${before}\u0000${visibleOf(message)}`)}`;
}
