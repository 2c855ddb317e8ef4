/**
 * The behaviour every {@link ReplayCache} shares (bounds, TTL, stats), as one suite
 * each implementation's test file runs.
 */

import type { ReplayCache, ReplayCacheBounds, ReplayEntry } from '@episodic/core';
import { describe, expect, it } from 'vitest';

/** Opens a fresh cache with these bounds. */
export type ReplayCacheFactory = (bounds: ReplayCacheBounds) => Promise<ReplayCache>;

export function entry(key: string, storedAt: number, tokens = 10): ReplayEntry {
  return {
    key,
    provider: 'deepseek',
    model: 'deepseek-v4',
    parts: [{ type: 'reasoning', text: `reasoning for ${key}` }],
    tokens,
    storedAt,
  };
}

export function replayCacheConformance(name: string, open: ReplayCacheFactory): void {
  describe(`${name} replay cache conformance`, () => {
    it('returns what was stored, counts hits, misses and restored tokens', async () => {
      const cache = await open({ now: () => 1_000 });
      await cache.set([entry('a', 1_000, 7), entry('b', 1_000, 5)]);
      expect((await cache.get('a'))?.parts).toEqual([{ type: 'reasoning', text: 'reasoning for a' }]);
      expect(await cache.get('missing')).toBeUndefined();
      await cache.get('b');
      expect(cache.stats()).toMatchObject({ entries: 2, hits: 2, misses: 1, restoredTokens: 12, stored: 2 });
      await cache.close?.();
    });

    it('drops the least recently used entry beyond maxEntries', async () => {
      const cache = await open({ maxEntries: 2, now: () => 0 });
      await cache.set([entry('a', 0), entry('b', 0)]);
      await cache.get('a');
      await cache.set([entry('c', 0)]);
      expect(await cache.get('b')).toBeUndefined();
      expect(await cache.get('a')).toBeDefined();
      expect(await cache.get('c')).toBeDefined();
      expect(cache.stats()).toMatchObject({ entries: 2, evicted: 1 });
      await cache.close?.();
    });

    it('stays within maxTokens', async () => {
      const cache = await open({ maxTokens: 25, now: () => 0 });
      await cache.set([entry('a', 0, 10), entry('b', 0, 10), entry('c', 0, 10)]);
      expect(await cache.get('a')).toBeUndefined();
      expect(cache.stats().entries).toBe(2);
      await cache.close?.();
    });

    it('expires entries after the time to live', async () => {
      let now = 0;
      const cache = await open({ ttlMs: 100, now: () => now });
      await cache.set([entry('a', 0)]);
      now = 100;
      expect(await cache.get('a')).toBeDefined();
      now = 101;
      expect(await cache.get('a')).toBeUndefined();
      expect(cache.stats()).toMatchObject({ entries: 0, expired: 1 });
      await cache.close?.();
    });

    it('replaces an entry stored again under the same key', async () => {
      const cache = await open({ now: () => 0 });
      await cache.set([entry('a', 0, 1)]);
      await cache.set([{ ...entry('a', 0, 2), parts: [{ type: 'reasoning', text: 'newer' }] }]);
      expect((await cache.get('a'))?.parts[0]?.text).toBe('newer');
      expect(cache.stats().entries).toBe(1);
      await cache.close?.();
    });
  });
}
