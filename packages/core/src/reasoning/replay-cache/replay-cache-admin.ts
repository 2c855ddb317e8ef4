/**
 * Operating a replay cache in production: listing and deleting entries by
 * provider, model or tool-call id, clearing it, sweeping expired entries, and a
 * report of what it holds and how often it helped. The built-in caches (memory,
 * file, PostgreSQL) implement it; the `episodic replay-cache` command runs it.
 */
import { InvalidArgumentError } from '../../errors.js';
import type { ReplayCache, ReplayCacheStats, ReplayEntry } from './replay-cache.js';

/** Which entries {@link ManagedReplayCache.list} returns. */
export interface ReplayListOptions {
  provider?: string;
  model?: string;
  /** Most entries returned, newest first. Default 100. */
  limit?: number;
}

/** Which entries {@link ManagedReplayCache.delete} removes: one tool call's, or a provider's and/or model's. */
export type ReplayDeleteFilter = { toolCallId: string } | { provider: string; model?: string } | { model: string };

/** Entries and tokens of one provider or model. */
export interface ReplayGroup {
  entries: number;
  tokens: number;
}

/** What a cache holds and how often it helped (see {@link ManagedReplayCache.report}). */
export interface ReplayCacheReport extends ReplayCacheStats {
  /** Reasoning put back into a history: every hit is one assistant message restored. */
  replays: number;
  /** Replays over lookups (hits + misses), 0 before the first lookup. */
  replayRate: number;
  /** Live entries by provider. */
  byProvider: Record<string, ReplayGroup>;
  /** Live entries by `provider/model`. */
  byModel: Record<string, ReplayGroup>;
  /** Tokens over live entries. */
  tokens: number;
  /** Characters of reasoning text over live entries. */
  chars: number;
  /** `storedAt` of the oldest and newest live entry (ms since the epoch). */
  oldest?: number;
  newest?: number;
  /** Entries held in this process's memory. */
  memoryEntries: number;
  /** Entries in the persistent store (the file's log lines, the table's rows); 0 for the memory cache. */
  persistentEntries: number;
}

/** A replay cache that can be listed, pruned and reported on. */
export interface ManagedReplayCache extends ReplayCache {
  /** Live entries matching the filter, newest first. */
  list(options?: ReplayListOptions): Promise<ReplayEntry[]>;
  /** Deletes the matching entries; resolves to how many went. */
  delete(filter: ReplayDeleteFilter): Promise<number>;
  /** Deletes every entry and resets the counters; resolves to how many went. */
  clear(): Promise<number>;
  /** Deletes expired entries now (rather than at their next lookup); resolves to how many went. */
  sweep(): Promise<number>;
  report(): Promise<ReplayCacheReport>;
}

/** Default {@link ReplayListOptions.limit}. */
export const DEFAULT_REPLAY_LIST_LIMIT = 100;

/** The list limit, checked. */
export function listLimit(options: ReplayListOptions): number {
  const limit = options.limit ?? DEFAULT_REPLAY_LIST_LIMIT;
  if (!Number.isInteger(limit) || limit < 1) {
    throw new InvalidArgumentError(`replay cache list: limit must be a positive integer (got ${limit})`);
  }
  return limit;
}

/** The filter, checked: it must name something, or a delete would be a clear. */
export function checkDeleteFilter(filter: ReplayDeleteFilter): ReplayDeleteFilter {
  const named = Object.entries(filter).filter(([, value]) => typeof value === 'string' && value !== '');
  if (named.length === 0) {
    throw new InvalidArgumentError('replay cache delete: name a toolCallId, a provider or a model (use clear() for all)');
  }
  return filter;
}

/** The suffix a tool-call key ends with (keys are `call`, provider, model, id, NUL-separated). */
export function toolCallSuffix(id: string): string {
  return `\u0000${id}`;
}

/** Whether `entry` matches a delete filter. */
export function matchesDelete(entry: ReplayEntry, filter: ReplayDeleteFilter): boolean {
  if ('toolCallId' in filter) return entry.key.startsWith('call\u0000') && entry.key.endsWith(toolCallSuffix(filter.toolCallId));
  const provider = 'provider' in filter ? filter.provider : undefined;
  return (provider === undefined || entry.provider === provider) && (filter.model === undefined || entry.model === filter.model);
}

/** Whether `entry` matches list options. */
export function matchesList(entry: ReplayEntry, options: ReplayListOptions): boolean {
  return (options.provider === undefined || entry.provider === options.provider) &&
    (options.model === undefined || entry.model === options.model);
}

/** Characters of an entry's reasoning text. */
export function charsOf(entry: ReplayEntry): number {
  return entry.parts.reduce((sum, part) => sum + part.text.length, 0);
}

/** A report over live entries, given the cache's counters and store counts. */
export function reportOf(
  live: readonly ReplayEntry[],
  stats: ReplayCacheStats,
  counts: { memoryEntries: number; persistentEntries: number },
): ReplayCacheReport {
  const report: ReplayCacheReport = {
    ...stats,
    entries: live.length,
    replays: stats.hits,
    replayRate: stats.hits + stats.misses === 0 ? 0 : stats.hits / (stats.hits + stats.misses),
    byProvider: {},
    byModel: {},
    tokens: 0,
    chars: 0,
    ...counts,
  };
  for (const entry of live) {
    add(report.byProvider, entry.provider, entry.tokens);
    add(report.byModel, `${entry.provider}/${entry.model}`, entry.tokens);
    report.tokens += entry.tokens;
    report.chars += charsOf(entry);
    report.oldest = Math.min(report.oldest ?? entry.storedAt, entry.storedAt);
    report.newest = Math.max(report.newest ?? entry.storedAt, entry.storedAt);
  }
  return report;
}

function add(groups: Record<string, ReplayGroup>, name: string, tokens: number): void {
  const group = (groups[name] ??= { entries: 0, tokens: 0 });
  group.entries += 1;
  group.tokens += tokens;
}
