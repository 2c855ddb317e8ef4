/**
 * Replays a recorded session call by call: one model call per assistant message,
 * each packing the transcript before it, with the pack state carried from call to
 * call as a live session carries it. This is what `npm run bench` does for its
 * Episodic strategy, so the same settings give the same tokens. Each call is also
 * seen as the provider bills it (see `billed-view.ts`).
 */
import {
  ContextOverflowError,
  isEpisodeStart,
  type Message,
  type Retention,
  type TokenCounter,
  toolResultText,
  type ToolSpec,
} from '@episodic/core';
import { type PackState, type PackStats, packContext } from '@episodic/core/packing';
import { FRAMING, modelledReads, packingWithReader, readerCap } from '@episodic/core/internal';
import { type BilledRequest, BilledView } from './billed-view.js';
import { BoundReplay } from './bound-replay.js';
import { requestTime } from './call-time.js';

/** One replayed model call. */
export interface ReplayedCall {
  /** 0-based call number. */
  call: number;
  /** 1-based transcript line of the assistant message this call produced. */
  line: number;
  /** Episode of the call: the number of user messages before it (0 for a preamble). */
  episode: number;
  /** The first call of an episode: a user message came right before it. */
  boundary: boolean;
  /** False when even the minimum context did not fit the budget (the call could not be made). */
  fit: boolean;
  /** Tokens by section; zeros when the call did not fit. */
  tokens: PackStats['tokens'];
  /** Tokens at the start byte-identical to the previous call's (0 for the first call and after a failure). */
  reusedTokens: number;
  /** Input the provider bills for the call (see `billed-view.ts`); 0 when the call did not fit. */
  billedTokens: number;
  /** Of the billed input, what is the same as the previous call's billed input (what a cache can serve). */
  billedReusedTokens: number;
  /** When the call did not fit: the tokens its minimum context needs. */
  requiredTokens?: number;
  /** When the call was made (milliseconds), when the recording says. */
  requestTime?: number;
  /**
   * The current episode was not sent whole: the packer cut it (reasoning, results or
   * steps) to fit, a tool result of it was sent shorter than with unlimited room at the
   * same tool-result caps, or the call did not fit at all.
   */
  shortened: boolean;
  /** Current-episode tool results sent shortened: characters sent, by tool call id. */
  cutResults: Record<string, number>;
  /** This call evicted episodes. */
  evictedNow: boolean;
  /** Episodes evicted so far. */
  evictedEpisodes: number;
  reasoningKeptTokens: number;
  reasoningDroppedTokens: number;
  /**
   * A modelled read of a cut result (see `modelledReads` in @episodic/core/internal): a call
   * the model is assumed to make right after the call before it, which sent a result cut.
   */
  read?: true;
}

/** What one replay packs with. */
export interface ReplaySettings {
  /** The whole recorded transcript, system lines included. */
  messages: readonly Message[];
  system?: string | undefined;
  tools?: readonly ToolSpec[] | undefined;
  budget: number;
  retention: Retention;
  /** One counter shared by every replay of a session, so each message is counted once. */
  counter: TokenCounter;
  /** Called after each call, for progress. */
  onCall?: () => void;
  /** How the provider bills a request. Default: as sent. */
  billing?: BilledView | undefined;
  /** Transcript line of each message, when `messages` is not the whole transcript. Default: index + 1. */
  lines?: readonly number[] | undefined;
  /**
   * The same session replayed with unlimited room at this budget's tool-result caps:
   * a result cut there too (to its cap) only counts as shortened when cut more.
   */
  reference?: readonly ReplayedCall[] | undefined;
  /** Tool-result caps to pack with instead of the budget's defaults (the reference replay). */
  caps?: { toolResultCap: number; currentToolResultCap: number } | undefined;
  /** Model the reads of cut results as calls (default true; the reference replay needs none). */
  reads?: boolean | undefined;
}

/** A budget no session reaches: nothing is evicted and the result caps are at their largest. */
export const unlimitedBudget = Number.MAX_SAFE_INTEGER;

const noTokens = (): PackStats['tokens'] => ({
  system: 0,
  tools: 0,
  summary: 0,
  history: 0,
  currentEpisode: 0,
  total: 0,
});

/** The assistant messages of a transcript: one model call each. */
export function countCalls(messages: readonly Message[]): number {
  return messages.filter((message) => message.role === 'assistant').length;
}

/** Replays every call of the session under one budget and retention. */
export function replaySession(settings: ReplaySettings): ReplayedCall[] {
  const { messages } = settings;
  const calls: ReplayedCall[] = [];
  const originals = new Set<Message>(messages);
  let state: PackState | undefined;
  // The first call, and a call after one that could not be made, have no previous request to reuse.
  let previousSent = false;
  let episode = 0;
  let hasContext = false;
  let previousBilled: BilledRequest | undefined;
  // Bound reasoning: a block after a changed prefix is left out (and not billed); state of this replay alone.
  const bound = settings.billing?.boundReasoning ? new BoundReplay() : undefined;
  // The calls the reference replay made, without its reads: one per assistant message, as here.
  const reference = settings.reference?.filter((call) => !call.read);
  let made = 0;
  let calledAt = 0;
  const readCap = readerCap(settings.budget, settings.caps);
  for (let index = 0; index < messages.length; index += 1) {
    const message = messages[index]!;
    if (isEpisodeStart(message)) episode += 1;
    const hadContext = hasContext;
    if (message.role !== 'system') hasContext = true;
    // A reply to nothing but the system prompt cannot be packed (nor, really, be a call).
    if (message.role !== 'assistant' || !hadContext) continue;
    const line = settings.lines?.[index] ?? index + 1;
    const time = requestTime(messages, index);
    const base = {
      call: calls.length,
      line,
      episode,
      boundary: startsEpisodeBefore(messages, index),
      ...(time === undefined ? {} : { requestTime: time }),
    };
    try {
      const result = packContext({
        messages: messages.slice(0, index),
        system: settings.system,
        tools: settings.tools,
        budget: settings.budget,
        retention: settings.retention,
        tokenizer: settings.counter,
        state,
        ...settings.caps,
        // What an agent sends: a cut result's marker names the reader tool (cutResults: 'readable').
        ...packingWithReader('readable', settings.budget, settings.caps ?? {}),
      });
      state = result.state;
      const cutResults = currentResultsCut(result.messages, originals);
      const cutByThisBudget = cutByBudget(cutResults, reference?.[made]);
      const sent = bound ? bound.apply(result.messages) : result.messages;
      const billed = billedOf(settings.billing, sent, result.stats, previousSent ? previousBilled : undefined);
      calls.push(packedCall(base, result.stats, { previousSent, cutResults, cutByThisBudget, billed }));
      if (settings.reads !== false) {
        const fresh = messages.slice(calledAt, index);
        for (const read of modelledReads(result.messages, fresh, settings.counter, readCap)) {
          calls.push(readCall(calls[calls.length - 1]!, read, settings.budget, settings.counter));
        }
      }
      previousBilled = billed.request;
      previousSent = true;
    } catch (error) {
      if (!(error instanceof ContextOverflowError)) throw error;
      calls.push(overflowCall(base, state?.evictedEpisodes ?? 0, error.required));
      previousSent = false;
    }
    made += 1;
    calledAt = index;
    settings.onCall?.();
  }
  return calls;
}

type CallBase = Pick<ReplayedCall, 'call' | 'line' | 'episode' | 'boundary' | 'requestTime'>;

interface Billed {
  tokens: number;
  reused: number;
  request: BilledRequest | undefined;
}

/** The call as billed: as sent when there is no billing view. */
function billedOf(
  view: BilledView | undefined,
  packed: readonly Message[],
  stats: PackStats,
  previous: BilledRequest | undefined,
): Billed {
  if (!view) return { tokens: stats.tokens.total, reused: stats.prefixReuseTokens, request: undefined };
  const request = view.of(packed);
  const fixed = stats.tokens.system + stats.tokens.tools;
  const reply = stats.tokens.total - stats.tokens.system - stats.tokens.tools - sumSent(stats);
  const tokens = fixed + request.messageTokens + reply;
  const reused = previous ? fixed + BilledView.shared(previous, request).tokens : 0;
  return { tokens, reused, request };
}

/** Tokens of the packed messages, as the packer counted them. */
function sumSent(stats: PackStats): number {
  return stats.tokens.summary + stats.tokens.history + stats.tokens.currentEpisode;
}

function packedCall(
  base: CallBase,
  stats: PackStats,
  found: { previousSent: boolean; cutResults: Record<string, number>; cutByThisBudget: boolean; billed: Billed },
): ReplayedCall {
  return {
    ...base,
    fit: true,
    tokens: stats.tokens,
    reusedTokens: found.previousSent ? stats.prefixReuseTokens : 0,
    billedTokens: found.billed.tokens,
    billedReusedTokens: found.previousSent ? Math.min(found.billed.reused, found.billed.tokens) : 0,
    shortened: stats.currentEpisodeShortened || found.cutByThisBudget,
    cutResults: found.cutResults,
    evictedNow: stats.evictedNow,
    evictedEpisodes: stats.evictedEpisodes,
    reasoningKeptTokens: stats.reasoning.keptTokens,
    reasoningDroppedTokens: stats.reasoning.droppedTokens,
  };
}

/**
 * A modelled read after `last`: it sends what `last` sent (a prefix the cache holds) and
 * the read, within the budget, as the benchmarks' recorder counts it (bench/metrics.js).
 */
function readCall(last: ReplayedCall, read: number, budget: number, counter: TokenCounter): ReplayedCall {
  const total = Math.min(budget, last.tokens.total + read);
  const added = total - last.tokens.total;
  const reply = counter.calibration.apply(FRAMING.reply);
  return {
    ...last,
    call: last.call + 1,
    boundary: false,
    tokens: { ...last.tokens, currentEpisode: last.tokens.currentEpisode + added, total },
    reusedTokens: last.tokens.total - reply,
    billedTokens: last.billedTokens + added,
    billedReusedTokens: last.billedTokens - reply,
    shortened: false,
    cutResults: {},
    evictedNow: false,
    read: true,
  };
}

function overflowCall(base: CallBase, evictedEpisodes: number, requiredTokens: number): ReplayedCall {
  return {
    ...base,
    fit: false,
    tokens: noTokens(),
    reusedTokens: 0,
    billedTokens: 0,
    billedReusedTokens: 0,
    requiredTokens,
    shortened: true,
    cutResults: {},
    evictedNow: false,
    evictedEpisodes,
    reasoningKeptTokens: 0,
    reasoningDroppedTokens: 0,
  };
}

/** A real user message came after the previous call (injected context and instructions do not count). */
function startsEpisodeBefore(messages: readonly Message[], index: number): boolean {
  for (let before = index - 1; before >= 0; before -= 1) {
    const message = messages[before]!;
    if (message.role === 'assistant') return false;
    if (isEpisodeStart(message)) return true;
  }
  return false;
}

/**
 * The tool results of the current episode that went out shortened. The packer sends
 * a result it shortens as a new object, so identity tells; the current episode is
 * everything after the last user message of what was packed.
 */
function currentResultsCut(packed: readonly Message[], originals: ReadonlySet<Message>): Record<string, number> {
  const cut: Record<string, number> = {};
  for (let index = packed.length - 1; index >= 0; index -= 1) {
    const message = packed[index]!;
    if (isEpisodeStart(message)) break;
    if (message.role === 'tool' && !originals.has(message)) cut[message.toolCallId] = toolResultText(message).length;
  }
  return cut;
}

/** A result is cut by the budget when the replay with unlimited room (same caps) sent it whole, or longer. */
function cutByBudget(cut: Record<string, number>, reference: ReplayedCall | undefined): boolean {
  return Object.entries(cut).some(([id, sent]) => {
    const unlimited = reference?.cutResults[id];
    return unlimited === undefined || sent < unlimited;
  });
}
