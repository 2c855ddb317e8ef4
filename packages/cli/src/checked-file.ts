/**
 * The one way the CLI opens a file a user named on the command line (a transcript,
 * a recording, `--pricing`, `--system`, `--tools`, `--cache`, the file `repair`
 * rewrites). Every such path is:
 * - resolved to the real file once (a link is followed here, and only here), so a
 *   command that rewrites the file by renaming over it rewrites the file the link
 *   points to instead of replacing the link;
 * - opened read-only with `O_NOFOLLOW` (a link put in place of the resolved file
 *   after the check is refused, not followed) and `O_NONBLOCK` (a FIFO is refused
 *   instead of hanging the open);
 * - checked on the open handle: a regular file (not a directory, FIFO, device or
 *   socket), no larger than the cap the option allows.
 */
import { constants, type Stats } from 'node:fs';
import { type FileHandle, open, realpath, stat } from 'node:fs/promises';
import { EpisodicError } from '@episodic/core';

/** A file the user named that cannot be used: says which option, which path and why. */
export class UnusableFileError extends EpisodicError {
  readonly file: string;
  /** The system error code behind it, or `EFBIG`, `ENOTREG`. */
  readonly reason: string;
  /** What is wrong, without the file: `it is a FIFO (named pipe), not a regular file`. */
  readonly detail: string;

  constructor(what: string, file: string, reason: string, detail: string, options?: { cause?: unknown }) {
    super('unreadable_input', `cannot read ${what} ${file}: ${detail}`, options);
    this.file = file;
    this.reason = reason;
    this.detail = detail;
  }
}

/** How to check a file. */
export interface CheckOptions {
  /** What the file is, for messages: `the transcript`, `--pricing`, `--cache`. */
  what: string;
  /** Largest size accepted, in bytes (default: no cap, for files read as a stream). */
  maxBytes?: number;
}

/** A checked, open file. Close it with `handle.close()`. */
export interface CheckedFile {
  handle: FileHandle;
  /** The real path (links resolved): read and rewrite this one. */
  path: string;
  size: number;
}

/** What to tell the user, by system error code. */
const reasons: Readonly<Record<string, string>> = {
  ENOENT: 'no such file',
  EISDIR: 'it is a directory, not a file',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  ELOOP: 'it was replaced by a link while being opened',
  ENOTDIR: 'a part of the path is not a directory',
};

/** Opens `file` as described above; throws {@link UnusableFileError}. */
export async function openChecked(file: string, options: CheckOptions): Promise<CheckedFile> {
  let real: string;
  let handle: FileHandle;
  try {
    real = await realpath(file);
    handle = await open(real, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    throw new UnusableFileError(options.what, file, code, reasons[code] ?? `cannot open it (${code || (error as Error).message})`, {
      cause: error,
    });
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) {
      throw new UnusableFileError(options.what, file, 'ENOTREG', `it is ${kindOf(stats)}, not a regular file`);
    }
    if (options.maxBytes !== undefined && stats.size > options.maxBytes) {
      throw new UnusableFileError(options.what, file, 'EFBIG', `it is ${sizeText(stats.size)}, over the ${sizeText(options.maxBytes)} this takes`);
    }
    return { handle, path: real, size: stats.size };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** The whole file as bytes, checked as {@link openChecked} does; `maxBytes` is required. */
export async function readChecked(file: string, options: CheckOptions & { maxBytes: number }): Promise<Buffer> {
  const checked = await openChecked(file, options);
  try {
    // Read at most one byte past the cap: a file that grows after the check (or reports
    // no size, as /proc files do) is still cut off.
    const buffer = Buffer.alloc(Math.min(options.maxBytes, checked.size || options.maxBytes) + 1);
    let length = 0;
    for (;;) {
      if (length === buffer.length) break;
      const { bytesRead } = await checked.handle.read(buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    if (length > options.maxBytes) {
      throw new UnusableFileError(options.what, file, 'EFBIG', `it is over the ${sizeText(options.maxBytes)} this takes`);
    }
    return buffer.subarray(0, length);
  } finally {
    await checked.handle.close();
  }
}

/** Checks `file` and returns its real path (for code that opens it by path afterwards). */
export async function checkedPath(file: string, options: CheckOptions): Promise<string> {
  const checked = await openChecked(file, options);
  await checked.handle.close();
  return checked.path;
}

function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return 'a directory';
  if (stats.isFIFO()) return 'a FIFO (named pipe)';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  return 'not a file';
}

/** Bytes in the largest fitting unit, e.g. `16 MiB`. */
function sizeText(bytes: number): string {
  if (bytes >= 2 ** 20) return `${Math.round(bytes / 2 ** 20)} MiB`;
  if (bytes >= 2 ** 10) return `${Math.round(bytes / 2 ** 10)} KiB`;
  return `${bytes} bytes`;
}

/**
 * Refuses an output path (`-o`, `--tools-out`, `--html`) that exists and is not a
 * regular file: writing to a FIFO hangs, to a device or directory fails obscurely. A
 * missing file is fine (it is created).
 */
export async function assertWritableFile(file: string, what: string): Promise<void> {
  const stats = await stat(file).catch(() => undefined);
  if (stats && !stats.isFile()) {
    throw new EpisodicError('unwritable_output', `cannot write ${what} ${file}: it is ${kindOf(stats)}, not a regular file`);
  }
}
