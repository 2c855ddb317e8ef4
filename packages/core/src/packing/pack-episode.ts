/**
 * Packs the messages of one episode into their packed forms, with the reductions
 * the packer decided. Used for past episodes (whole, retention applied) and for
 * the current episode (reasoning kept, reductions applied in order).
 */
import type { AssistantMessage, Message, ModelMessage } from '../message/message.js';
import { keepsReasoning, type Retention } from '../message/retention.js';
import type { PackedForms } from './packed-forms.js';
import type { TokenCounter } from '../tokens/token-counter.js';

/** Cursors of the current episode's reductions; each is a message index. */
export interface Reductions {
  /** Assistant messages before this index lose their reasoning. */
  reasoningDroppedBefore: number;
  /** Tool results before this index get the past-episode cap. */
  resultsShrunkBefore: number;
  /**
   * Tool results at these indexes (after `resultsShrunkBefore`) get the past-episode cap
   * too: the newest results of a step whose reasoning is bound to what was sent before
   * it, shortened when first sent so that nothing already sent has to change.
   */
  resultsShrunkAt: readonly number[];
  /**
   * Tool results at these indexes get the floor cap (little more than the marker that says
   * how to read them): the newest results of a bound step that would not fit even at the
   * past-episode cap, so that the step goes on with its reasoning and the result stays
   * readable through the reader of cut results.
   */
  resultsFloorAt: readonly number[];
  /** Steps (assistant message and its results) from `stepsHeadEnd` up to this index are left out. */
  stepsDroppedBefore: number;
  /**
   * Steps before this index are the episode's head: they stay when steps are left out, so
   * the cached prefix up to them survives each cut. The episode's start when it has none.
   */
  stepsHeadEnd: number;
}

export interface EpisodeContext {
  messages: readonly Message[];
  forms: PackedForms;
  counter: TokenCounter;
  retention: Retention;
  pastCap: number;
  currentCap: number;
  /** The smallest cap, for the newest results of a bound step that fit no other way. */
  floorCap: number;
}

/** The packed messages of an episode and their accounting. */
export interface PackedEpisode {
  messages: ModelMessage[];
  tokens: number;
  reasoningKeptParts: number;
  reasoningDroppedParts: number;
  reasoningKeptTokens: number;
  reasoningDroppedTokens: number;
  truncatedResults: number;
  unpairedDropped: number;
  /** Past reasoning parts kept only because the provider hides them (a deferred boundary drop). */
  hiddenReasoningParts: number;
}

/** Tool-call ids that have a result in the same episode, and vice versa. */
function pairedIds(messages: readonly Message[], start: number, end: number): Set<string> {
  const calls = new Set<string>();
  const paired = new Set<string>();
  for (let index = start; index < end; index += 1) {
    const message = messages[index] as Message;
    if (message.role === 'assistant') {
      for (const part of message.content) if (part.type === 'tool-call') calls.add(part.id);
    } else if (message.role === 'tool' && calls.has(message.toolCallId)) {
      paired.add(message.toolCallId);
    }
  }
  return paired;
}

/**
 * The packed form of an assistant message, with (`keep`) or without its reasoning;
 * its reasoning parts and tokens and its calls without a result are tallied in `out`.
 */
function packAssistant(
  { forms }: EpisodeContext,
  message: AssistantMessage,
  { keep, hidden, paired }: { keep: boolean; hidden: boolean; paired: ReadonlySet<string> },
  out: PackedEpisode,
): ModelMessage | null {
  const packed = forms.assistant(message, keep, paired);
  const reasoningParts = message.content.reduce((count, part) => count + (part.type === 'reasoning' ? 1 : 0), 0);
  if (reasoningParts > 0) {
    const tokens = forms.reasoningTokens(message);
    if (hidden) out.hiddenReasoningParts += reasoningParts;
    if (keep) {
      out.reasoningKeptParts += reasoningParts;
      out.reasoningKeptTokens += tokens;
    } else {
      out.reasoningDroppedParts += reasoningParts;
      out.reasoningDroppedTokens += tokens;
    }
  }
  for (const part of message.content) if (part.type === 'tool-call' && !paired.has(part.id)) out.unpairedDropped += 1;
  return packed;
}

/** The cap of the current episode's tool result at `index` under `reductions`. */
function currentResultCap(context: EpisodeContext, reductions: Reductions, index: number): number {
  if (reductions.resultsFloorAt.includes(index)) return context.floorCap;
  if (index < reductions.resultsShrunkBefore || reductions.resultsShrunkAt.includes(index)) return context.pastCap;
  return context.currentCap;
}

/**
 * Packs messages `start..end` of the transcript. `reductions` is given for the
 * current episode only; `hiddenReasoning` for a past episode whose reasoning bytes
 * stay because the provider keeps them from the model (see `reasoning-boundary.ts`).
 */
export function packEpisode(
  context: EpisodeContext,
  start: number,
  end: number,
  reductions?: Reductions,
  hiddenReasoning = false,
): PackedEpisode {
  const { messages, forms, counter } = context;
  const current = reductions !== undefined;
  const paired = pairedIds(messages, start, end);
  const out: PackedEpisode = {
    messages: [],
    tokens: 0,
    reasoningKeptParts: 0,
    reasoningDroppedParts: 0,
    reasoningKeptTokens: 0,
    reasoningDroppedTokens: 0,
    truncatedResults: 0,
    unpairedDropped: 0,
    hiddenReasoningParts: 0,
  };
  for (let index = start; index < end; index += 1) {
    const message = messages[index] as Message;
    // Summary lines are read by the packer as a whole (pack-summary.ts), never sent where they stand.
    if (message.role === 'summary') continue;
    // Dropping steps leaves the user's messages and instructions: they are what the steps answered.
    const step = message.role === 'assistant' || message.role === 'tool';
    if (reductions && step && index >= reductions.stepsHeadEnd && index < reductions.stepsDroppedBefore) continue;
    let packed: ModelMessage | null = message;
    if (message.role === 'assistant') {
      const hasCalls = message.content.some((part) => part.type === 'tool-call' && paired.has(part.id));
      const retained = keepsReasoning(context.retention, current, hasCalls);
      const hidden = hiddenReasoning && !current && !retained && context.retention !== 'none';
      const keep = (retained || hidden) && !(reductions && index < reductions.reasoningDroppedBefore);
      packed = packAssistant(context, message, { keep, hidden, paired }, out);
    } else if (message.role === 'tool') {
      if (!paired.has(message.toolCallId)) {
        out.unpairedDropped += 1;
        continue;
      }
      const cap = reductions ? currentResultCap(context, reductions, index) : context.pastCap;
      packed = forms.tool(message, cap);
      if (packed !== message) out.truncatedResults += 1;
    }
    if (packed === null) continue;
    out.messages.push(packed);
    out.tokens += counter.countMessage(packed);
  }
  return out;
}
