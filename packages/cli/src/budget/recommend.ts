/**
 * The budget `episodic budget` recommends: the cheapest run (budget and retention)
 * whose quality meets a bar the user sets. Quality is the share of calls that keep
 * the current episode whole; evictions and reasoning dropped are shown beside it.
 * Cheapest is by predicted input cost, or, with no price known, by the input tokens
 * not read from the cache (what drives cost with every provider).
 */
import type { Retention } from '@episodic/core';
import type { RunSummary } from './run-summary.js';

/** The default bar: the current episode whole in at least 99% of calls. */
export const defaultQualityBar = 0.99;

/** One run as the recommendation shows it. */
export interface RunChoice {
  retention: Retention;
  budget: number;
  /** Predicted input cost in USD; null without a price. */
  cost: number | null;
  uncachedTokens: number;
  billedTokens: number;
  cachedShare: number;
  /** Share of calls that kept the current episode whole. */
  wholeShare: number;
  evictedEpisodes: number;
  reasoningDroppedTokens: number;
}

/** What the recommendation found. */
export interface Recommendation {
  /** The share of calls that must keep the current episode whole. */
  bar: number;
  /** `cost` when every run is priced, else `uncached-tokens`. */
  rankedBy: 'cost' | 'uncached-tokens';
  /** The cheapest run meeting the bar over every retention and budget; null when none does. */
  best: RunChoice | null;
  /** Per retention: its cheapest run meeting the bar (null when none does), and its best run by quality. */
  byRetention: { retention: Retention; choice: RunChoice | null; closest: RunChoice }[];
  /** Set when no budget asked could hold the session's fixed prefix: why, and the smallest that can. */
  noRoom?: string;
}

/** Recommends among `runs` (any order); undefined when there are none. */
export function recommend(runs: readonly RunSummary[], bar = defaultQualityBar): Recommendation | undefined {
  if (runs.length === 0) return undefined;
  const rankedBy = runs.every((run) => run.cost !== null) ? 'cost' : 'uncached-tokens';
  const price = (run: RunSummary) => (rankedBy === 'cost' ? run.cost!.total : run.uncachedTokens);
  // Cheapest first; on a tie the smaller budget (the same figures with less room taken).
  const cheapest = (candidates: readonly RunSummary[]) =>
    [...candidates].sort((a, b) => price(a) - price(b) || a.budget - b.budget)[0];
  const meeting = runs.filter((run) => run.wholeShare >= bar);
  const retentions = [...new Set(runs.map((run) => run.retention))];
  const byRetention = retentions.map((retention) => {
    const own = runs.filter((run) => run.retention === retention);
    const choice = cheapest(own.filter((run) => run.wholeShare >= bar));
    const closest = [...own].sort((a, b) => b.wholeShare - a.wholeShare || a.budget - b.budget)[0]!;
    return { retention, choice: choice ? choiceOf(choice) : null, closest: choiceOf(closest) };
  });
  const best = cheapest(meeting);
  return { bar, rankedBy, best: best ? choiceOf(best) : null, byRetention };
}

function choiceOf(run: RunSummary): RunChoice {
  return {
    retention: run.retention,
    budget: run.budget,
    cost: run.cost?.total ?? null,
    uncachedTokens: run.uncachedTokens,
    billedTokens: run.billedTokens,
    cachedShare: run.cachedShare,
    wholeShare: run.wholeShare,
    evictedEpisodes: run.evictedEpisodes,
    reasoningDroppedTokens: run.reasoningDroppedTokens,
  };
}
