/**
 * A {@link SessionStore} on PostgreSQL: a server through `pg`, or PGlite in this
 * process, with the same SQL. See README.md for the tables and the lease design.
 *
 * - Messages are rows of `episodic_messages` keyed by (session, seq); the primary key
 *   and a foreign key to the previous seq make a duplicate or a gap impossible. One
 *   step's append is one statement: readers see all of it or none.
 * - One writer per session through a lease on the session row with a fencing token
 *   (not an advisory lock: PGlite has one connection, where advisory locks exclude
 *   nobody, and a lock tied to a connection fences no write made on another).
 *   A dead writer's lease lapses `leaseMs` (default 10 s) after its last renewal;
 *   then another worker takes the session over.
 * - Migrations run on first use (or `migrate()`, or `episodic migrate`).
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import {
  type AppendOptions,
  ApprovalConflictError,
  type ApprovalRecord,
  type ApprovalWriteOptions,
  EpisodicError,
  InvalidArgumentError,
  type Message,
  type ReasoningSidecar,
  SessionBusyError,
  SessionConflictError,
  type SessionLease,
  type SessionStore,
  type StoredSession,
  type WriteOptions,
} from '@episodic/core';
import { parseTranscriptLine } from '@episodic/core/transcript';
import { type PackState } from '@episodic/core/packing';
import { assertSessionId, loadZod, parseApprovalRecord, serializeMessage } from '@episodic/core/internal';
import { type ConnectionOptions, type Database, openDatabase } from './database.js';
import { LeaseKeeper } from './lease-keeper.js';
import { migrate, migrateOnce, quoteSchema } from './migrations.js';
import * as sql from './session-statements.js';

/** Default {@link PostgresSessionStoreOptions.leaseMs}. */
export const DEFAULT_LEASE_MS = 10_000;

/** Options of {@link PostgresSessionStore}: where (one of the connection options) and how. */
export interface PostgresSessionStoreOptions extends ConnectionOptions {
  /** The schema holding the tables; created if missing. Default `public`. */
  schema?: string | undefined;
  /**
   * How long a lease lives without renewal. The holder renews it every `leaseMs / 3`
   * and at every write, so only a dead (or frozen) holder lets it lapse; then the
   * session can be taken over. Default 10,000 ms.
   */
  leaseMs?: number | undefined;
}

interface WriterRow {
  message_count: number;
  token: string;
  holder: string | null;
  remaining_ms: number | null;
}

/** Sessions in PostgreSQL or PGlite, for one or many workers. */
export class PostgresSessionStore implements SessionStore {
  /** The longest a dead writer keeps a session: its lease lapses this long after its last renewal. */
  readonly leaseMs: number;
  /** This store's name as a lease holder: host, process and a random part. */
  readonly holder = `${hostname()}/${process.pid}/${randomUUID().slice(0, 8)}`;
  private readonly database: Database;
  private readonly schema: string;
  private readonly tables: sql.Tables;
  private readonly keeper: LeaseKeeper;
  /** Sessions whose row is known to exist (a write without a lease creates it first). */
  private readonly known = new Set<string>();
  /** Applies the migrations once, on first use. */
  private readonly migrated: () => Promise<unknown>;

  constructor(options: PostgresSessionStoreOptions) {
    this.schema = options.schema ?? 'public';
    this.tables = sql.tablesOf(quoteSchema(this.schema));
    this.leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
    if (!(this.leaseMs >= 100)) {
      throw new InvalidArgumentError(`leaseMs must be at least 100 ms (got ${options.leaseMs}); the default is 10,000.`);
    }
    this.database = openDatabase(options);
    this.migrated = migrateOnce(this.database, this.schema);
    this.keeper = new LeaseKeeper(this.database, this.tables.sessions, this.holder, this.leaseMs);
  }

  /**
   * Whether the session tables exist in the schema, without creating them (every other
   * method migrates on first use): for a reader that must not create a store.
   */
  async hasTables(): Promise<boolean> {
    const [row] = await this.database.query<{ name: string | null }>('select to_regclass($1)::text as name', [
      `${quoteSchema(this.schema)}.episodic_sessions`,
    ]);
    return Boolean(row?.name);
  }

  /** Applies missing migrations now (otherwise done on first use); returns the versions applied. */
  async migrate(): Promise<number[]> {
    return migrate(this.database, this.schema);
  }

  async load(id: string): Promise<StoredSession | undefined> {
    assertSessionId(id);
    await this.migrated();
    const [row] = await this.database.query<{
      message_count: number;
      pack_state: string | null;
      sidecar: string | null;
      approvals: string | null;
    }>(sql.loadSession(this.tables), [id]);
    if (!row || (row.message_count === 0 && row.pack_state === null && row.sidecar === null)) return undefined;
    this.known.add(id);
    const rows = await this.database.query<{ message: string }>(sql.loadMessages(this.tables), [id, row.message_count]);
    const where = `postgres session "${id}"`;
    await loadZod();
    const messages = rows.map((stored, index) => parseTranscriptLine(stored.message, index + 1, where));
    const sidecar = row.sidecar === null ? undefined : parseVersioned<ReasoningSidecar>(row.sidecar, `${where}: reasoning_sidecar`);
    const approvals = row.approvals === null ? undefined : parseApprovalRecord(row.approvals, `${where}: approvals`);
    return {
      messages,
      packState: row.pack_state === null ? undefined : parseVersioned<PackState>(row.pack_state, `${where}: pack_state`),
      ...(sidecar ? { reasoningSidecar: sidecar } : {}),
      ...(approvals ? { approvals } : {}),
    };
  }

  async acquire(id: string): Promise<SessionLease> {
    assertSessionId(id);
    await this.migrated();
    const [row] = await this.database.query<{ token: string; message_count: number }>(sql.acquireLease(this.tables), [
      id,
      this.holder,
      this.leaseMs,
    ]);
    if (!row) throw await this.busy(id);
    this.known.add(id);
    const token = Number(row.token);
    this.keeper.hold(id, token);
    let released = false;
    return {
      sessionId: id,
      token,
      length: row.message_count,
      release: async () => {
        if (released) return;
        released = true;
        this.keeper.drop(id, token);
        await this.database.query(sql.releaseLease(this.tables), [id, token, this.holder]);
      },
    };
  }

  async append(id: string, messages: readonly Message[], options: AppendOptions = {}): Promise<void> {
    assertSessionId(id);
    if (messages.length === 0) return;
    await this.prepareWrite(id, options);
    const lines = `[${messages.map((message) => serializeMessage(message)).join(',')}]`;
    const parameters = [id, lines, messages.length, options.lease?.token ?? null, options.expectedLength ?? null, this.leaseMs];
    let rows: unknown[];
    try {
      rows = await this.database.query(sql.appendMessages(this.tables), parameters);
    } catch (error) {
      // The keys make a duplicate or a gap impossible; reaching them means a writer raced past the checks.
      if ((error as { code?: string }).code === '23505' || (error as { code?: string }).code === '23503') {
        throw new SessionConflictError(id, `another writer appended at the same position; nothing was written (${(error as Error).message}).`);
      }
      throw error;
    }
    if (rows.length !== messages.length) throw await this.refusal(id, options);
  }

  async saveState(id: string, state: PackState, options: WriteOptions = {}): Promise<void> {
    await this.replace(id, 'pack_state', JSON.stringify(state), options);
  }

  async saveReasoningSidecar(id: string, sidecar: ReasoningSidecar | undefined, options: WriteOptions = {}): Promise<void> {
    await this.replace(id, 'reasoning_sidecar', sidecar ? JSON.stringify(sidecar) : null, options);
  }

  async saveApprovals(id: string, record: ApprovalRecord | undefined, options: ApprovalWriteOptions = {}): Promise<void> {
    assertSessionId(id);
    await this.prepareWrite(id, options);
    const expected = options.expectedRevision ?? null;
    const value = record ? JSON.stringify(record) : null;
    const parameters = [id, value, options.lease?.token ?? null, this.leaseMs, expected];
    const rows = await this.database.query(sql.replaceApprovals(this.tables), parameters);
    if (rows.length > 0) return;
    if (expected !== null) {
      const [row] = await this.database.query<{ revision: number }>(sql.approvalRevision(this.tables), [id]);
      if (row && row.revision !== expected) throw new ApprovalConflictError(id, expected, row.revision);
    }
    throw await this.refusal(id, options);
  }

  async list(): Promise<string[]> {
    await this.migrated();
    return (await this.database.query<{ id: string }>(sql.listSessions(this.tables))).map((row) => row.id);
  }

  /**
   * Deletes a session with its messages, state and sidecar; true when it existed. A
   * writer still running it is refused at its next write.
   */
  async delete(id: string): Promise<boolean> {
    assertSessionId(id);
    await this.migrated();
    this.known.delete(id);
    return (await this.database.query(sql.deleteSession(this.tables), [id])).length > 0;
  }

  /** Retention: deletes sessions untouched for `days` days (and not held by a writer); returns their ids. */
  async deleteIdle({ days }: { days: number }): Promise<string[]> {
    if (!(days >= 0) || !Number.isFinite(days)) {
      throw new InvalidArgumentError(`deleteIdle needs a finite number of days >= 0 (got ${days}).`);
    }
    await this.migrated();
    const rows = await this.database.query<{ id: string }>(sql.deleteIdleSessions(this.tables), [days]);
    for (const row of rows) this.known.delete(row.id);
    return rows.map((row) => row.id);
  }

  /**
   * Stops renewing leases and closes the connections this store opened. Leases of
   * runs still in progress are not released: they lapse after `leaseMs`, as after a
   * crash. Let runs finish first.
   */
  async close(): Promise<void> {
    this.keeper.stop();
    await this.database.close();
  }

  private async replace(id: string, column: sql.SessionColumn, value: string | null, options: WriteOptions) {
    assertSessionId(id);
    await this.prepareWrite(id, options);
    const rows = await this.database.query(sql.replaceColumn(this.tables, column), [
      id,
      value,
      options.lease?.token ?? null,
      this.leaseMs,
    ]);
    if (rows.length === 0) throw await this.refusal(id, options);
  }

  /** Migrations, and the session row for a write without a lease (a leased session has one). */
  private async prepareWrite(id: string, options: WriteOptions): Promise<void> {
    await this.migrated();
    if (options.lease || this.known.has(id)) return;
    await this.database.query(sql.ensureSession(this.tables), [id]);
    this.known.add(id);
  }

  /** Why a write changed nothing, as the error to throw. */
  private async refusal(id: string, options: AppendOptions): Promise<EpisodicError> {
    const [row] = await this.database.query<WriterRow>(sql.writerState(this.tables), [id]);
    if (!row) {
      this.known.delete(id);
      return new SessionConflictError(id, 'it was deleted while this writer ran; nothing was written.');
    }
    const { lease, expectedLength } = options;
    if (lease && (Number(row.token) !== lease.token || row.holder === null)) {
      return new SessionConflictError(
        id,
        `the lease with token ${lease.token} was released or taken over (the session is at token ${row.token}); nothing was written.`,
      );
    }
    if (!lease && row.holder !== null && row.remaining_ms !== null) return this.busyError(id, row);
    if (expectedLength !== undefined && row.message_count !== expectedLength) {
      return new SessionConflictError(
        id,
        `the store holds ${row.message_count} messages, not the ${expectedLength} this writer expected: another writer wrote to it. Load the session again; nothing was written.`,
      );
    }
    return new SessionConflictError(id, 'the session changed during the write; nothing was written. Retry.');
  }

  private async busy(id: string): Promise<EpisodicError> {
    const [row] = await this.database.query<WriterRow>(sql.writerState(this.tables), [id]);
    return row ? this.busyError(id, row) : new SessionConflictError(id, 'it was deleted while being taken; retry.');
  }

  private busyError(id: string, row: WriterRow): SessionBusyError {
    const remaining = row.remaining_ms ?? 0;
    return new SessionBusyError(
      id,
      `${row.holder ?? 'another writer'} holds its lease (token ${row.token}). If that worker died, the lease lapses ${this.leaseMs} ms after its last renewal (in at most ${remaining} ms).`,
      remaining,
    );
  }
}

/** A stored JSON document with `version: 1` (pack state, reasoning sidecar). */
function parseVersioned<T>(text: string, where: string): T {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = undefined;
  }
  if ((value as { version?: unknown } | undefined)?.version !== 1) {
    throw new EpisodicError(
      'invalid_session_state',
      `${where} is not a version 1 document: set the column to NULL (the packer rebuilds its state; a sidecar only holds reasoning).`,
    );
  }
  return value as T;
}
