/**
 * The typed error of a session store write that failed (a full disk, a read-only
 * file system, no permission), with the system error as its `cause`.
 */
import { EpisodicError } from './episodic-error.js';

/** What the common system errors mean for the user. */
const reasons: Readonly<Record<string, string>> = {
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  EROFS: 'the file system is read-only',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EIO: 'an input/output error',
  EEXIST: 'a file is in the way of the directory',
  ENOTDIR: 'a file is in the way of the directory',
};

/**
 * A store could not write. `outcome` says what was left behind (the write rolled
 * back, or the old file intact); the message then says what to do. `cause` is the
 * system error; `errno` its code (`ENOSPC`, `EROFS`, ...), when it has one.
 */
export class StoreWriteError extends EpisodicError<'store_write_failed'> {
  /** The file that could not be written. */
  readonly path: string;
  /** The system error code, such as `ENOSPC`. */
  readonly errno: string | undefined;

  constructor(path: string, cause: unknown, outcome: string) {
    const errno = (cause as NodeJS.ErrnoException | undefined)?.code;
    const reason = (errno && reasons[errno]) ?? (cause instanceof Error ? cause.message : String(cause));
    super(
      'store_write_failed',
      `Could not write ${path}: ${reason}${errno ? ` (${errno})` : ''}. ${outcome} ` +
        'Fix the cause (free disk space, make the directory writable), then call session.resume() to continue.',
      { cause },
    );
    this.path = path;
    this.errno = errno;
  }
}
