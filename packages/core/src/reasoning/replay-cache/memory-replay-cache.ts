/**
 * A {@link ReplayCache} in memory: a Map kept in least-recently-used order, bounded
 * by entries and tokens, with a time to live checked on every lookup.
 */
import { InvalidArgumentError } from '../../errors.js';
import type { ReplayCacheBounds, ReplayCacheStats, ReplayEntry } from './replay-cache.js';
import {
  checkDeleteFilter,
  listLimit,
  type ManagedReplayCache,
  matchesDelete,
  matchesList,
  type ReplayCacheReport,
  type ReplayDeleteFilter,
  type ReplayListOptions,
  reportOf,
} from './replay-cache-admin.js';

/** Default {@link ReplayCacheBounds.maxEntries}. */
export const DEFAULT_REPLAY_ENTRIES = 5_000;
/** Default {@link ReplayCacheBounds.maxTokens}. */
export const DEFAULT_REPLAY_TOKENS = 5_000_000;
/** Default {@link ReplayCacheBounds.ttlMs}: two hours. */
export const DEFAULT_REPLAY_TTL_MS = 2 * 60 * 60 * 1000;

function positive(name: string, value: number): number {
  if (!(value > 0)) throw new InvalidArgumentError(`replay cache ${name} must be positive (got ${value})`);
  return value;
}

/** Reasoning held in memory; lost when the process ends (see `FileReplayCache` for a persistent one). */
export class MemoryReplayCache implements ManagedReplayCache {
  private readonly entries = new Map<string, ReplayEntry>();
  private readonly maxEntries: number;
  private readonly maxTokens: number;
  private readonly ttlMs: number;
  private readonly now: () => number;
  private tokens = 0;
  private readonly counters = { hits: 0, misses: 0, restoredTokens: 0, stored: 0, evicted: 0, expired: 0 };

  constructor(bounds: ReplayCacheBounds = {}) {
    this.maxEntries = positive('maxEntries', bounds.maxEntries ?? DEFAULT_REPLAY_ENTRIES);
    this.maxTokens = positive('maxTokens', bounds.maxTokens ?? DEFAULT_REPLAY_TOKENS);
    this.ttlMs = positive('ttlMs', bounds.ttlMs ?? DEFAULT_REPLAY_TTL_MS);
    this.now = bounds.now ?? Date.now;
  }

  async get(key: string): Promise<ReplayEntry | undefined> {
    return this.lookup(key);
  }

  /** `get` without the promise. */
  private lookup(key: string): ReplayEntry | undefined {
    const entry = this.entries.get(key);
    if (entry && this.isExpired(entry)) {
      this.remove(key, entry);
      this.counters.expired += 1;
    } else if (entry) {
      // Re-insert: a Map iterates in insertion order, so its first key is the least recently used.
      this.entries.delete(key);
      this.entries.set(key, entry);
      this.counters.hits += 1;
      this.counters.restoredTokens += entry.tokens;
      return entry;
    }
    this.counters.misses += 1;
    return undefined;
  }

  async set(entries: readonly ReplayEntry[]): Promise<void> {
    for (const entry of entries) this.put(entry);
  }

  /**
   * Stores one entry without counting it as written (used when loading a file). Returns false when expired.
   * @internal
   */
  put(entry: ReplayEntry, counted = true): boolean {
    if (this.isExpired(entry)) return false;
    const old = this.entries.get(entry.key);
    if (old) this.remove(entry.key, old);
    this.entries.set(entry.key, entry);
    this.tokens += entry.tokens;
    if (counted) this.counters.stored += 1;
    this.evict();
    return true;
  }

  /**
   * Live entries, least recently used first.
   * @internal
   */
  live(): ReplayEntry[] {
    return [...this.entries.values()].filter((entry) => !this.isExpired(entry));
  }

  stats(): ReplayCacheStats {
    return { entries: this.entries.size, ...this.counters };
  }

  async list(options: ReplayListOptions = {}): Promise<ReplayEntry[]> {
    const limit = listLimit(options);
    const found = this.live().filter((entry) => matchesList(entry, options));
    return found.sort((a, b) => b.storedAt - a.storedAt).slice(0, limit);
  }

  async delete(filter: ReplayDeleteFilter): Promise<number> {
    checkDeleteFilter(filter);
    return this.removeWhere((entry) => matchesDelete(entry, filter));
  }

  async clear(): Promise<number> {
    const count = this.entries.size;
    this.entries.clear();
    this.tokens = 0;
    for (const name of Object.keys(this.counters) as (keyof typeof this.counters)[]) this.counters[name] = 0;
    return count;
  }

  async sweep(): Promise<number> {
    const count = this.removeWhere((entry) => this.isExpired(entry));
    this.counters.expired += count;
    return count;
  }

  async report(): Promise<ReplayCacheReport> {
    await this.sweep();
    return reportOf(this.live(), this.stats(), { memoryEntries: this.entries.size, persistentEntries: 0 });
  }

  /** Removes every entry `test` accepts; returns how many. */
  private removeWhere(test: (entry: ReplayEntry) => boolean): number {
    let count = 0;
    for (const [key, entry] of this.entries) {
      if (!test(entry)) continue;
      this.remove(key, entry);
      count += 1;
    }
    return count;
  }

  private isExpired(entry: ReplayEntry): boolean {
    return this.now() - entry.storedAt > this.ttlMs;
  }

  private remove(key: string, entry: ReplayEntry): void {
    this.entries.delete(key);
    this.tokens -= entry.tokens;
  }

  private evict(): void {
    while (this.entries.size > this.maxEntries || (this.tokens > this.maxTokens && this.entries.size > 1)) {
      const [key, entry] = this.entries.entries().next().value as [string, ReplayEntry];
      this.remove(key, entry);
      this.counters.evicted += 1;
    }
  }
}
