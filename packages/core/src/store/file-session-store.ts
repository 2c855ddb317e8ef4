/**
 * A {@link SessionStore} on disk: `<directory>/<id>.jsonl` is the transcript (format
 * v1), appended to with one write and an fsync per step and never rewritten;
 * `<directory>/<id>.state.json` is the pack state, replaced atomically (temporary
 * file, fsync, rename); `<directory>/<id>.reasoning.json` is the reasoning sidecar
 * of `persistReasoning: 'current-episode'`, replaced the same way and deleted when
 * its episode ends; `<directory>/<id>.approvals.json` holds approval decisions not
 * yet acted on (see approval-record.ts), replaced the same way and deleted once the
 * calls they decide have results.
 *
 * Crashes: the only damage a crash can do is a torn last line (a write cut short, no
 * newline). Loading reports it in `torn` and ignores it; the next append cuts it off
 * first, so a fragment never ends up between good lines. A last line that lacks only
 * its newline but parses completely is kept: all its bytes are on disk.
 *
 * Failed writes (a full disk, a read-only file system, no permission) throw a
 * {@link StoreWriteError} and leave the transcript as it was: the file is truncated
 * back to its last complete step, so a resumed step is not saved twice. Damage
 * anywhere but a torn last line (a changed byte, a line that is valid JSON but not a
 * message, lines that contradict each other) is corruption, not a crash artefact:
 * loading throws a {@link TranscriptError} naming the line, and `episodic repair
 * FILE` moves such lines aside.
 *
 * One writer per session: `acquire` takes a lock directory `<id>.lock` that its
 * holder keeps fresh; a dead holder's lock is taken over `staleMs` (default 10 s)
 * after its last refresh. Appends check the position they expect before writing.
 * See file-session-lock.ts. One machine only: the lock relies on a local file system.
 */
import { type FileHandle, mkdir, open, readdir, readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../support/atomic-write.js';
import { EpisodicError } from '../errors/episodic-error.js';
import { TranscriptError } from '../errors/input-errors.js';
import type { Message } from '../message/message.js';
import type { PackState } from '../packing/pack-types.js';
import { type ApprovalRecord, parseApprovalRecord } from './approval-record.js';
import { packStateFormat } from '../packing/pack-state-schema.js';
import { parsePersistedJson } from '../support/persisted-format.js';
import { checkable } from '../support/zod-loader.js';
import { reasoningSidecarFormat } from './reasoning-sidecar-schema.js';
import type { ReasoningSidecar } from './reasoning-sidecar.js';
import { DEFAULT_FILE_LOCK_STALE_MS, FileSessionLocks } from './file-session-lock.js';
import { checkApprovalRevision, SessionBusyError, SessionConflictError } from '../errors/session-errors.js';
import {
  type AppendOptions,
  type ApprovalWriteOptions,
  assertSessionId,
  type SessionLease,
  type SessionStore,
  type StoredSession,
  type TornLine,
  type WriteOptions,
} from './session-store.js';
import { StoreWriteError } from '../errors/store-write-error.js';
import { parseTranscriptLineBytes, serializeMessage, withRepairHint } from '../message/transcript.js';
import { TranscriptConsistency } from '../message/transcript-consistency.js';
import { splitTranscriptLines, type TranscriptLineBytes } from '../message/transcript-lines.js';
import { TRANSCRIPT_VERSION, VersionCheck } from '../message/transcript-version.js';

/** Options of {@link FileSessionStore}. */
export interface FileSessionStoreOptions {
  /** Created on first write. */
  directory: string;
  /** fsync after every append and state write. Default true; turn off only for throwaway data. */
  sync?: boolean | undefined;
  /**
   * A writer's lock with no refresh for this long is stale: its holder died and the
   * session can be taken over. Default 10,000 ms; at least 2,000.
   */
  staleMs?: number | undefined;
}

/** Sessions as JSONL transcripts plus a pack-state file, in one directory. */
export class FileSessionStore implements SessionStore {
  readonly directory: string;
  private readonly sync: boolean;
  /** Sessions whose file is known to end with a newline (checked once, then kept so by our writes). */
  private readonly terminated = new Set<string>();
  /** Sessions whose last write failed and could not be truncated away: the good length of their file. */
  private readonly rollbacks = new Map<string, number>();
  private ready: Promise<unknown> | undefined;
  private readonly locks: FileSessionLocks;

  constructor(options: FileSessionStoreOptions | string) {
    const resolved = typeof options === 'string' ? { directory: options } : options;
    this.directory = resolved.directory;
    this.sync = resolved.sync ?? true;
    const staleMs = Math.max(2_000, resolved.staleMs ?? DEFAULT_FILE_LOCK_STALE_MS);
    const count = (text: string, path: string) => parseStoredTranscript(text, path).messages.length;
    this.locks = new FileSessionLocks(this.directory, staleMs, this.sync, count);
  }

  /** How long a dead writer keeps the session: its lock is stale this long after its last refresh. */
  get staleMs(): number {
    return this.locks.staleMs;
  }

  /** Path of a session's transcript. */
  transcriptPath(id: string): string {
    assertSessionId(id);
    return join(this.directory, `${id}.jsonl`);
  }

  /** Path of a session's reasoning sidecar. */
  sidecarPath(id: string): string {
    assertSessionId(id);
    return join(this.directory, `${id}.reasoning.json`);
  }

  /** Path of a session's approval record. */
  approvalsPath(id: string): string {
    assertSessionId(id);
    return join(this.directory, `${id}.approvals.json`);
  }

  /** Path of a session's pack state. */
  statePath(id: string): string {
    assertSessionId(id);
    return join(this.directory, `${id}.state.json`);
  }

  async load(id: string): Promise<StoredSession | undefined> {
    const path = this.transcriptPath(id);
    const bytes = await checkable(await readIfExists(path));
    const packState = await this.loadState(id);
    if (bytes === undefined && packState === undefined) return undefined;
    // Bytes of a failed write this store could not truncate away are not part of the session.
    const good = this.rollbacks.get(id);
    const kept = bytes && good !== undefined ? bytes.subarray(0, good) : bytes;
    const { messages, torn } = parseStoredTranscript(kept ?? Buffer.alloc(0), path);
    this.locks.remember(id, { bytes: kept?.length ?? 0, count: messages.length });
    const sidecar = await this.loadSidecar(id);
    const approvals = await this.loadApprovals(id);
    return {
      messages,
      packState,
      ...(torn ? { torn } : {}),
      ...(sidecar ? { reasoningSidecar: sidecar } : {}),
      ...(approvals ? { approvals } : {}),
    };
  }

  /** Takes the session's writer lock (see file-session-lock.ts), or throws a `SessionBusyError`. */
  async acquire(id: string): Promise<SessionLease> {
    const path = this.transcriptPath(id);
    await this.ensureDirectory();
    return this.locks.acquire(id, path).catch((error: unknown) => {
      // Busy is the lock's own answer; anything else is the disk refusing the lock's files.
      if (EpisodicError.isInstance(error)) throw error;
      throw new StoreWriteError(this.locks.lockPath(id), error, 'Nothing was written.');
    });
  }

  async append(id: string, messages: readonly Message[], options?: AppendOptions): Promise<void> {
    const path = this.transcriptPath(id);
    if (messages.length === 0) return;
    await this.locks.checkWriter(id, options);
    const data = Buffer.from(messages.map((message) => `${serializeMessage(message)}\n`).join(''));
    await this.ensureDirectory();
    await this.appendBytes(id, path, data, messages.length, options?.expectedLength);
  }

  /**
   * Appends `data` (`count` messages) after the last complete line, durably, once the
   * transcript holds the `expected` number of messages; on failure truncates the file back to where it
   * was and throws a `StoreWriteError`.
   */
  private async appendBytes(
    id: string,
    path: string,
    data: Buffer,
    count: number,
    expected: number | undefined,
  ): Promise<void> {
    const handle = await open(path, 'a+').catch((error: unknown) => {
      throw new StoreWriteError(path, error, 'Nothing was written.');
    });
    let start: number | undefined;
    try {
      const { size } = await handle.stat();
      const before = expected === undefined ? this.locks.known(id, size) : await this.locks.position(id, path, size, expected);
      const end = await this.completeEnd(id, handle);
      start = end.size;
      const bytes = end.newline ? Buffer.concat([newline, data]) : data;
      await writeAll(handle, path, bytes);
      if (this.sync) await handle.sync();
      this.terminated.add(id);
      this.locks.remember(id, before && { bytes: end.size + bytes.length, count: before.count + count });
    } catch (error) {
      this.terminated.delete(id);
      this.locks.remember(id, undefined);
      // Another writer's messages: nothing was written, nothing to roll back.
      if (error instanceof SessionConflictError) throw error;
      throw new StoreWriteError(path, error, await this.rollBack(id, handle, start));
    } finally {
      await handle.close();
    }
  }

  /**
   * Where the transcript's last complete line ends, after undoing a failed write this
   * store could not truncate earlier and cutting off a torn last line; `newline` when
   * that line is complete but lacks its newline.
   */
  private async completeEnd(id: string, handle: FileHandle): Promise<{ size: number; newline: boolean }> {
    const good = this.rollbacks.get(id);
    if (good !== undefined) {
      await handle.truncate(good);
      this.rollbacks.delete(id);
    }
    const { size } = await handle.stat();
    if (this.terminated.has(id) || size === 0) return { size, newline: false };
    const tail = await lastLine(handle, size);
    if (tail.bytes.length === 0) return { size, newline: false };
    if (isJson(tail.bytes)) return { size, newline: true };
    await handle.truncate(tail.start);
    return { size: tail.start, newline: false };
  }

  /** Truncates back to `size` after a failed write; says what was left behind. */
  private async rollBack(id: string, handle: FileHandle, size: number | undefined): Promise<string> {
    if (size === undefined) return 'Nothing was written.';
    try {
      await handle.truncate(size);
      return 'The transcript was restored to its last complete step.';
    } catch {
      // Kept, so this store's loads ignore those bytes and its next append removes them.
      this.rollbacks.set(id, size);
      return 'Part of the step may be on disk; this store ignores it and removes it before its next write.';
    }
  }

  async saveState(id: string, state: PackState, options?: WriteOptions): Promise<void> {
    await this.locks.checkWriter(id, options);
    await this.replaceFile(this.statePath(id), JSON.stringify(state));
  }

  async saveReasoningSidecar(id: string, sidecar: ReasoningSidecar | undefined, options?: WriteOptions): Promise<void> {
    await this.replaceOrDelete(id, this.sidecarPath(id), sidecar, options);
  }

  async saveApprovals(id: string, record: ApprovalRecord | undefined, options?: ApprovalWriteOptions): Promise<void> {
    const expected = options?.expectedRevision;
    if (expected === undefined || options?.lease) {
      if (expected !== undefined) checkApprovalRevision(id, await this.loadApprovals(id), expected);
      return this.replaceOrDelete(id, this.approvalsPath(id), record, options);
    }
    // A decision between runs: the session's lock makes the compare and the write one
    // step, so of two processes deciding at once the second sees the first's record.
    const lease = await this.acquireBriefly(id);
    try {
      checkApprovalRevision(id, await this.loadApprovals(id), expected);
      await this.replaceOrDelete(id, this.approvalsPath(id), record, { lease });
    } finally {
      await lease.release();
    }
  }

  /** The session's lock, waiting up to a second while another decider holds it for its write. */
  private async acquireBriefly(id: string): Promise<SessionLease> {
    const deadline = Date.now() + 1_000;
    for (;;) {
      try {
        return await this.acquire(id);
      } catch (error) {
        if (!(error instanceof SessionBusyError) || Date.now() > deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, 10 + Math.random() * 20));
      }
    }
  }

  /** As the session's writer: replaces `path` with `value` as JSON, or deletes it (if there) when `value` is undefined. */
  private async replaceOrDelete(id: string, path: string, value: object | undefined, options?: WriteOptions): Promise<void> {
    await this.locks.checkWriter(id, options);
    if (value) return this.replaceFile(path, JSON.stringify(value));
    await unlink(path).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw new StoreWriteError(path, error, 'The file is still there.');
    });
  }

  /** Writes `text` to a temporary file beside `path`, syncs it, and renames it over `path`. */
  private async replaceFile(path: string, text: string): Promise<void> {
    await this.ensureDirectory();
    await writeFileAtomic(path, text, { sync: this.sync }).catch((error: unknown) => {
      throw new StoreWriteError(path, error, 'The previous file is intact.');
    });
  }

  async list(): Promise<string[]> {
    const names = await readdir(this.directory).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return [] as string[];
      throw error;
    });
    return names.filter((name) => name.endsWith('.jsonl')).map((name) => name.slice(0, -'.jsonl'.length));
  }

  private async loadSidecar(id: string): Promise<ReasoningSidecar | undefined> {
    const path = this.sidecarPath(id);
    const text = await checkable((await readIfExists(path))?.toString('utf8'));
    return text === undefined ? undefined : parsePersistedJson(reasoningSidecarFormat, text, { file: path });
  }

  private async loadApprovals(id: string): Promise<ApprovalRecord | undefined> {
    const path = this.approvalsPath(id);
    const text = await checkable((await readIfExists(path))?.toString('utf8'));
    return text === undefined ? undefined : parseApprovalRecord(text, path);
  }

  private async loadState(id: string): Promise<PackState | undefined> {
    const path = this.statePath(id);
    const text = await checkable((await readIfExists(path))?.toString('utf8'));
    return text === undefined ? undefined : parsePersistedJson(packStateFormat, text, { file: path });
  }

  private ensureDirectory(): Promise<unknown> {
    // A failure is not kept: once the cause is fixed, the next write tries again.
    this.ready ??= mkdir(this.directory, { recursive: true }).catch((error: unknown) => {
      this.ready = undefined;
      throw new StoreWriteError(this.directory, error, 'Nothing was written.');
    });
    return this.ready;
  }
}

/**
 * Parses a stored transcript. Only a last line without its newline that is not
 * complete JSON is a torn write: it is reported and ignored. Any other bad line, and
 * lines that contradict each other, throw a {@link TranscriptError} naming the line.
 */
export function parseStoredTranscript(data: string | Buffer, file?: string): { messages: Message[]; torn?: TornLine } {
  const check = { file, consistency: new TranscriptConsistency(), versions: new VersionCheck(TRANSCRIPT_VERSION, file) };
  const messages: Message[] = [];
  for (const line of splitTranscriptLines(typeof data === 'string' ? Buffer.from(data, 'utf8') : data)) {
    if (!line.terminated && isTorn(line)) {
      const reason = 'the last line was cut short by a crash (no newline, not valid JSON); ignored, and removed by the next save';
      return { messages, torn: { line: line.number, reason } };
    }
    try {
      const message = parseTranscriptLineBytes(line, check);
      if (message) messages.push(message);
    } catch (error) {
      throw error instanceof TranscriptError && file ? withRepairHint(error, file) : error;
    }
  }
  return { messages };
}

function isTorn(line: TranscriptLineBytes): boolean {
  return line.overLong || (line.bytes.toString('utf8').trim() !== '' && !isJson(line.bytes));
}

function isJson(bytes: Buffer): boolean {
  try {
    JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
    return true;
  } catch {
    return false;
  }
}

const newline = Buffer.from('\n');

/** Writes all of `data`: a write may take only part of it (Node reports that, it does not throw). */
async function writeAll(handle: FileHandle, path: string, data: Buffer): Promise<void> {
  for (let offset = 0; offset < data.length;) {
    const { bytesWritten } = await handle.write(data, offset, data.length - offset);
    if (bytesWritten <= 0) {
      throw new EpisodicError('store_write_failed', `${path}: the system took no bytes of an append; check free disk space.`);
    }
    offset += bytesWritten;
  }
}

/** The last line of the file (after its last newline; empty when it ends with one) and where it starts. */
async function lastLine(handle: FileHandle, size: number): Promise<{ start: number; bytes: Buffer }> {
  const pieces: Buffer[] = [];
  for (let end = size; end > 0;) {
    const begin = Math.max(0, end - 65_536);
    const chunk = Buffer.alloc(end - begin);
    await handle.read(chunk, 0, chunk.length, begin);
    const cut = chunk.lastIndexOf(0x0a);
    if (cut !== -1) {
      pieces.unshift(chunk.subarray(cut + 1));
      return { start: begin + cut + 1, bytes: Buffer.concat(pieces) };
    }
    pieces.unshift(chunk);
    end = begin;
  }
  return { start: 0, bytes: Buffer.concat(pieces) };
}

async function readIfExists(path: string): Promise<Buffer | undefined> {
  try {
    return await readFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
