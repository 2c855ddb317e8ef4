/**
 * Types of the context packer's public contract (see DESIGN.md, "Packer").
 */
import type { Message, ToolSpec } from '../message/message.js';
import type { Retention } from '../message/retention.js';
import type { TokenCounter } from '../tokens/token-counter.js';

/** Replaces evicted history with a summary. Called once per eviction event. */
export type SummarizeHook = (input: {
  /** Every evicted message so far, oldest first (in their packed past-episode form). */
  evicted: readonly Message[];
  /** The summary returned at the previous eviction event, if any. */
  previousSummary: string | undefined;
}) => string;

/** The input of {@link packContext}. */
export interface PackOptions {
  /** The transcript so far. Leading system messages are folded into `system`. */
  messages: readonly Message[];
  /** The stable prefix: system prompt. */
  system?: string;
  /** The stable prefix: tool definitions. */
  tools?: readonly ToolSpec[];
  /** Maximum input tokens for this call (as counted by `tokenizer`). */
  budget: number;
  retention?: Retention;
  /** Default: a shared tiktoken o200k_base counter with a per-message cache. */
  tokenizer?: TokenCounter;
  /** From the previous call of the same session. */
  state?: PackState;
  /**
   * After an eviction the context is cut down to this share of the budget, so the
   * next calls can grow without evicting again (hysteresis). Default 0.7.
   */
  lowWater?: number;
  /** Largest tool result of a past episode, in tokens. Default 0.5% of the budget, at least 64 and at most 2,000. */
  toolResultCap?: number;
  /** Largest tool result of the current episode, in tokens. Default min(16,000, 10% of budget). */
  currentToolResultCap?: number;
  /** Replaces evicted episodes with a summary message placed right after the stable prefix. */
  summarize?: SummarizeHook;
}

/** Carried between calls of one session. Treat as opaque; it is JSON-serialisable. */
export interface PackState {
  version: 1;
  /** Leading episodes evicted (a preamble counts as one). Only grows. */
  evictedEpisodes: number;
  /** The latest summary and how many episodes it covers. */
  summary?: { episodes: number; text: string };
  /** The current episode's start index and the reductions applied to it so far. */
  current?: { start: number; reasoningDroppedBefore: number; resultsShrunkBefore: number; stepsDroppedBefore: number };
  /** Fingerprint of the previous call's packed output, for predicted cache reuse. */
  previous?: { prefixKey: string; messageKeys: string[] };
}

/** What one packing did: tokens by section, reasoning kept and dropped, evictions, cuts, predicted cache reuse. */
export interface PackStats {
  budget: number;
  tokens: {
    system: number;
    tools: number;
    summary: number;
    /** Past episodes that were kept. */
    history: number;
    currentEpisode: number;
    /** Includes the reply priming. Never above the budget. */
    total: number;
  };
  reasoning: { keptParts: number; droppedParts: number; keptTokens: number; droppedTokens: number };
  /** Episodes evicted from the front (total so far in this session). */
  evictedEpisodes: number;
  /** True when this call evicted more episodes than the previous one. */
  evictedNow: boolean;
  /** Tool results sent shortened. */
  truncatedToolResults: number;
  /** True when the current episode itself had to be cut (reasoning, results or steps). */
  currentEpisodeShortened: boolean;
  /** Messages dropped to keep tool calls and results paired (dangling calls, orphaned results). */
  unpairedDropped: number;
  /**
   * Suggested prompt-cache breakpoints: `prefix` (after system and tools) and
   * indexes into the packed messages (last message of past history, last message).
   */
  cacheBreakpoints: { prefix: boolean; messages: number[] };
  /** Tokens at the start of this call that are byte-identical to the previous call's (predicted cache reuse). */
  prefixReuseTokens: number;
}

/** The output of {@link packContext}: what the next model call sends, its stats, and the state for the next call. */
export interface PackResult {
  /** What the next model call sends, system lines excluded. */
  messages: Message[];
  /** The system prompt to send (including leading system messages of the transcript). */
  system: string | undefined;
  stats: PackStats;
  state: PackState;
}
