import { describe, expect, it } from 'vitest';
import { estimateCalls } from './cache-estimate.js';
import type { CacheFacts } from './priced-model.js';
import type { ReplayedCall } from './replay.js';

const reply = 3;
const anthropic: CacheFacts = { style: 'anthropic-breakpoints', minCacheableTokens: 1024, source: 'profile' };
const openai: CacheFacts = { style: 'openai-prefix', minCacheableTokens: 1024, source: 'profile' };
const pricing = { input: 3, cachedInput: 0.3, cacheWrite: 3.75, output: 15 };

function call(index: number, total: number, reused: number, extra: Partial<ReplayedCall> = {}): ReplayedCall {
  return {
    call: index,
    line: index * 2 + 2,
    episode: 1,
    boundary: false,
    fit: true,
    tokens: { system: 100, tools: 0, summary: 0, history: 0, currentEpisode: total - 103, total },
    reusedTokens: reused,
    billedTokens: total,
    billedReusedTokens: reused,
    shortened: false,
    cutResults: {},
    evictedNow: false,
    evictedEpisodes: 0,
    reasoningKeptTokens: 0,
    reasoningDroppedTokens: 0,
    ...extra,
  };
}

describe('estimateCalls', () => {
  it('reads the reused prefix from the cache and writes the rest on an Anthropic-style cache', () => {
    const [first, second] = estimateCalls([call(0, 2003, 0), call(1, 3003, 2000)], anthropic, pricing, reply);
    expect(first).toMatchObject({ cachedTokens: 0, cacheWriteTokens: 2000, uncachedTokens: 3, misses: ['first-call'] });
    expect(second).toMatchObject({ cachedTokens: 2000, cacheWriteTokens: 1000, uncachedTokens: 3, misses: [] });
    expect(second!.cost!.total).toBeCloseTo((3 * 3 + 2000 * 0.3 + 1000 * 3.75) / 1e6, 15);
  });

  it('bills no writes on an automatic prefix cache', () => {
    const [, second] = estimateCalls([call(0, 2003, 0), call(1, 3003, 2000)], openai, pricing, reply);
    expect(second).toMatchObject({ cachedTokens: 2000, cacheWriteTokens: 0, uncachedTokens: 1003 });
  });

  it('caches nothing below the minimum cacheable length, and says so', () => {
    const [, second] = estimateCalls([call(0, 503, 0), call(1, 903, 500)], anthropic, pricing, reply);
    expect(second).toMatchObject({
      cachedTokens: 0,
      cacheWriteTokens: 0,
      uncachedTokens: 903,
      misses: ['below-minimum'],
    });
  });

  it('names what broke the prefix: eviction before a user boundary, then shortening, else a changed prefix', () => {
    const calls = estimateCalls(
      [
        call(0, 5003, 0),
        call(1, 4003, 1500, { evictedNow: true, boundary: true }),
        call(2, 5003, 3000, { boundary: true }),
        call(3, 5003, 4000, { shortened: true }),
        call(4, 6003, 4500),
        call(5, 7003, 6000),
      ],
      openai,
      pricing,
      reply,
    );
    expect(calls.map((found) => found.misses)).toEqual([
      ['first-call'],
      ['eviction'],
      ['user-boundary'],
      ['shortened'],
      ['prefix-changed'],
      [],
    ]);
  });

  it('treats a call after one that did not fit as a first call, and a call that did not fit as costing nothing', () => {
    const calls = estimateCalls(
      [call(0, 2003, 0), { ...call(1, 0, 0), fit: false, shortened: true, billedTokens: 0 }, call(2, 2503, 0)],
      anthropic,
      pricing,
      reply,
    );
    expect(calls[1]).toMatchObject({ misses: ['did-not-fit'], cachedTokens: 0, cacheWriteTokens: 0 });
    expect(calls[1]!.cost!.total).toBe(0);
    expect(calls[2]!.misses).toEqual(['first-call']);
  });

  it('predicts no cache for a model without one', () => {
    const none: CacheFacts = { style: 'none', minCacheableTokens: 0, source: 'none' };
    const [, second] = estimateCalls([call(0, 2003, 0), call(1, 3003, 2000)], none, pricing, reply);
    expect(second).toMatchObject({ cachedTokens: 0, cacheWriteTokens: 0, uncachedTokens: 3003, misses: ['no-cache'] });
  });

  it('caches and prices what the provider bills, not what was sent', () => {
    // Sent 5,003 tokens; the provider drops 1,000 of reasoning from earlier turns.
    const calls = [call(0, 4003, 0), call(1, 5003, 4000, { billedTokens: 4003, billedReusedTokens: 4000 })];
    const [, second] = estimateCalls(calls, openai, pricing, reply);
    expect(second).toMatchObject({ cachedTokens: 4000, uncachedTokens: 3, misses: [] });
  });

  it('reads a warm prefix on the first call, and nothing after a pause longer than the TTL', () => {
    const timed: CacheFacts = { ...openai, ttlSeconds: 600 };
    const calls = estimateCalls(
      [
        call(0, 5003, 0, { requestTime: 0 }),
        call(1, 6003, 5000, { requestTime: 599_000 }),
        call(2, 7003, 6000, { requestTime: 1_200_000 }),
      ],
      timed,
      pricing,
      reply,
      3000,
    );
    expect(calls.map((found) => found.cachedTokens)).toEqual([3000, 5000, 0]);
    expect(calls.map((found) => found.misses)).toEqual([[], [], ['expired']]);
  });

  it('gives no cost without a price, and still the tokens', () => {
    const [, second] = estimateCalls([call(0, 2003, 0), call(1, 3003, 2000)], openai, undefined, reply);
    expect(second).toMatchObject({ cachedTokens: 2000, uncachedTokens: 1003, cost: null });
  });
});
