/**
 * One small interface over the two ways to reach PostgreSQL: a `pg` pool (a server)
 * and a PGlite instance (PostgreSQL compiled to WASM, in this process). The stores
 * send the same SQL through either.
 */
import { InvalidArgumentError } from '@episodic/core';
import type { Pool, PoolConfig } from 'pg';

/** Runs one statement and returns its rows. */
export interface Queryable {
  query<Row>(sql: string, params?: readonly unknown[]): Promise<Row[]>;
}

/** A database the stores talk to. */
export interface Database extends Queryable {
  /** Runs `work` in one transaction (on one connection), committed when it resolves. */
  transaction<T>(work: (transaction: Queryable) => Promise<T>): Promise<T>;
  /** Ends the connections this object opened (a pool or PGlite it was given is left open). */
  close(): Promise<void>;
}

/** The part of a PGlite instance the stores use (`new PGlite()` or `await PGlite.create(dataDir)`). */
export interface PGliteLike extends PGliteQueryable {
  transaction<T>(callback: (transaction: PGliteQueryable) => Promise<T>): Promise<T>;
}

/** PGlite's `query`, on the instance and inside a transaction. */
export interface PGliteQueryable {
  query<Row>(sql: string, params?: unknown[]): Promise<{ rows: Row[] }>;
}

/** Where the stores' tables live: exactly one of the three. */
export interface ConnectionOptions {
  /** A PostgreSQL URL, e.g. `postgres://user:password@host:5432/database`: the store opens a `pg` pool. */
  connectionString?: string | undefined;
  /** A `pg` pool of your own (closing it stays yours). */
  pool?: Pool | undefined;
  /** A PGlite instance of your own, in memory or on a data directory (closing it stays yours). */
  pglite?: PGliteLike | undefined;
  /** Connections of the pool opened from `connectionString`. Default 10. */
  poolSize?: number | undefined;
}

/** Opens the database the options name. */
export function openDatabase(options: ConnectionOptions): Database {
  const given = [options.connectionString, options.pool, options.pglite].filter((value) => value !== undefined);
  if (given.length !== 1) {
    throw new InvalidArgumentError(
      'give exactly one of { connectionString } (a PostgreSQL server), { pool } (a pg pool) or { pglite } (an embedded PGlite instance).',
    );
  }
  if (options.pglite) return fromPGlite(options.pglite);
  if (options.pool) return fromPool(Promise.resolve(options.pool), false);
  return fromPool(openPool({ connectionString: options.connectionString, max: options.poolSize ?? 10 }), true);
}

async function openPool(config: PoolConfig): Promise<Pool> {
  // Loaded on use: a PGlite user never needs the server client.
  const pg = (await import('pg')).default;
  const pool = new pg.Pool(config);
  // An idle connection the server closes (restart, failover, a killed backend) emits
  // 'error' on the pool, which would end the process unheard; the pool drops that
  // connection and the next query opens a new one, so there is nothing else to do.
  pool.on('error', () => {});
  return pool;
}

function fromPool(opened: Promise<Pool>, owned: boolean): Database {
  // Attach a handler now so a pool that fails to open is not an unhandled rejection before first use.
  opened.catch(() => {});
  let closed = false;
  return {
    async query<Row>(sql: string, params?: readonly unknown[]) {
      const result = await (await opened).query(sql, params as unknown[] | undefined);
      return result.rows as Row[];
    },
    async transaction<T>(work: (transaction: Queryable) => Promise<T>) {
      const client = await (await opened).connect();
      let broken = false;
      // A checked-out client has no pool listener: a backend killed now ('error' on the
      // client) would end the process unheard. The query in flight rejects on its own.
      const onError = () => {
        broken = true;
      };
      client.on('error', onError);
      try {
        await client.query('BEGIN');
        const result = await work({
          query: async <Row>(sql: string, params?: readonly unknown[]) =>
            (await client.query(sql, params as unknown[] | undefined)).rows as Row[],
        });
        await client.query('COMMIT');
        return result;
      } catch (error) {
        // The work's error is the one to report; a connection that cannot even roll back is discarded.
        if (!broken) broken = await client.query('ROLLBACK').then(() => false, () => true);
        throw error;
      } finally {
        client.off('error', onError);
        client.release(broken);
      }
    },
    async close() {
      if (!owned || closed) return;
      closed = true;
      await (await opened).end();
    },
  };
}

function fromPGlite(pglite: PGliteLike): Database {
  return {
    async query<Row>(sql: string, params?: readonly unknown[]) {
      return (await pglite.query<Row>(sql, params as unknown[] | undefined)).rows;
    },
    transaction<T>(work: (transaction: Queryable) => Promise<T>) {
      return pglite.transaction((transaction) =>
        work({
          query: async <Row>(sql: string, params?: readonly unknown[]) =>
            (await transaction.query<Row>(sql, params as unknown[] | undefined)).rows,
        }),
      );
    },
    async close() {},
  };
}
