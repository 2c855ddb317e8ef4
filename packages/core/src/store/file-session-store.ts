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
 * Crashes: the only damage a crash can do is a torn last line (a write cut short).
 * Loading reports it in `torn` and ignores it; the next append first ends that line,
 * so the fragment stays a line of its own that every later load skips too. A last
 * line that lacks only its newline but parses completely is kept: all its bytes are
 * on disk. A line that is valid JSON but not a valid message is real damage and
 * throws a {@link TranscriptError}.
 *
 * One writer per session: `acquire` takes a lock directory `<id>.lock` that its
 * holder keeps fresh; a dead holder's lock is taken over `staleMs` (default 10 s)
 * after its last refresh. Appends check the position they expect before writing.
 * See file-session-lock.ts. One machine only: the lock relies on a local file system.
 */
import { mkdir, open, readdir, readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../support/atomic-write.js';
import { EpisodicError } from '../errors.js';
import type { Message } from '../message/message.js';
import type { PackState } from '../packing/pack-types.js';
import { type ApprovalRecord, parseApprovalRecord } from './approval-record.js';
import type { ReasoningSidecar } from './reasoning-sidecar.js';
import { DEFAULT_FILE_LOCK_STALE_MS, FileSessionLocks } from './file-session-lock.js';
import {
  type AppendOptions,
  assertSessionId,
  type SessionLease,
  type SessionStore,
  type StoredSession,
  type TornLine,
  type WriteOptions,
} from './session-store.js';
import { parseTranscriptLine, serializeMessage } from '../message/transcript.js';

/** Options of {@link FileSessionStore}. */
export interface FileSessionStoreOptions {
  /** Created on first write. */
  directory: string;
  /** fsync after every append and state write. Default true; turn off only for throwaway data. */
  sync?: boolean;
  /**
   * A writer's lock with no refresh for this long is stale: its holder died and the
   * session can be taken over. Default 10,000 ms; at least 2,000.
   */
  staleMs?: number;
}

/** Sessions as JSONL transcripts plus a pack-state file, in one directory. */
export class FileSessionStore implements SessionStore {
  readonly directory: string;
  private readonly sync: boolean;
  /** Sessions whose file is known to end with a newline (checked once, then kept so by our writes). */
  private readonly terminated = new Set<string>();
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
    const text = await readIfExists(path);
    const packState = await this.loadState(id);
    if (text === undefined && packState === undefined) return undefined;
    const { messages, torn } = parseStoredTranscript(text ?? '', path);
    this.locks.remember(id, { bytes: Buffer.byteLength(text ?? ''), count: messages.length });
    const sidecar = await this.loadSidecar(id);
    const approvalsPath = this.approvalsPath(id);
    const approvalsText = await readIfExists(approvalsPath);
    const approvals = approvalsText === undefined ? undefined : parseApprovalRecord(approvalsText, approvalsPath);
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
    return this.locks.acquire(id, path);
  }

  async append(id: string, messages: readonly Message[], options?: AppendOptions): Promise<void> {
    const path = this.transcriptPath(id);
    if (messages.length === 0) return;
    await this.locks.checkWriter(id, options);
    await this.ensureDirectory();
    const handle = await open(path, 'a+');
    try {
      const { size } = await handle.stat();
      const expected = options?.expectedLength;
      const before = expected === undefined ? this.locks.known(id, size) : await this.locks.position(id, path, size, expected);
      const prefix = this.terminated.has(id) ? '' : await missingNewline(handle);
      const data = Buffer.from(prefix + messages.map((message) => `${serializeMessage(message)}\n`).join(''));
      await writeAll(handle, path, data);
      if (this.sync) await handle.sync();
      this.terminated.add(id);
      this.locks.remember(id, before && { bytes: size + data.length, count: before.count + messages.length });
    } catch (error) {
      // A failed write may have left part of a line (a full disk): check again next time.
      this.terminated.delete(id);
      this.locks.remember(id, undefined);
      throw error;
    } finally {
      await handle.close();
    }
  }

  async saveState(id: string, state: PackState, options?: WriteOptions): Promise<void> {
    const path = this.statePath(id);
    await this.locks.checkWriter(id, options);
    await this.replaceFile(path, JSON.stringify(state));
  }

  async saveReasoningSidecar(id: string, sidecar: ReasoningSidecar | undefined, options?: WriteOptions): Promise<void> {
    await this.replaceOrDelete(id, this.sidecarPath(id), sidecar, options);
  }

  async saveApprovals(id: string, record: ApprovalRecord | undefined, options?: WriteOptions): Promise<void> {
    await this.replaceOrDelete(id, this.approvalsPath(id), record, options);
  }

  /** As the session's writer: replaces `path` with `value` as JSON, or deletes it (if there) when `value` is undefined. */
  private async replaceOrDelete(id: string, path: string, value: object | undefined, options?: WriteOptions): Promise<void> {
    await this.locks.checkWriter(id, options);
    if (value) return this.replaceFile(path, JSON.stringify(value));
    await unlink(path).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
  }

  /** Writes `text` to a temporary file beside `path`, syncs it, and renames it over `path`. */
  private async replaceFile(path: string, text: string): Promise<void> {
    await this.ensureDirectory();
    await writeFileAtomic(path, text, { sync: this.sync });
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
    const text = await readIfExists(path);
    if (text === undefined) return undefined;
    let sidecar: ReasoningSidecar | undefined;
    try {
      sidecar = JSON.parse(text) as ReasoningSidecar;
    } catch {
      sidecar = undefined;
    }
    if (sidecar?.version !== 1 || !Array.isArray(sidecar.entries)) {
      throw new EpisodicError(
        'invalid_reasoning_sidecar',
        `${path} is not a version 1 reasoning sidecar: delete it (the current episode then resumes without its reasoning).`,
      );
    }
    return sidecar;
  }

  private async loadState(id: string): Promise<PackState | undefined> {
    const path = this.statePath(id);
    const text = await readIfExists(path);
    if (text === undefined) return undefined;
    let state: unknown;
    try {
      state = JSON.parse(text);
    } catch {
      state = undefined;
    }
    if ((state as { version?: unknown } | undefined)?.version !== 1) {
      throw new EpisodicError(
        'invalid_session_state',
        `${path} is not a version 1 pack state: delete it (the packer rebuilds its state from the transcript).`,
      );
    }
    return state as PackState;
  }

  private ensureDirectory(): Promise<unknown> {
    // A failure is not kept: once the cause is fixed, the next write tries again.
    this.ready ??= mkdir(this.directory, { recursive: true }).catch((error: unknown) => {
      this.ready = undefined;
      throw error;
    });
    return this.ready;
  }
}

/**
 * Parses a stored transcript, skipping torn writes: lines that are not JSON at all
 * (a crash cut them), wherever an earlier crash left them. Reports the last one.
 */
function parseStoredTranscript(text: string, file?: string): { messages: Message[]; torn?: TornLine } {
  const lines = text.split('\n');
  const messages: Message[] = [];
  let torn: TornLine | undefined;
  for (const [index, line] of lines.entries()) {
    if (line.trim() === '') continue;
    const isTail = index === lines.length - 1;
    if (!isJson(line)) {
      const reason = isTail
        ? 'the last line was cut short by a crash (no newline, not valid JSON); ignored'
        : 'a line cut short by an earlier crash (not valid JSON); ignored';
      torn = { line: index + 1, reason };
      continue;
    }
    messages.push(parseTranscriptLine(line, index + 1, file));
  }
  return torn ? { messages, torn } : { messages };
}

function isJson(line: string): boolean {
  try {
    JSON.parse(line);
    return true;
  } catch {
    return false;
  }
}

/** Writes all of `data`: a write may take only part of it (Node reports that, it does not throw). */
async function writeAll(handle: import('node:fs/promises').FileHandle, path: string, data: Buffer): Promise<void> {
  for (let offset = 0; offset < data.length;) {
    const { bytesWritten } = await handle.write(data, offset, data.length - offset);
    if (bytesWritten <= 0) {
      throw new EpisodicError('store_write_failed', `${path}: the system took no bytes of an append; check free disk space.`);
    }
    offset += bytesWritten;
  }
}

/** "\n" when the file is not empty and does not end with a newline (a torn last write). */
async function missingNewline(handle: import('node:fs/promises').FileHandle): Promise<string> {
  const { size } = await handle.stat();
  if (size === 0) return '';
  const last = Buffer.alloc(1);
  await handle.read(last, 0, 1, size - 1);
  return last[0] === 0x0a ? '' : '\n';
}

async function readIfExists(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
