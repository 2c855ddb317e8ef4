/**
 * A {@link ReplayCache} in PostgreSQL or PGlite, shared by every worker on the
 * database: a table keyed by the replay key, with a recency number (from a
 * sequence) bumped at every hit, so the least recently used entries go first when
 * the cache is over `maxEntries` or `maxTokens`; entries older than the time to live
 * are dropped at lookup and at every `set`. Each call is one statement.
 *
 * Ages use the caller's clock (`now`), like the other caches: entries carry the
 * `storedAt` their capture gave them. `stats().entries` is the count the last `set`
 * (or an expired lookup) saw; other workers change it between calls.
 */
import {
  InvalidArgumentError,
  type ReasoningPart,
  type ReplayCache,
  type ReplayCacheBounds,
  type ReplayCacheStats,
  type ReplayEntry,
} from '@episodic/core';
import { DEFAULT_REPLAY_ENTRIES, DEFAULT_REPLAY_TOKENS, DEFAULT_REPLAY_TTL_MS } from '@episodic/core/internal';
import { type ConnectionOptions, type Database, openDatabase } from './database.js';
import { migrateOnce, quoteSchema } from './migrations.js';

/** Options of {@link PostgresReplayCache}: where (one of the connection options), the schema, the bounds. */
export interface PostgresReplayCacheOptions extends ConnectionOptions, ReplayCacheBounds {
  /** The schema holding the table; created if missing. Default `public`. */
  schema?: string;
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

function positive(name: string, value: number): number {
  if (!(value > 0)) throw new InvalidArgumentError(`replay cache ${name} must be positive (got ${value})`);
  return value;
}

/** Reasoning kept in the database, for every worker. */
export class PostgresReplayCache implements ReplayCache {
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
      [key, this.now() - this.ttlMs],
    );
    const row = rows[0];
    if (row?.kind === 'hit') {
      const entry: ReplayEntry = {
        key: row.key,
        provider: row.provider,
        model: row.model,
        parts: JSON.parse(row.parts) as ReasoningPart[],
        tokens: row.tokens,
        storedAt: Number(row.stored_at),
      };
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
        [JSON.stringify(live.map((entry) => ({ ...entry, tokens: Math.max(0, Math.round(entry.tokens)) })))],
      );
      this.counters.stored += live.length;
    }
    await this.trim(oldest);
  }

  stats(): ReplayCacheStats {
    return { ...this.counters };
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
