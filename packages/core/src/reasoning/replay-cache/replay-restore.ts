/**
 * Capture and restore with a {@link ReplayCache}: the loop captures the reasoning of
 * every answer it receives; a history an application brings is completed from the
 * cache before packing, wherever the target's retention would send reasoning that
 * the history lacks.
 */
import { currentEpisodeStart as lastEpisodeStart } from '../../message/episodes.js';
import { keepsReasoning } from '../../message/retention.js';
import { type AssistantMessage, type Message, type ModelRef, type ReasoningPart, toolCallsOf } from '../../message/message.js';
import type { Retention } from '../../message/retention.js';
import type { TokenCounter } from '../../tokens/token-counter.js';
import { isForeign } from '../handoff/handoff-note.js';
import { messageKey, type ReplayCache, type ReplayEntry, toolCallKey } from './replay-cache.js';

/**
 * Stores the reasoning of `message` (produced by `model`) under each of its tool-call
 * ids, or under its message key when it made no calls. Returns the entries stored
 * (none when the message has no reasoning).
 */
export async function captureReasoning(
  cache: ReplayCache,
  capture: { message: AssistantMessage; previous: Message | undefined; model: ModelRef },
  counter: TokenCounter,
  now: number = Date.now(),
): Promise<number> {
  const { message, model } = capture;
  const parts = message.content.filter((part): part is ReasoningPart => part.type === 'reasoning');
  if (parts.length === 0) return 0;
  // Cached per part: the loop's reasoning report has just counted these parts.
  const tokens = parts.reduce((sum, part) => sum + counter.countCached(part, part.text), 0);
  const calls = toolCallsOf(message);
  const keys =
    calls.length > 0
      ? calls.map((call) => toolCallKey(model, call.id))
      : [messageKey(model, message, capture.previous)];
  const entries: ReplayEntry[] = keys.map((key) => ({
    key,
    provider: model.provider,
    model: model.id,
    parts,
    tokens,
    storedAt: now,
  }));
  await cache.set(entries);
  return entries.length;
}

/** Result of {@link restoreReasoning}. */
export interface RestoreResult {
  /** The history with restored reasoning (unchanged messages are the same objects). */
  messages: Message[];
  /** Assistant messages that got their reasoning back. */
  restored: number;
  /** Tokens restored. */
  tokens: number;
  /** Assistant messages with tool calls that still lack reasoning the target would send. */
  missing: number;
}

/**
 * Where the current episode starts, as far as the next call is concerned: the last
 * user message when the history ends mid-episode (a resume continues it), else the
 * end (the next call opens a new episode, so every message is past).
 */
function currentEpisodeStart(messages: readonly Message[]): number {
  const last = messages.at(-1);
  if (last?.role === 'assistant' && toolCallsOf(last).length === 0) return messages.length;
  return lastEpisodeStart(messages);
}

/**
 * True when `message` has no reasoning although `retention` would send it to
 * `target`: it made tool calls, it is the target's own (or untagged), and it is in
 * the current episode or retention keeps past tool-call reasoning.
 */
export function lacksRequiredReasoning(
  message: AssistantMessage,
  context: { target: ModelRef; retention: Retention; current: boolean },
): boolean {
  if (message.content.some((part) => part.type === 'reasoning')) return false;
  if (isForeign(message.model, context.target)) return false;
  const calls = toolCallsOf(message).length > 0;
  return calls && keepsReasoning(context.retention, context.current, calls);
}

async function lookup(
  cache: ReplayCache,
  message: AssistantMessage,
  previous: Message | undefined,
  target: ModelRef,
): Promise<ReplayEntry | undefined> {
  const calls = toolCallsOf(message);
  if (calls.length === 0) return cache.get(messageKey(target, message, previous));
  for (const call of calls) {
    const entry = await cache.get(toolCallKey(target, call.id));
    if (entry) return entry;
  }
  return undefined;
}

/**
 * Completes a history from the cache: every assistant message of `target` (or
 * untagged) that has no reasoning, where `retention` would send reasoning, gets the
 * cached parts (placed first, as models produce them) and is tagged with `target`.
 */
export async function restoreReasoning(
  messages: readonly Message[],
  options: { cache: ReplayCache; target: ModelRef; retention: Retention },
): Promise<RestoreResult> {
  const { cache, target, retention } = options;
  const result: RestoreResult = { messages: [...messages], restored: 0, tokens: 0, missing: 0 };
  if (retention === 'none') return result;
  const currentStart = currentEpisodeStart(messages);
  for (const [index, message] of messages.entries()) {
    if (message.role !== 'assistant' || message.content.some((part) => part.type === 'reasoning')) continue;
    if (isForeign(message.model, target)) continue;
    const current = index >= currentStart;
    const calls = toolCallsOf(message).length > 0;
    if (!keepsReasoning(retention, current, calls)) continue;
    const entry = await lookup(cache, message, messages[index - 1], target);
    if (entry) {
      result.messages[index] = {
        ...message,
        model: message.model ?? target,
        content: [...entry.parts, ...message.content],
      };
      result.restored += 1;
      result.tokens += entry.tokens;
    } else if (calls) result.missing += 1;
  }
  return result;
}

/** Counts the assistant messages that {@link lacksRequiredReasoning}. */
export function countMissingReasoning(messages: readonly Message[], target: ModelRef, retention: Retention): number {
  const currentStart = currentEpisodeStart(messages);
  let missing = 0;
  messages.forEach((message, index) => {
    if (
      message.role === 'assistant' &&
      lacksRequiredReasoning(message, { target, retention, current: index >= currentStart })
    )
      missing += 1;
  });
  return missing;
}
