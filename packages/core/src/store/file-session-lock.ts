/**
 * One writer per session for {@link FileSessionStore}, on one machine.
 *
 * The lease is a lock directory `<id>.lock` made with `proper-lockfile` (mkdir is
 * atomic on local file systems); the holder refreshes its mtime every `staleMs / 2`,
 * and a lock whose mtime is older than `staleMs` is stale: its holder died (SIGKILL,
 * power loss), and the next `acquire` removes it and takes the session over. So a
 * dead writer's session can be taken over at most `staleMs` after its last refresh,
 * plus up to one second for a holder that died before its first refresh (the
 * library first sets the lock's time rounded up to the next second, to probe the
 * file system's timestamp precision).
 * `<id>.lease.json` keeps the fencing token (one more at every acquisition) and who
 * holds it, for the busy error.
 *
 * A lock directory does not stop a writer that stalled past `staleMs` (a stopped
 * process that wakes up) from writing once more; what does is the position check:
 * every append of the agent loop says how many messages it expects, and the store
 * compares that with the transcript's size before writing. The byte size it last
 * saw, with the count that goes with it, makes the check one fstat in the usual
 * case; when the size differs (another writer), the transcript is counted again.
 */
import { readFile, stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { writeFileAtomic } from '../support/atomic-write.js';
import { SessionBusyError, SessionConflictError } from './session-errors.js';
import type { SessionLease, WriteOptions } from './session-store.js';

/** Default staleness of the file store's session lock: a dead writer's session is free again after 10 s. */
export const DEFAULT_FILE_LOCK_STALE_MS = 10_000;

/** What a transcript holds: its size in bytes and the messages in it. */
export interface TranscriptPosition {
  bytes: number;
  count: number;
}

interface HeldLock {
  token: number;
  release: () => Promise<void>;
  /** Set when `proper-lockfile` found the lock taken from us (we stalled past `staleMs`). */
  lost?: Error;
  /** The lock directory's identity (inode and birth time) when we made it: another one there is another writer's lock. */
  identity?: string;
}

/** The locks and known transcript positions of one {@link FileSessionStore}. */
export class FileSessionLocks {
  private readonly held = new Map<string, HeldLock>();
  private readonly positions = new Map<string, TranscriptPosition>();

  constructor(
    private readonly directory: string,
    /** At least 2,000 ms (`proper-lockfile` refreshes at most once a second). */
    readonly staleMs: number,
    private readonly sync: boolean,
    /** Counts the messages of a transcript's text (torn lines excluded). */
    private readonly countMessages: (text: string, path: string) => number,
  ) {}

  lockPath(id: string): string {
    return join(this.directory, `${id}.lock`);
  }

  leasePath(id: string): string {
    return join(this.directory, `${id}.lease.json`);
  }

  /** Takes the session's lock, or throws a {@link SessionBusyError}. */
  async acquire(id: string, transcript: string): Promise<SessionLease> {
    if (this.held.has(id)) throw new SessionBusyError(id, 'a writer of this store holds its lease; retry when it is done.');
    // Imported here: the library installs exit handlers when loaded, which a store that never locks must not do.
    const lockfile = await import('proper-lockfile');
    const held: HeldLock = { token: 0, release: async () => {} };
    try {
      held.release = await lockfile.lock(transcript, {
        lockfilePath: this.lockPath(id),
        realpath: false,
        stale: this.staleMs,
        retries: 0,
        onCompromised: (error) => {
          held.lost = error;
        },
      });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ELOCKED') throw await this.busy(id);
      throw error;
    }
    try {
      held.identity = await this.lockIdentity(id);
      held.token = ((await this.readLease(id))?.token ?? 0) + 1;
      const lease = { token: held.token, pid: process.pid, host: hostname(), acquiredAt: new Date().toISOString() };
      await writeFileAtomic(this.leasePath(id), JSON.stringify(lease), { sync: this.sync });
      this.held.set(id, held);
      const { count } = await this.position(id, transcript, (await sizeOf(transcript)) ?? 0);
      return { sessionId: id, token: held.token, length: count, release: () => this.release(id, held) };
    } catch (error) {
      this.held.delete(id);
      await held.release();
      throw error;
    }
  }

  /** A write with a lease needs it to be held by this store; a write without needs no live lock. */
  async checkWriter(id: string, options: WriteOptions | undefined): Promise<void> {
    const lease = options?.lease;
    if (lease) {
      const held = this.held.get(id);
      if (!held || held.token !== lease.token) {
        throw new SessionConflictError(id, `the lease with token ${lease.token} was released; nothing was written.`);
      }
      if (held.lost) {
        throw new SessionConflictError(
          id,
          `this writer lost its lock ${this.lockPath(id)} (${held.lost.message}): another writer may have taken the session over; nothing was written.`,
        );
      }
      if (!(await this.stillOurs(id, held))) {
        throw new SessionConflictError(
          id,
          `its lock ${this.lockPath(id)} was removed (the session deleted by hand?) since this writer took it; nothing was written.`,
        );
      }
      return;
    }
    if (this.held.has(id)) throw new SessionBusyError(id, 'a writer of this store holds its lease; write through it.');
    const modified = (await stat(this.lockPath(id)).catch(() => undefined))?.mtimeMs;
    if (modified !== undefined && modified >= Date.now() - this.staleMs) throw await this.busy(id);
  }

  /**
   * The transcript's message count given its current size, counting it again when the
   * size is not the one last seen; a {@link SessionConflictError} when `expected` is
   * given and differs.
   */
  async position(id: string, transcript: string, size: number, expected?: number): Promise<TranscriptPosition> {
    let known = this.positions.get(id);
    if (known?.bytes !== size) {
      const data = size === 0 ? Buffer.alloc(0) : await readFile(transcript);
      known = { bytes: data.length, count: this.countMessages(data.toString('utf8'), transcript) };
      this.positions.set(id, known);
    }
    if (expected !== undefined && (known.count !== expected || known.bytes !== size)) {
      throw new SessionConflictError(
        id,
        `${transcript} holds ${known.count} messages, not the ${expected} this writer expected: another writer wrote to it. Load the session again; nothing was written.`,
      );
    }
    return known;
  }

  /** The position last seen, when the transcript still has that size. */
  known(id: string, size: number): TranscriptPosition | undefined {
    const known = this.positions.get(id);
    return known?.bytes === size ? known : undefined;
  }

  /** Records what a load saw or an append wrote, so the next check is one fstat. */
  remember(id: string, position: TranscriptPosition | undefined): void {
    if (position) this.positions.set(id, position);
    else this.positions.delete(id);
  }

  /**
   * Whether the lock directory is still the one this writer made: removed by hand
   * (the session deleted) and made again by another writer, it has another inode,
   * and the lease is lost. One stat per leased write. (The inode alone is not enough:
   * a file system hands a freed inode out again at once; the birth time tells them
   * apart unless both were made within one tick of its clock.)
   */
  private async stillOurs(id: string, held: HeldLock): Promise<boolean> {
    if ((await this.lockIdentity(id)) === held.identity) return true;
    held.lost ??= new Error('the lock directory was removed or replaced');
    return false;
  }

  private async lockIdentity(id: string): Promise<string | undefined> {
    const found = await stat(this.lockPath(id), { bigint: true }).catch(() => undefined);
    return found && `${found.ino}/${found.birthtimeNs}`;
  }

  private async release(id: string, held: HeldLock): Promise<void> {
    if (this.held.get(id) !== held) return;
    this.held.delete(id);
    // Not ours any more: the library would remove the new writer's lock directory.
    if (!(await this.stillOurs(id, held))) return;
    await held.release().catch((error: NodeJS.ErrnoException) => {
      // A compromised lock was already given up by the library; there is nothing left to release.
      if (error.code !== 'ERELEASED') throw error;
    });
  }

  private async busy(id: string): Promise<SessionBusyError> {
    const holder = await this.readLease(id);
    const modified = (await stat(this.lockPath(id)).catch(() => undefined))?.mtimeMs ?? Date.now();
    const retryAfterMs = Math.max(0, Math.ceil(modified + this.staleMs - Date.now()));
    const who = holder ? `process ${holder.pid} on ${holder.host} (lease ${holder.token})` : 'another process';
    return new SessionBusyError(
      id,
      `${who} holds ${this.lockPath(id)}. If that process died, the lock is taken over ${this.staleMs} ms after its last refresh (in about ${retryAfterMs} ms).`,
      retryAfterMs,
    );
  }

  private async readLease(id: string): Promise<{ token: number; pid: number; host: string } | undefined> {
    const text = await readFile(this.leasePath(id), 'utf8').catch(() => undefined);
    if (text === undefined) return undefined;
    try {
      const value = JSON.parse(text) as { token?: unknown; pid?: unknown; host?: unknown };
      return typeof value.token === 'number' ? { token: value.token, pid: Number(value.pid), host: String(value.host) } : undefined;
    } catch {
      // Written atomically, so only a hand-edited file is unreadable: start the tokens again.
      return undefined;
    }
  }
}

async function sizeOf(path: string): Promise<number | undefined> {
  return (await stat(path).catch(() => undefined))?.size;
}
