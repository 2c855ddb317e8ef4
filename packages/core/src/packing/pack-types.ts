/**
 * Types of the context packer's public contract (see docs/architecture.md, "Packer").
 */
import type { Message, ModelMessage, ToolSpec } from '../message/message.js';
import type { Retention } from '../message/retention.js';
import type { CacheBreakpoints } from '../model/model-adapter.js';
import type { SummaryRequest } from './pack-summary.js';
import type { TokenCounter } from '../tokens/token-counter.js';

/**
 * What a provider does with reasoning from before the last user message, and its cache
 * prices: the packer's boundary drop is priced with them (see `reasoning-boundary.ts`).
 */
export interface ReasoningBoundary {
  /**
   * The provider keeps such reasoning from the model (it strips or ignores it before the
   * model reads the prompt). Without this the packer drops it at the boundary, always.
   */
  hiddenByProvider: boolean;
  /** Sent-back reasoning is billed as input (read from the cache on each later call). */
  billed: boolean;
  /** Prices of one input token: uncached, written to the cache, read from it (any unit, the same for all three). */
  prices: { input: number; cacheWrite: number; cacheRead: number };
}

/** The input of {@link packContext}. */
export interface PackOptions {
  /**
   * The transcript so far. Leading system messages are folded into `system`; summary
   * lines supply the summary of evicted episodes.
   */
  messages: readonly Message[];
  /** The stable prefix: system prompt. */
  system?: string;
  /** The stable prefix: tool definitions. */
  tools?: readonly ToolSpec[];
  /** Maximum input tokens for this call (as counted by `tokenizer`). */
  budget: number;
  retention?: Retention;
  /** Default: a shared o200k_base counter with a per-message cache. */
  tokenizer?: TokenCounter;
  /** From the previous call of the same session. */
  state?: PackState;
  /**
   * After an eviction the context is cut down to this share of the budget, so the
   * next calls can grow without evicting again (hysteresis). Default 0.5.
   */
  lowWater?: number;
  /**
   * Largest tool result of a past episode, in tokens. Default 1% of the budget, at most 900; at
   * least 512 where that is at most 4% of the budget; never under 64.
   */
  toolResultCap?: number;
  /**
   * Largest tool result of the current episode, in tokens. Default a quarter of the budget, at
   * most 25,000 (never below `toolResultCap`): a result under it goes whole until room runs
   * out, when the current episode's results are shortened to `toolResultCap`, oldest first.
   */
  currentToolResultCap?: number;
  /**
   * The name of a tool that reads cut results (the agent's `read_cut_result`). When set,
   * the marker of a shortened tool result also gives the cut characters' offsets in the
   * original text (characters 2400 to 14745, say) and the call that reads them: this
   * tool, with the result's `toolCallId` and the first cut character's `offset`.
   * Default: none (the marker says only how much was cut).
   */
  resultReader?: string;
  /**
   * Share of the budget the head may take: when the first eviction happens, the
   * first past episodes that fit in it stay, and later evictions take episodes from
   * after them, so the cached prefix up to the end of the head survives. An overlong
   * current episode keeps a head of its first steps the same way when steps are left
   * out. 0 evicts oldest first and leaves out the oldest steps. Default 0.35 (a new head
   * takes at most half of what the current episode leaves); must be below `lowWater`.
   */
  headShare?: number;
  /**
   * What the provider does with reasoning of earlier user turns, and its cache prices:
   * where it hides that reasoning from the model and keeping the bytes costs less than
   * the cache miss a drop causes, the drop waits for the next eviction (see
   * `reasoning-boundary.ts`). Absent: past reasoning is dropped at the boundary.
   */
  reasoningBoundary?: ReasoningBoundary;
  /**
   * The provider's cache lifetime, in milliseconds. With `now`, a pack more than this
   * after the previous one finds the cached prefix cold: it then drops kept reasoning and
   * evicts down to the low-water mark when above it, at no cache cost.
   */
  cacheTtlMs?: number;
  /** The time of this call, in milliseconds since the epoch (recorded in the state). */
  now?: number;
  /**
   * The model binds its reasoning to everything sent before it (Anthropic preserved
   * thinking: a changed prefix refuses or drops that reasoning, and a tool-use turn must
   * go on with its last step's reasoning). The packer then changes nothing already sent
   * while a step's reasoning waits for its tool results (the step's own new results give
   * way instead, shortened when first sent), and makes room beforehand: at a call with no
   * such reasoning under way it evicts once what is left under the budget is less than the
   * room the episode is foreseen to need, down to the low-water mark or below it where that
   * room needs it. See `bound-reasoning.ts` and `bound-room.ts`.
   */
  boundReasoning?: boolean;
}

/** Carried between calls of one session. Treat as opaque; it is JSON-serialisable. */
export interface PackState {
  version: 1;
  /** Past episodes evicted (a preamble counts as one). */
  evictedEpisodes: number;
  /**
   * The head: past episodes `start` to `end` (exclusive) kept at the front. Episodes
   * before it and the `evictedEpisodes - start` after it are evicted. Absent in
   * states from before heads, which evicted from the front.
   */
  head?: { start: number; end: number };
  /** The evicted episodes whose summary was sent. */
  summarized?: { from: number; to: number };
  /** @deprecated Written when summaries came from a synchronous hook; ignored. */
  summary?: { episodes: number; text: string };
  /** The current episode's start index and the reductions applied to it so far. */
  current?: {
    start: number;
    reasoningDroppedBefore: number;
    resultsShrunkBefore: number;
    stepsDroppedBefore: number;
    /** End of the steps kept at the front when later ones are left out; absent (the start) for none. */
    stepsHeadEnd?: number;
    /** Tool results past `resultsShrunkBefore` that were shortened when first sent (bound reasoning); absent for none. */
    resultsShrunkAt?: number[];
    /** Tool results sent at the floor cap when first sent (bound reasoning, no room otherwise); absent for none. */
    resultsFloorAt?: number[];
  };
  /** Fingerprint of the previous call's packed output, for predicted cache reuse. */
  previous?: { prefixKey: string; messageKeys: string[] };
  /** Past episodes (`[from, to)` ranges) whose reasoning bytes are kept, hidden by the provider. */
  keptReasoning?: [number, number][];
  /** When the previous call was packed (`PackOptions.now`), for the cache lifetime. */
  packedAt?: number;
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
  /** Past episodes evicted (total so far in this session). */
  evictedEpisodes: number;
  /** Past episodes kept at the front as the head while later ones are evicted. */
  headEpisodes: number;
  /** True when this call evicted more episodes than the previous one. */
  evictedNow: boolean;
  /** True when the summary sent differs from the previous call's (a summary line arrived, or it was dropped). */
  summaryChangedNow: boolean;
  /** Tool results sent shortened. */
  truncatedToolResults: number;
  /** True when the current episode itself had to be cut (reasoning, results or steps). */
  currentEpisodeShortened: boolean;
  /** Messages dropped to keep tool calls and results paired (dangling calls, orphaned results). */
  unpairedDropped: number;
  /**
   * Suggested prompt-cache breakpoints: `prefix` (after system and tools) and
   * indexes into the packed messages (last message of the head, last message of
   * past history, last message), ascending.
   */
  cacheBreakpoints: CacheBreakpoints;
  /** Tokens at the start of this call that are byte-identical to the previous call's (predicted cache reuse). */
  prefixReuseTokens: number;
  /** Past reasoning parts sent only because the provider hides them from the model (a deferred boundary drop). */
  hiddenReasoningParts: number;
  /** True when the cache lifetime had lapsed since the previous call, so the head could be rewritten. */
  coldCache: boolean;
  /**
   * With `boundReasoning`: set when this call continues a step whose reasoning is bound to
   * the previous call's messages and the budget forced a change to them (an eviction, a
   * summary, a cut of the current episode), so that reasoning cannot go back. Absent otherwise.
   */
  boundReasoningCut?: true;
  /**
   * With `boundReasoningCut`: the tokens the call would have taken had it changed nothing
   * sent (the step's new results at their smallest, a marker and a few lines each). Over
   * the budget: appending could not go on, so the cut was unavoidable at this call. Absent
   * where the change had another cause (a system prompt or tools that changed, say).
   */
  boundAppendTokens?: number;
  /**
   * With `boundAppendTokens`: why appending could not fit, from the episode's least form (its
   * messages as sent, every result at the floor cap): `episode` where that alone is over the
   * budget, so no plan keeps the step's thinking; `history` where it fits alone but not
   * beside the history its user turn kept (the room foreseen for it was short); `results`
   * where it fits beside that history and the results sent earlier in the episode took the
   * room (a plan that shortened them sooner would have kept it).
   */
  boundCutCause?: BoundCutCause;
}

/** Why a bound step could not go on unchanged (`PackStats.boundCutCause`). */
export type BoundCutCause = 'episode' | 'history' | 'results';

/** The output of {@link packContext}: what the next model call sends, its stats, and the state for the next call. */
export interface PackResult {
  /** What the next model call sends, system lines excluded. */
  messages: ModelMessage[];
  /** The system prompt to send (including leading system messages of the transcript). */
  system: string | undefined;
  stats: PackStats;
  state: PackState;
  /**
   * Set when evicted episodes have no summary line yet: give them to a summarizer
   * and append its summary line to the transcript (the agent loop does this in the
   * background with `summarizer`; see `summaryInput`).
   */
  summaryRequest?: SummaryRequest;
}

/** Packing knobs passed through to `packContext`, as an agent sets them (`AgentOptions.context.pack`). */
export type PackTuning = Pick<
  PackOptions,
  | 'lowWater'
  | 'toolResultCap'
  | 'currentToolResultCap'
  | 'headShare'
  | 'reasoningBoundary'
  | 'cacheTtlMs'
  | 'resultReader'
  | 'boundReasoning'
>;
