import type { Retention } from '@episodic/core';
import { describe, expect, it } from 'vitest';
import { recommend } from './recommend.js';
import type { RunSummary } from './run-summary.js';

/** A run whose current episode stayed whole in `whole` of `calls` calls; `cost` null for an unpriced one. */
function runAt(
  budget: number,
  whole: number,
  cost: number | null,
  options: { retention?: Retention; uncached?: number; calls?: number } = {},
): RunSummary {
  const calls = options.calls ?? 200;
  return {
    budget,
    retention: options.retention ?? 'episode',
    calls,
    readCalls: 0,
    inputTokens: budget * calls,
    billedTokens: budget * calls,
    reusedTokens: 0,
    cachedTokens: 0,
    cacheWriteTokens: 0,
    cachedShare: 0,
    uncachedTokens: options.uncached ?? budget,
    cost: cost === null ? null : { input: cost, cachedRead: 0, cacheWrite: 0, total: cost },
    shortenedCalls: calls - whole,
    overflowCalls: 0,
    wholeShare: whole / calls,
    evictedEpisodes: 0,
    reasoningKeptTokens: 0,
    reasoningDroppedTokens: 0,
    largestCall: null,
  };
}

describe('recommend', () => {
  it('picks the cheapest run at or above the bar, not the smallest budget', () => {
    // A larger budget that stays cached can cost less than a smaller one that evicts.
    const runs = [runAt(16_000, 150, 2), runAt(32_000, 198, 6), runAt(64_000, 200, 5), runAt(128_000, 200, 9)];
    const found = recommend(runs)!;
    expect(found.best).toMatchObject({ budget: 64_000, cost: 5, wholeShare: 1 });
    expect(found.rankedBy).toBe('cost');
  });

  it('compares every retention and says which is cheapest for each', () => {
    const runs = [
      runAt(64_000, 200, 5, { retention: 'episode' }),
      runAt(64_000, 200, 4, { retention: 'all' }),
      runAt(32_000, 200, 4.5, { retention: 'all' }),
      runAt(64_000, 150, 1, { retention: 'tool-episodes' }),
    ];
    const found = recommend(runs)!;
    expect(found.best).toMatchObject({ retention: 'all', budget: 64_000 });
    expect(found.byRetention.map((entry) => [entry.retention, entry.choice?.budget ?? null])).toEqual([
      ['episode', 64_000],
      ['all', 64_000],
      ['tool-episodes', null],
    ]);
    expect(found.byRetention[2]!.closest).toMatchObject({ budget: 64_000, wholeShare: 0.75 });
  });

  it('counts exactly the bar as enough, takes a custom bar, and prefers the smaller budget on a tie', () => {
    expect(recommend([runAt(32_000, 198, 3), runAt(64_000, 200, 5)])!.best?.budget).toBe(32_000);
    expect(recommend([runAt(32_000, 180, 3), runAt(64_000, 200, 5)], 0.9)!.best?.budget).toBe(32_000);
    expect(recommend([runAt(32_000, 180, 3), runAt(64_000, 200, 5)], 0.95)!.best?.budget).toBe(64_000);
    expect(recommend([runAt(64_000, 200, 5), runAt(32_000, 200, 5)])!.best?.budget).toBe(32_000);
  });

  it('recommends nothing when no run meets the bar, naming the closest per retention', () => {
    const found = recommend([runAt(16_000, 100, 2), runAt(32_000, 150, 3), runAt(64_000, 150, 4)])!;
    expect(found.best).toBeNull();
    expect(found.byRetention[0]).toMatchObject({ choice: null, closest: { budget: 32_000 } });
  });

  it('ranks by input not read from the cache when no price is known', () => {
    const runs = [runAt(32_000, 200, null, { uncached: 900 }), runAt(64_000, 200, null, { uncached: 400 })];
    const found = recommend(runs)!;
    expect(found.rankedBy).toBe('uncached-tokens');
    expect(found.best).toMatchObject({ budget: 64_000, cost: null, uncachedTokens: 400 });
  });

  it('returns undefined without runs', () => {
    expect(recommend([])).toBeUndefined();
  });
});
