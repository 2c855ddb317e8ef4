/**
 * A {@link ReplayCache} in PostgreSQL or PGlite, shared by every worker on the
 * database: a table keyed by the replay key, with a recency number (from a
 * sequence) bumped at every hit, so the least recently used entries go first when
 * the cache is over `maxEntries` or `maxTokens`; entries older than the time to live
 * are dropped at lookup and at every `set`. Each call is one statement.
 *
 * Ages use the caller's clock (`now`), like the other caches: entries carry the
 * `storedAt` their capture gave them. Keys are stored escaped (`\` as `\\`, NUL as
 * `\0`): core's keys separate their fields with NUL, which PostgreSQL text refuses. `stats().entries` is the count the last `set`
 * (or an expired lookup) saw; other workers change it between calls.
 */
import { InvalidArgumentError, type ReasoningPart } from '@episodic/core';
import {
  type ManagedReplayCache,
  type ReplayCacheBounds,
  type ReplayCacheReport,
  type ReplayCacheStats,
  type ReplayDeleteFilter,
  type ReplayEntry,
  type ReplayListOptions,
} from '@episodic/core/reasoning';
import {
  checkDeleteFilter,
  DEFAULT_REPLAY_ENTRIES,
  DEFAULT_REPLAY_TOKENS,
  DEFAULT_REPLAY_TTL_MS,
  listLimit,
} from '@episodic/core/internal';
import { type ConnectionOptions, type Database, openDatabase } from './database.js';
import { migrateOnce, quoteSchema } from './migrations.js';

/** Options of {@link PostgresReplayCache}: where (one of the connection options), the schema, the bounds. */
export interface PostgresReplayCacheOptions extends ConnectionOptions, ReplayCacheBounds {
  /** The schema holding the table; created if missing. Default `public`. */
  schema?: string | undefined;
}

interface EntryRow {
  kind: 'hit' | 'expired';
  key: string;
  provider: string;
  model: string;
  parts: string;
  tokens: number;
  stored_at: string;
}

/** A key as stored: NUL (refused by PostgreSQL text) and the escape character escaped. */
export function storedKey(key: string): string {
  return key.replaceAll('\\', '\\\\').replaceAll('\u0000', '\\0');
}

/** The key a stored one stands for. */
export function keyOf(stored: string): string {
  return stored.replace(/\\(\\|0)/g, (_, escaped: string) => (escaped === '0' ? '\u0000' : '\\'));
}

function entryOfRow(row: Omit<EntryRow, 'kind'>): ReplayEntry {
  return {
    key: keyOf(row.key),
    provider: row.provider,
    model: row.model,
    parts: JSON.parse(row.parts) as ReasoningPart[],
    tokens: row.tokens,
    storedAt: Number(row.stored_at),
  };
}

function positive(name: string, value: number): number {
  if (!(value > 0)) throw new InvalidArgumentError(`replay cache ${name} must be positive (got ${value})`);
  return value;
}

/** Reasoning kept in the database, for every worker. */
export class PostgresReplayCache implements ManagedReplayCache {
  private readonly database: Database;
  private readonly schema: string;
  private readonly table: string;
  private readonly recency: string;
  private readonly maxEntries: number;
  private readonly maxTokens: number;
  private readonly ttlMs: number;
  private readonly now: () => number;
  private readonly counters = { entries: 0, hits: 0, misses: 0, restoredTokens: 0, stored: 0, evicted: 0, expired: 0 };
  /** Applies the migrations once, on first use. */
  private readonly migrated: () => Promise<unknown>;

  constructor(options: PostgresReplayCacheOptions) {
    this.schema = options.schema ?? 'public';
    const quoted = quoteSchema(this.schema);
    this.table = `${quoted}.episodic_replay_cache`;
    this.recency = `${quoted}.episodic_replay_recency`;
    this.maxEntries = positive('maxEntries', options.maxEntries ?? DEFAULT_REPLAY_ENTRIES);
    this.maxTokens = positive('maxTokens', options.maxTokens ?? DEFAULT_REPLAY_TOKENS);
    this.ttlMs = positive('ttlMs', options.ttlMs ?? DEFAULT_REPLAY_TTL_MS);
    this.now = options.now ?? Date.now;
    this.database = openDatabase(options);
    this.migrated = migrateOnce(this.database, this.schema);
  }

  async get(key: string): Promise<ReplayEntry | undefined> {
    await this.migrated();
    // One statement: a live entry is a hit (and becomes the most recent), an expired one is deleted.
    const rows = await this.database.query<EntryRow>(
      `WITH hit AS (
         UPDATE ${this.table} SET recency = nextval('${this.recency}')
          WHERE key = $1 AND stored_at >= $2::bigint
         RETURNING key, provider, model, parts::text AS parts, tokens, stored_at::text AS stored_at),
       gone AS (DELETE FROM ${this.table} WHERE key = $1 AND stored_at < $2::bigint RETURNING key)
       SELECT 'hit' AS kind, * FROM hit
       UNION ALL SELECT 'expired', key, NULL, NULL, NULL, NULL, NULL FROM gone`,
      [storedKey(key), this.now() - this.ttlMs],
    );
    const row = rows[0];
    if (row?.kind === 'hit') {
      const entry = entryOfRow(row);
      this.counters.hits += 1;
      this.counters.restoredTokens += entry.tokens;
      return entry;
    }
    if (row?.kind === 'expired') {
      this.counters.expired += 1;
      this.counters.entries = Math.max(0, this.counters.entries - 1);
    }
    this.counters.misses += 1;
    return undefined;
  }

  /** Stores entries (the last of a key wins), then drops expired and least recently used ones beyond the bounds. */
  async set(entries: readonly ReplayEntry[]): Promise<void> {
    await this.migrated();
    const oldest = this.now() - this.ttlMs;
    const live = [...new Map(entries.filter((entry) => entry.storedAt >= oldest).map((entry) => [entry.key, entry])).values()];
    if (live.length > 0) {
      await this.database.query(
        `INSERT INTO ${this.table} AS c (key, provider, model, parts, tokens, stored_at)
         SELECT value->>'key', value->>'provider', value->>'model', value->'parts',
                (value->>'tokens')::int, (value->>'storedAt')::bigint
           FROM json_array_elements($1::json) WITH ORDINALITY AS e(value, n) ORDER BY n
         ON CONFLICT (key) DO UPDATE
            SET provider = excluded.provider, model = excluded.model, parts = excluded.parts,
                tokens = excluded.tokens, stored_at = excluded.stored_at, recency = nextval('${this.recency}')`,
        [
          JSON.stringify(
            live.map((entry) => ({ ...entry, key: storedKey(entry.key), tokens: Math.max(0, Math.round(entry.tokens)) })),
          ),
        ],
      );
      this.counters.stored += live.length;
    }
    await this.trim(oldest);
  }

  stats(): ReplayCacheStats {
    return { ...this.counters };
  }

  async list(options: ReplayListOptions = {}): Promise<ReplayEntry[]> {
    const limit = listLimit(options);
    await this.migrated();
    const rows = await this.database.query<Omit<EntryRow, 'kind'>>(
      `SELECT key, provider, model, parts::text AS parts, tokens, stored_at::text AS stored_at FROM ${this.table}
        WHERE stored_at >= $1::bigint AND ($2::text IS NULL OR provider = $2) AND ($3::text IS NULL OR model = $3)
        ORDER BY stored_at DESC LIMIT $4::int`,
      [this.now() - this.ttlMs, options.provider ?? null, options.model ?? null, limit],
    );
    return rows.map(entryOfRow);
  }

  async delete(filter: ReplayDeleteFilter): Promise<number> {
    checkDeleteFilter(filter);
    if ('toolCallId' in filter) {
      // Keys of tool calls: `call`, provider, model, id, NUL-separated (stored escaped).
      const suffix = storedKey(`\u0000${filter.toolCallId}`);
      return this.deleteWhere(`starts_with(key, $1) AND right(key, char_length($2)) = $2`, [storedKey('call\u0000'), suffix]);
    }
    const provider = 'provider' in filter ? filter.provider : null;
    return this.deleteWhere(`($1::text IS NULL OR provider = $1) AND ($2::text IS NULL OR model = $2)`, [
      provider,
      filter.model ?? null,
    ]);
  }

  async clear(): Promise<number> {
    const count = await this.deleteWhere('true', []);
    for (const name of Object.keys(this.counters) as (keyof typeof this.counters)[]) this.counters[name] = 0;
    return count;
  }

  async sweep(): Promise<number> {
    const count = await this.deleteWhere('stored_at < $1::bigint', [this.now() - this.ttlMs]);
    this.counters.expired += count;
    return count;
  }

  async report(): Promise<ReplayCacheReport> {
    await this.migrated();
    const oldest = this.now() - this.ttlMs;
    const rows = await this.database.query<{
      provider: string;
      model: string;
      entries: number;
      tokens: string;
      chars: string;
      oldest: string;
      newest: string;
      persistent: number;
    }>(
      `SELECT provider, model, count(*)::int AS entries, sum(tokens)::text AS tokens,
              sum((SELECT coalesce(sum(length(p->>'text')), 0) FROM json_array_elements(parts) AS p))::text AS chars,
              min(stored_at)::text AS oldest, max(stored_at)::text AS newest,
              (SELECT count(*) FROM ${this.table})::int AS persistent
         FROM ${this.table} WHERE stored_at >= $1::bigint GROUP BY provider, model`,
      [oldest],
    );
    const hits = this.counters.hits;
    const lookups = hits + this.counters.misses;
    const report: ReplayCacheReport = {
      ...this.counters,
      entries: 0,
      replays: hits,
      replayRate: lookups === 0 ? 0 : hits / lookups,
      byProvider: {},
      byModel: {},
      tokens: 0,
      chars: 0,
      memoryEntries: 0,
      persistentEntries: rows[0]?.persistent ?? (await this.countAll()),
    };
    for (const row of rows) {
      const tokens = Number(row.tokens);
      const provider = (report.byProvider[row.provider] ??= { entries: 0, tokens: 0 });
      provider.entries += row.entries;
      provider.tokens += tokens;
      report.byModel[`${row.provider}/${row.model}`] = { entries: row.entries, tokens };
      report.entries += row.entries;
      report.tokens += tokens;
      report.chars += Number(row.chars);
      report.oldest = Math.min(report.oldest ?? Number(row.oldest), Number(row.oldest));
      report.newest = Math.max(report.newest ?? Number(row.newest), Number(row.newest));
    }
    this.counters.entries = report.entries;
    return report;
  }

  private async countAll(): Promise<number> {
    const [row] = await this.database.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${this.table}`);
    return row?.n ?? 0;
  }

  /** Deletes the rows `where` selects; returns how many. */
  private async deleteWhere(where: string, params: unknown[]): Promise<number> {
    await this.migrated();
    const [row] = await this.database.query<{ n: number }>(
      `WITH gone AS (DELETE FROM ${this.table} WHERE ${where} RETURNING 1) SELECT count(*)::int AS n FROM gone`,
      params,
    );
    const count = row?.n ?? 0;
    this.counters.entries = Math.max(0, this.counters.entries - count);
    return count;
  }

  /** Closes the connections this cache opened (a pool or PGlite it was given stays open). */
  async close(): Promise<void> {
    await this.database.close();
  }

  /** Deletes expired entries and those beyond the bounds, most recently used kept first. */
  private async trim(oldest: number): Promise<void> {
    const [row] = await this.database.query<{ expired: number; evicted: number; entries: number }>(
      `WITH expired AS (DELETE FROM ${this.table} WHERE stored_at < $1::bigint RETURNING key),
       ranked AS (
         SELECT key, row_number() OVER newest AS rank, sum(tokens) OVER newest AS running
           FROM ${this.table} WHERE stored_at >= $1::bigint
         WINDOW newest AS (ORDER BY recency DESC)),
       evicted AS (
         DELETE FROM ${this.table}
          WHERE key IN (SELECT key FROM ranked WHERE rank > $2::int OR (running > $3::bigint AND rank > 1))
         RETURNING key)
       SELECT (SELECT count(*) FROM expired)::int AS expired, (SELECT count(*) FROM evicted)::int AS evicted,
              ((SELECT count(*) FROM ranked) - (SELECT count(*) FROM evicted))::int AS entries`,
      [oldest, this.maxEntries, this.maxTokens],
    );
    if (!row) return;
    this.counters.expired += row.expired;
    this.counters.evicted += row.evicted;
    this.counters.entries = row.entries;
  }
}
