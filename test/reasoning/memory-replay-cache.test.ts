import { MemoryReplayCache } from '@episodic/core/reasoning';
import { expect, it } from 'vitest';
import { failLookups, replayCacheConformance } from './replay-cache-conformance.js';

replayCacheConformance('memory', async (bounds) => new MemoryReplayCache(bounds), failLookups);

it('rejects bounds that are not positive', () => {
  expect(() => new MemoryReplayCache({ maxEntries: 0 })).toThrow(/maxEntries must be positive/);
  expect(() => new MemoryReplayCache({ ttlMs: -5 })).toThrow(/ttlMs/);
});
