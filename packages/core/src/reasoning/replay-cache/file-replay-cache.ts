/**
 * A {@link ReplayCache} that survives a restart: the memory cache in front, and an
 * append-only JSON Lines log behind it (one entry per line). Opening reads the log
 * back (expired entries and lines torn by a crash are skipped; a line that is JSON
 * but not an entry, or from a newer version, throws a `PersistedFormatError` naming
 * the file, the line and the field); every `set` appends its
 * entries with one write; when the log holds many more lines than live entries it
 * is compacted: the live entries are written to a temporary file, synced, and
 * renamed over the log, so a crash leaves either the old or the new log, whole.
 *
 * Why a file and not SQLite: `better-sqlite3` is a native addon (a binary download
 * or a compiler at install time), and `node:sqlite` needs Node 22 while Episodic
 * supports Node 20. The cache is a key-value map read once at start and then
 * served from memory, which a log does well without a dependency. Lookups never
 * touch the disk; recency of use is not logged, so after a restart entries rank by
 * when they were stored. One process per log: a second writer's lines would survive
 * appends but not the other's compaction, and neither sees the other's entries.
 */
import { mkdir, open, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { writeFileAtomic } from '../../support/atomic-write.js';
import { MemoryReplayCache } from './memory-replay-cache.js';
import type { ReplayCacheBounds, ReplayCacheStats, ReplayEntry } from './replay-cache.js';
import type {
  ManagedReplayCache,
  ReplayCacheReport,
  ReplayDeleteFilter,
  ReplayListOptions,
} from './replay-cache-admin.js';
import { parseReplayLogLine, replayLogLine } from './replay-log.js';
import { loadZod } from '../../support/zod-loader.js';

/** Options of {@link FileReplayCache.open}. */
export interface FileReplayCacheOptions extends ReplayCacheBounds {
  /** The log file; its directory is created if needed. */
  path: string;
  /** fsync after every append. Default false: losing the last entries in a power cut only costs cache misses. */
  sync?: boolean;
  /** Compact when the log has more than this many lines and twice as many as live entries. Default 1,000. */
  compactAfter?: number;
}

/**
 * The entry on a line of the log, or undefined for a line that is not JSON: torn by
 * a crash mid-append, which loses only that entry (a cache miss later). A line that
 * is JSON but not an entry is damage, and throws a {@link PersistedFormatError}.
 */
function entryOf(text: string, file: string, line: number): ReplayEntry | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  return parseReplayLogLine(value, file, line);
}

/** A replay cache persisted to an append-only log. Open with {@link FileReplayCache.open}. */
export class FileReplayCache implements ManagedReplayCache {
  private writes: Promise<void> = Promise.resolve();
  private closed = false;
  /** Log lines of entries that had expired when the log was read: a sweep's to drop. */
  private expiredOnOpen = 0;
  /** The log ended in a torn line: the first append starts on a new line. */
  private tornEnd = false;

  private constructor(
    private readonly memory: MemoryReplayCache,
    private readonly options: FileReplayCacheOptions,
    private lines: number,
  ) {}

  /** Opens (or creates) the cache at `options.path` and loads its live entries. */
  static async open(options: FileReplayCacheOptions): Promise<FileReplayCache> {
    const memory = new MemoryReplayCache(options);
    const text = await readFile(options.path, 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return '';
      throw error;
    });
    // zod's ES module before the lines are checked (see support/zod-loader.ts).
    if (text.trim() !== '') await loadZod();
    let lines = 0;
    let expired = 0;
    for (const [index, line] of text.split('\n').entries()) {
      if (line.trim() === '') continue;
      lines += 1;
      const entry = entryOf(line, options.path, index + 1);
      if (entry && !memory.put(entry, false)) expired += 1;
    }
    await mkdir(dirname(options.path), { recursive: true });
    const cache = new FileReplayCache(memory, options, lines);
    cache.expiredOnOpen = expired;
    // A torn last line must not glue itself to the next append; opening to read
    // (list, report) leaves the file as it was.
    cache.tornEnd = text.length > 0 && !text.endsWith('\n');
    return cache;
  }

  get(key: string): Promise<ReplayEntry | undefined> {
    return this.memory.get(key);
  }

  /** Stores entries in memory at once and appends them to the log (resolves when written). */
  set(entries: readonly ReplayEntry[]): Promise<void> {
    if (this.closed) return Promise.reject(new Error('the replay cache is closed'));
    for (const entry of entries) this.memory.put(entry);
    const text = entries.map(replayLogLine).join('');
    this.lines += entries.length;
    // One write at a time, in order; a failed write is reported to its caller only.
    const write = this.writes
      .catch(() => {})
      .then(async () => {
        await this.appendText(text);
        if (this.needsCompaction()) await this.compact();
      });
    this.writes = write;
    return write;
  }

  stats(): ReplayCacheStats {
    return this.memory.stats();
  }

  list(options?: ReplayListOptions): Promise<ReplayEntry[]> {
    return this.memory.list(options);
  }

  /** Deletes matching entries and rewrites the log without them. */
  delete(filter: ReplayDeleteFilter): Promise<number> {
    return this.rewriteAfter(() => this.memory.delete(filter));
  }

  /** Deletes every entry (the log becomes empty) and resets the counters. */
  clear(): Promise<number> {
    return this.rewriteAfter(() => this.memory.clear());
  }

  /** Deletes expired entries (also those already expired when the log was read) and rewrites the log without them. */
  sweep(): Promise<number> {
    return this.rewriteAfter(async () => {
      const count = (await this.memory.sweep()) + this.expiredOnOpen;
      this.expiredOnOpen = 0;
      return count;
    });
  }

  async report(): Promise<ReplayCacheReport> {
    await this.writes.catch(() => {});
    const report = await this.memory.report();
    return { ...report, persistentEntries: this.lines };
  }

  /** Runs `change` on the memory side after pending writes, then compacts the log when anything went. */
  private rewriteAfter(change: () => Promise<number>): Promise<number> {
    if (this.closed) return Promise.reject(new Error('the replay cache is closed'));
    const run = this.writes
      .catch(() => {})
      .then(async () => {
        const count = await change();
        if (count > 0) await this.compact();
        return count;
      });
    this.writes = run.then(() => {});
    return run;
  }

  /** Rewrites the log with only the live entries (temporary file, sync, rename). */
  async compact(): Promise<void> {
    const live = this.memory.live();
    await writeFileAtomic(this.options.path, live.map(replayLogLine).join(''));
    this.lines = live.length;
    this.tornEnd = false;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.writes.catch(() => {});
  }

  private needsCompaction(): boolean {
    const threshold = this.options.compactAfter ?? 1_000;
    return this.lines > threshold && this.lines > 2 * this.memory.stats().entries;
  }

  private async appendText(text: string): Promise<void> {
    const handle = await open(this.options.path, 'a');
    try {
      await handle.write(this.tornEnd ? `\n${text}` : text);
      this.tornEnd = false;
      if (this.options.sync) await handle.sync();
    } finally {
      await handle.close();
    }
  }
}
