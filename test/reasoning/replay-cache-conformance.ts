/**
 * The behaviour every {@link ReplayCache} shares (bounds, TTL, stats), as one suite
 * each implementation's test file runs.
 */

import { Agent, type Message } from '@episodic/core';
import {
  type ManagedReplayCache,
  type ReplayCache,
  type ReplayCacheBounds,
  type ReplayEntry,
} from '@episodic/core/reasoning';
import { scriptedModel } from '@episodic/core/testing';
import { describe, expect, it } from 'vitest';
import { toolCallKey } from '../../packages/core/src/reasoning/replay-cache/replay-cache.js';

/** Opens a fresh cache with these bounds. */
export type ReplayCacheFactory = (bounds: ReplayCacheBounds) => Promise<ManagedReplayCache>;

/**
 * For caches whose lookups never touch a store that can fail (memory, and the file
 * cache, which reads its log only when opened): every lookup rejects from now on,
 * as a failing disk or network store would.
 */
export const failLookups: BreakReplayCache = async (cache) => ({
  get: () => Promise.reject(new Error('EIO: i/o error, read')),
  set: (entries) => cache.set(entries),
  stats: () => cache.stats(),
});

/** Makes an open cache fail from now on, the way this backend fails (its table dropped, its store gone). */
export type BreakReplayCache = (cache: ManagedReplayCache) => Promise<ReplayCache>;

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

export function replayCacheConformance(name: string, open: ReplayCacheFactory, breakCache?: BreakReplayCache): void {
  replayCacheManagement(name, open);
  if (breakCache) replayCacheOutage(name, open, breakCache);
  describe(`${name} replay cache conformance`, () => {
    it('stores and finds real keys (provider, model and tool-call id, NUL-separated)', async () => {
      const cache = await open({ now: () => 0 });
      const key = toolCallKey({ provider: 'deepseek', id: 'deepseek-v4' }, 'call_\\0x');
      await cache.set([{ ...entry('ignored', 0), key }]);
      expect((await cache.get(key))?.key).toBe(key);
      expect(await cache.get(key.replace('\u0000', '\\0'))).toBeUndefined();
      await cache.close?.();
    });

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

const call = (id: string): Message => ({ role: 'assistant', content: [{ type: 'tool-call', id, name: 'read', args: {} }] });

/** list, delete, clear, sweep and report, on every backend. */
function replayCacheManagement(name: string, open: ReplayCacheFactory): void {
  const at = (key: string, provider: string, model: string, storedAt: number, tokens = 10): ReplayEntry => ({
    ...entry(key, storedAt, tokens),
    key: toolCallKey({ provider, id: model }, key),
    provider,
    model,
  });

  describe(`${name} replay cache management`, () => {
    it('lists newest first, filtered by provider and model, up to a limit', async () => {
      const cache = await open({ now: () => 100 });
      await cache.set([at('a', 'deepseek', 'v4', 1), at('b', 'deepseek', 'v4', 3), at('c', 'moonshot', 'k2', 2)]);
      expect((await cache.list()).map((found) => found.storedAt)).toEqual([3, 2, 1]);
      expect((await cache.list({ provider: 'deepseek' })).map((found) => found.storedAt)).toEqual([3, 1]);
      expect((await cache.list({ model: 'k2' })).map((found) => found.provider)).toEqual(['moonshot']);
      expect(await cache.list({ limit: 1 })).toHaveLength(1);
      await expect(cache.list({ limit: 0 })).rejects.toThrow(/limit must be a positive integer/);
      await cache.close?.();
    });

    it('deletes by tool-call id, by provider, by model; refuses an empty filter', async () => {
      const cache = await open({ now: () => 0 });
      await cache.set([
        at('call_1', 'deepseek', 'v4', 0),
        at('call_2', 'deepseek', 'v4', 0),
        at('call_3', 'deepseek', 'v3.2', 0),
        at('call_4', 'moonshot', 'k2', 0),
      ]);
      expect(await cache.delete({ toolCallId: 'call_1' })).toBe(1);
      expect(await cache.get(toolCallKey({ provider: 'deepseek', id: 'v4' }, 'call_1'))).toBeUndefined();
      expect(await cache.delete({ model: 'v3.2' })).toBe(1);
      expect(await cache.delete({ provider: 'deepseek' })).toBe(1);
      expect((await cache.list()).map((found) => found.provider)).toEqual(['moonshot']);
      await expect(cache.delete({ provider: '' })).rejects.toThrow(/name a toolCallId, a provider or a model/);
      await cache.close?.();
    });

    it('sweeps expired entries at once and clears everything', async () => {
      let now = 0;
      const cache = await open({ ttlMs: 100, now: () => now });
      await cache.set([at('a', 'deepseek', 'v4', 0), at('b', 'deepseek', 'v4', 0)]);
      now = 50;
      await cache.set([at('c', 'deepseek', 'v4', 50)]);
      now = 120;
      expect(await cache.sweep()).toBe(2);
      expect((await cache.report()).persistentEntries).toBeLessThanOrEqual(1);
      expect(await cache.clear()).toBe(1);
      expect(await cache.list()).toEqual([]);
      expect(cache.stats()).toMatchObject({ hits: 0, misses: 0, stored: 0 });
      await cache.close?.();
    });

    it('reports replays, replay rate, groups, size, age and where entries are held', async () => {
      const cache = await open({ now: () => 1_000 });
      await cache.set([at('a', 'deepseek', 'v4', 10, 7), at('b', 'deepseek', 'v3.2', 20, 5), at('c', 'moonshot', 'k2', 30, 1)]);
      await cache.get(toolCallKey({ provider: 'deepseek', id: 'v4' }, 'a'));
      await cache.get('missing');
      await cache.get(toolCallKey({ provider: 'moonshot', id: 'k2' }, 'c'));
      await cache.get('missing too');
      const report = await cache.report();
      expect(report).toMatchObject({
        entries: 3,
        replays: 2,
        replayRate: 0.5,
        tokens: 13,
        chars: 'reasoning for a'.length * 3,
        oldest: 10,
        newest: 30,
        byProvider: { deepseek: { entries: 2, tokens: 12 }, moonshot: { entries: 1, tokens: 1 } },
        byModel: { 'deepseek/v4': { entries: 1, tokens: 7 }, 'deepseek/v3.2': { entries: 1, tokens: 5 }, 'moonshot/k2': { entries: 1, tokens: 1 } },
      });
      expect(report.memoryEntries + report.persistentEntries).toBeGreaterThanOrEqual(3);
      await cache.close?.();
    });
  });
}

/** A cache that fails at restore never keeps a session from opening. */
function replayCacheOutage(name: string, open: ReplayCacheFactory, breakCache: BreakReplayCache): void {
  describe(`${name} replay cache outage`, () => {
    it('a failing lookup during restore becomes a replay-cache-failed warning and the session opens', async () => {
      const cache = await open({});
      const broken = await breakCache(cache);
      const model = scriptedModel({ steps: [{ text: 'ok' }], profile: { retention: 'tool-episodes' } });
      const agent = new Agent({ model, context: { budget: 10_000 }, reasoning: { replayCache: broken } });
      const history: Message[] = [
        { role: 'user', content: 'CI is red' },
        call('call_1'),
        { role: 'tool', toolCallId: 'call_1', toolName: 'read', content: 'FAIL' },
      ];
      const session = await agent.session({ history });
      expect(session.warnings.join(' ')).toMatch(/replay cache: reasoning could not be restored/);
      const events = [];
      for await (const event of session.stream('go on')) events.push(event);
      expect(events).toContainEqual(expect.objectContaining({ type: 'warning', code: 'replay-cache-failed' }));
      expect(session.messages.at(-1)).toMatchObject({ role: 'assistant' });
      await cache.close?.().catch(() => {});
    });
  });
}
