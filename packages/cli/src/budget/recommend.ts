/**
 * The budget `episodic budget` recommends: the smallest that keeps the current
 * episode whole in at least 99% of calls, priced against the largest budget asked.
 */
import type { Retention } from '@episodic/core';
import type { RunSummary } from './run-summary.js';

/** Share of calls that must keep the current episode whole. */
export const wholeEpisodeTarget = 0.99;

/** The recommendation for one retention. */
export interface Recommendation {
  retention: Retention;
  /** The recommended budget, or null when no budget asked meets the target. */
  budget: number | null;
  /** Share of calls that kept the current episode whole at `budget` (or at the best budget when none qualifies). */
  wholeShare: number;
  /** Estimated USD at `budget` (null when no budget qualifies). */
  cost: number | null;
  /** The largest budget asked and its cost, to compare with. */
  largest: { budget: number; cost: number; wholeShare: number };
  /** The best budget asked when none qualifies: the one with the highest share (smallest on ties). */
  best: { budget: number; wholeShare: number } | null;
}

/**
 * Recommends a budget among the runs of one retention (in any order). Returns
 * undefined when there are no runs.
 */
export function recommend(runs: readonly RunSummary[], target = wholeEpisodeTarget): Recommendation | undefined {
  const sorted = [...runs].sort((a, b) => a.budget - b.budget);
  const largestRun = sorted[sorted.length - 1];
  if (!largestRun) return undefined;
  const largest = { budget: largestRun.budget, cost: largestRun.cost.total, wholeShare: largestRun.wholeShare };
  const chosen = sorted.find((run) => run.wholeShare >= target);
  if (chosen) {
    return {
      retention: chosen.retention,
      budget: chosen.budget,
      wholeShare: chosen.wholeShare,
      cost: chosen.cost.total,
      largest,
      best: null,
    };
  }
  const best = sorted.reduce((top, run) => (run.wholeShare > top.wholeShare ? run : top));
  return {
    retention: largestRun.retention,
    budget: null,
    wholeShare: best.wholeShare,
    cost: null,
    largest,
    best: { budget: best.budget, wholeShare: best.wholeShare },
  };
}
