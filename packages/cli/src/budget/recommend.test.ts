import { describe, expect, it } from 'vitest';
import { recommend } from './recommend.js';
import type { RunSummary } from './run-summary.js';

/** A run whose current episode stayed whole in `whole` of `calls` calls. */
function runAt(budget: number, whole: number, cost: number, calls = 200): RunSummary {
  const shortenedCalls = calls - whole;
  return {
    budget,
    retention: 'episode',
    calls,
    inputTokens: budget * calls,
    reusedTokens: 0,
    cachedTokens: 0,
    cacheWriteTokens: 0,
    cachedShare: 0,
    cost: { input: cost, cachedRead: 0, cacheWrite: 0, total: cost },
    shortenedCalls,
    overflowCalls: 0,
    wholeShare: (calls - shortenedCalls) / calls,
    evictedEpisodes: 0,
    reasoningKeptTokens: 0,
    reasoningDroppedTokens: 0,
    largestCall: null,
  };
}

describe('recommend', () => {
  it('picks the smallest budget at or above 99% whole, whatever the order of the runs', () => {
    const runs = [runAt(128_000, 200, 9), runAt(16_000, 150, 2), runAt(64_000, 199, 5), runAt(32_000, 197, 3)];
    const found = recommend(runs)!;
    // 198/200 = 99% exactly would qualify; 197/200 = 98.5% does not.
    expect(found.budget).toBe(64_000);
    expect(found.cost).toBe(5);
    expect(found.wholeShare).toBe(0.995);
    expect(found.largest).toEqual({ budget: 128_000, cost: 9, wholeShare: 1 });
    expect(found.best).toBeNull();
  });

  it('counts exactly 99% as enough', () => {
    expect(recommend([runAt(8_000, 198, 1), runAt(16_000, 200, 2)])!.budget).toBe(8_000);
  });

  it('recommends nothing when no budget qualifies, naming the best (smallest on ties)', () => {
    const found = recommend([runAt(8_000, 100, 1), runAt(16_000, 150, 2), runAt(32_000, 150, 3)])!;
    expect(found.budget).toBeNull();
    expect(found.cost).toBeNull();
    expect(found.best).toEqual({ budget: 16_000, wholeShare: 0.75 });
    expect(found.largest.budget).toBe(32_000);
  });

  it('handles a single budget and no runs', () => {
    const single = recommend([runAt(16_000, 200, 2)])!;
    expect(single.budget).toBe(16_000);
    expect(single.largest.budget).toBe(16_000);
    expect(recommend([])).toBeUndefined();
  });

  it('takes a custom target', () => {
    const runs = [runAt(8_000, 180, 1), runAt(16_000, 200, 2)];
    expect(recommend(runs, 0.9)!.budget).toBe(8_000);
    expect(recommend(runs)!.budget).toBe(16_000);
  });
});
