/**
 * Cases of the Postgres store beyond the conformance suite, run on PGlite and on a
 * server: versioned migrations (once, even when many workers start together), the
 * keys that make a gap or a duplicate impossible, fencing of a writer whose lease
 * lapsed, operators' list/delete/retention, and damaged rows named in errors.
 */
import { type Message, SessionConflictError, TranscriptError } from '@episodic/core';
import { PostgresSessionStore, type PostgresSessionStoreOptions, SCHEMA_VERSION, SchemaTooNewError } from '@episodic/postgres';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { freshSchema, testLeaseMs } from './postgres-fixtures.js';

/** How the cases reach the database. */
export interface PostgresHarness {
  /** The connection part of the store options (`pglite` or `connectionString`). */
  connection(): Promise<Pick<PostgresSessionStoreOptions, 'pglite' | 'connectionString'>>;
  /** Runs SQL directly. */
  sql(text: string, params?: unknown[]): Promise<Record<string, unknown>[]>;
}

const user: Message = { role: 'user', content: 'hello' };
const answer: Message = { role: 'assistant', content: [{ type: 'text', text: 'hi' }] };

export function postgresOperations(name: string, harness: PostgresHarness): void {
  describe(`${name}: migrations, keys, fencing, operations`, () => {
    let schema = freshSchema();
    const stores: PostgresSessionStore[] = [];
    let connection: Awaited<ReturnType<PostgresHarness['connection']>> = {};
    beforeEach(async () => {
      connection = await harness.connection();
    });
    const open = (options: Partial<PostgresSessionStoreOptions> = {}) => {
      const store = new PostgresSessionStore({ ...connection, schema, leaseMs: testLeaseMs, ...options });
      stores.push(store);
      return store;
    };
    afterEach(async () => {
      for (const store of stores.splice(0)) await store.close();
      if (Object.keys(connection).length === 0) return; // no database: the test failed saying why
      await harness.sql(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      schema = freshSchema();
    });

    it('applies each migration once, in order, even when several workers start together', async () => {
      const applied = await Promise.all([open().migrate(), open().migrate(), open().migrate()]);
      expect(applied.flat().sort()).toEqual(Array.from({ length: SCHEMA_VERSION }, (_, index) => index + 1));
      expect(await open().migrate()).toEqual([]);
      const rows = await harness.sql(`SELECT version FROM ${schema}.episodic_migrations ORDER BY version`);
      expect(rows.map((row) => Number(row.version))).toEqual([1, 2, 3, 4]);
    });

    it('migrates a version 2 database to the approval column, keeping its sessions', async () => {
      await open().append('s', [user, answer]);
      // A database as version 2 left it: no approvals column, two migrations recorded.
      await harness.sql(`ALTER TABLE ${schema}.episodic_sessions DROP COLUMN approvals`);
      await harness.sql(`DELETE FROM ${schema}.episodic_migrations WHERE version = 3`);
      const upgraded = open();
      expect(await upgraded.migrate()).toEqual([3]);
      expect((await upgraded.load('s'))?.messages).toEqual([user, answer]);
      const record = {
        version: 1 as const,
        decisions: [{ callId: 'c1', sessionId: 's', decision: 'approved' as const, decidedAt: '2025-01-01T00:00:00.000Z' }],
      };
      await upgraded.saveApprovals('s', record);
      expect((await upgraded.load('s'))?.approvals).toEqual(record);
    });

    it('refuses a database migrated by a newer version', async () => {
      await open().migrate();
      await harness.sql(`INSERT INTO ${schema}.episodic_migrations (version, name) VALUES (99, 'from the future')`);
      await expect(open().load('s')).rejects.toBeInstanceOf(SchemaTooNewError);
    });

    it('makes a gap or a duplicate in a transcript impossible at the database', async () => {
      const store = open();
      await store.append('s', [user, answer]);
      const insert = (seq: number) =>
        harness.sql(`INSERT INTO ${schema}.episodic_messages (session_id, seq, message) VALUES ('s', $1, '{}')`, [seq]);
      await expect(insert(1)).rejects.toMatchObject({ code: '23505' });
      await expect(insert(3)).rejects.toMatchObject({ code: '23503' });
      await insert(2);
    });

    it('fences a writer whose lease lapsed and was taken over: its write is refused, nothing written', async () => {
      const frozen = open();
      const lease = await frozen.acquire('s');
      await frozen.append('s', [user], { lease, expectedLength: 0 });
      await frozen.close(); // stops renewing, like a frozen process
      const other = open();
      const deadline = Date.now() + testLeaseMs + 3_000;
      let taken;
      while (!taken) {
        taken = await other.acquire('s').catch((error: unknown) => {
          if (Date.now() > deadline) throw error;
          return undefined;
        });
        if (!taken) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      // Tokens come from one sequence (failed attempts use some): only their order is promised.
      expect(taken.token).toBeGreaterThan(lease.token);
      const late = open();
      await expect(late.append('s', [answer], { lease, expectedLength: 1 })).rejects.toBeInstanceOf(SessionConflictError);
      await other.append('s', [answer], { lease: taken, expectedLength: 1 });
      expect((await late.load('s'))?.messages).toEqual([user, answer]);
    });

    it('lists, deletes, and deletes sessions idle for N days unless a writer holds them', async () => {
      const store = open();
      for (const id of ['old', 'held-old', 'recent']) await store.append(id, [user]);
      await harness.sql(`UPDATE ${schema}.episodic_sessions SET updated_at = now() - interval '10 days' WHERE id <> 'recent'`);
      const lease = await store.acquire('held-old');
      expect(await store.list()).toEqual(['held-old', 'old', 'recent']);
      expect(await store.deleteIdle({ days: 7 })).toEqual(['old']);
      await lease.release();
      expect(await store.delete('recent')).toBe(true);
      expect(await store.delete('recent')).toBe(false);
      expect(await store.list()).toEqual(['held-old']);
      expect(await harness.sql(`SELECT * FROM ${schema}.episodic_messages WHERE session_id IN ('old', 'recent')`)).toEqual([]);
    });

    it('names the session and message of a damaged row', async () => {
      const store = open();
      await store.append('s', [user, answer]);
      await harness.sql(`UPDATE ${schema}.episodic_messages SET message = '{"role":"robot"}' WHERE seq = 1`);
      const failure = await store.load('s').catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(TranscriptError);
      expect((failure as Error).message).toMatch(/postgres session "s", line 2: role must be one of/);
    });
  });
}
