/**
 * What the context-policy replay (`context-policies.ts`) replays with, and what one
 * replay of a session under one policy comes to.
 */
import type { ContextPolicy, ModelRef, PastReasoning, Pricing } from '@episodic/core';
import type { PackOptions } from '@episodic/core/packing';
import type { OnDemandOptions } from './on-demand-replay.js';

/** What the model replays with: who answers, the cache and the prices. */
export interface PolicyModel {
  model: ModelRef;
  budget: number;
  cache: 'openai' | 'anthropic' | 'none';
  minCacheableTokens: number;
  pricing: Pricing | undefined;
  /** What the agent takes from the model's profile (`packingForProfile`); none when absent. */
  packing?: Pick<PackOptions, 'reasoningBoundary' | 'cacheTtlMs' | 'boundReasoning'>;
  /** How the provider treats earlier turns' reasoning that is sent (the profile's); default `billed`. */
  pastReasoning?: PastReasoning;
  /** The provider binds reasoning to its prefix (the profile's `signatureBoundToPrefix`); default false. */
  boundReasoning?: boolean;
  /**
   * How `native` and `hybrid` compact: the server-side threshold pass (`compact_20260112`,
   * OpenAI's `compact_threshold`) or on demand (the profile's `nativeContext.compaction.onDemand`);
   * default `threshold`.
   */
  compaction?: CompactionKind;
  /** On-demand compaction's settings (kept turns, background); the agent's defaults when absent. */
  onDemand?: OnDemandOptions;
}

/** How the provider compacts: inside the call past a threshold, or in a request of its own (see `context-policies.ts`). */
export type CompactionKind = 'threshold' | 'on-demand';

/** One policy's replay of a session. */
export interface PolicyRun {
  policy: ContextPolicy;
  calls: number;
  /** Input tokens of all calls, compaction passes included. */
  inputTokens: number;
  cachedTokens: number;
  /** USD of the input (and the compaction summaries' output); undefined without prices. */
  cost: number | undefined;
  compactions: number;
  /** Input tokens replaced by summaries: what the model lost to compaction. */
  compactedTokens: number;
  /** Calls that evicted episodes. */
  evictingCalls: number;
  /** Calls whose minimum context did not fit the budget. */
  skipped: number;
  /** Reasoning parts left out because their bound prefix changed (each counted once; 0 where nothing is bound). */
  boundDropped: number;
  /** What the calls after a compaction continue from (`native` unless set). */
  checkpoints?: CheckpointKind;
  /** Summarizer calls that wrote text checkpoints: their input tokens (in `inputTokens`) and USD (in `cost`). */
  summarizerTokens?: number;
  summarizerCost?: number;
  /** Native checkpoints with a price: USD of a text summary of each compaction kept beside its item (not in `cost`). */
  checkpointCost?: number;
  /** Set when the run compacted on demand (`PolicyModel.compaction`). */
  onDemand?: OnDemandRun;
}

/** What on-demand compaction cost a run, and how its swaps landed. */
export interface OnDemandRun {
  /** Input tokens of the compaction requests (in `inputTokens`), and of those read from the cache. */
  requestTokens: number;
  requestCachedTokens: number;
  /** USD of the compaction requests, input and summary (in `cost`); undefined without prices. */
  requestCost: number | undefined;
  /** Swaps that landed an episode or more after their request (the conversation went on meanwhile). */
  lateSwaps: number;
  /** Tokens the first call after each swap wrote to the cache again (the swap changed the prefix). */
  swapWriteTokens: number;
}

/** What the calls after a compaction continue from: the provider's item, or Episodic's text summary of it. */
export type CheckpointKind = 'native' | 'text';
