/**
 * The figures `episodic budget` reports per budget and retention: sums over the
 * replayed calls of one run.
 */
import type { Retention } from '@episodic/core';
import type { CostBreakdown, EstimatedCall } from './cache-estimate.js';

/** One budget under one retention, summed over its calls. */
export interface RunSummary {
  budget: number;
  retention: Retention;
  calls: number;
  /** Of `calls`, the modelled reads of cut results (see `replay.ts`). */
  readCalls: number;
  /** Input tokens of every call that fit, summed, as sent. */
  inputTokens: number;
  /** Input tokens as the provider bills them (see `billed-view.ts`), summed. */
  billedTokens: number;
  /** Tokens byte-identical with the previous call, summed (whether cacheable or not). */
  reusedTokens: number;
  /** Predicted cache reads, summed. */
  cachedTokens: number;
  cacheWriteTokens: number;
  /** `cachedTokens / billedTokens` (0 when nothing was sent). */
  cachedShare: number;
  /** Billed input not read from the cache (plain input and cache writes), summed: what drives cost. */
  uncachedTokens: number;
  /** Null when no price is known. */
  cost: CostBreakdown | null;
  /** Calls whose current episode was shortened, including calls that did not fit. */
  shortenedCalls: number;
  /** Calls that could not be made: the minimum context exceeded the budget. */
  overflowCalls: number;
  /** Share of calls that kept the current episode whole. */
  wholeShare: number;
  /** Episodes evicted by the end of the session. */
  evictedEpisodes: number;
  /** Reasoning tokens sent, summed over calls. */
  reasoningKeptTokens: number;
  /** Reasoning tokens left out, summed over calls. */
  reasoningDroppedTokens: number;
  /** The call that sent the most tokens (null when no call fit). */
  largestCall: { call: number; line: number; tokens: number } | null;
}

/** Sums the calls of one run. */
export function summarizeRun(budget: number, retention: Retention, calls: readonly EstimatedCall[]): RunSummary {
  const sum = (pick: (call: EstimatedCall) => number) => calls.reduce((total, call) => total + pick(call), 0);
  const inputTokens = sum((call) => call.tokens.total);
  const billedTokens = sum((call) => call.billedTokens);
  const cachedTokens = sum((call) => call.cachedTokens);
  const shortenedCalls = calls.filter((call) => call.shortened).length;
  const readCalls = calls.filter((call) => call.read).length;
  let largest: EstimatedCall | undefined;
  for (const call of calls) if (call.fit && (!largest || call.tokens.total > largest.tokens.total)) largest = call;
  return {
    budget,
    retention,
    calls: calls.length,
    readCalls,
    inputTokens,
    billedTokens,
    reusedTokens: sum((call) => call.reusedTokens),
    cachedTokens,
    cacheWriteTokens: sum((call) => call.cacheWriteTokens),
    cachedShare: billedTokens > 0 ? cachedTokens / billedTokens : 0,
    uncachedTokens: sum((call) => call.uncachedTokens + call.cacheWriteTokens),
    cost: calls.every((call) => call.cost !== null)
      ? {
          input: sum((call) => call.cost!.input),
          cachedRead: sum((call) => call.cost!.cachedRead),
          cacheWrite: sum((call) => call.cost!.cacheWrite),
          total: sum((call) => call.cost!.total),
        }
      : null,
    shortenedCalls,
    overflowCalls: calls.filter((call) => !call.fit).length,
    // Of the calls the session made: a modelled read neither keeps nor loses the current episode.
    wholeShare: calls.length > readCalls ? (calls.length - readCalls - shortenedCalls) / (calls.length - readCalls) : 1,
    evictedEpisodes: calls.reduce((most, call) => Math.max(most, call.evictedEpisodes), 0),
    reasoningKeptTokens: sum((call) => call.reasoningKeptTokens),
    reasoningDroppedTokens: sum((call) => call.reasoningDroppedTokens),
    largestCall: largest ? { call: largest.call, line: largest.line, tokens: largest.tokens.total } : null,
  };
}
