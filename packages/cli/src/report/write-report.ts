/**
 * Writes an HTML report where the user asked (`--html FILE`), turning file-system
 * failures into a message the user can act on.
 */
import { stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { EpisodicError } from '@episodic/core';
import { assertWritableFile } from '../checked-file.js';
import { UsageError } from '../command.js';

/** Failures worth naming, with what to tell the user. */
const writeFailures: Readonly<Record<string, string>> = {
  ENOENT: 'its folder does not exist',
  EISDIR: 'it is a directory',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'the file system is read-only',
};

/** Writes `html` to `file`; throws an {@link EpisodicError} (exit code 1) when it cannot. */
export async function writeReport(file: string, html: string): Promise<void> {
  await assertWritableFile(file, 'the HTML report to');
  try {
    await writeFile(file, html, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unknown error';
    const reason = writeFailures[code] ?? code;
    throw new EpisodicError('unwritable_output', `cannot write the HTML report to ${file}: ${reason}`, {
      cause: error,
    });
  }
}

/**
 * Refuses `--html` naming the transcript being read (`source`, `-` for standard
 * input): writing the report would destroy the session it describes. Compares the
 * files themselves, so another spelling or a link to the same file counts too.
 */
export async function assertNotInput(report: string, source: string): Promise<void> {
  if (source === '-') return;
  const same =
    path.resolve(report) === path.resolve(source) ||
    (await Promise.all([stat(report), stat(source)]).then(
      ([left, right]) => left.dev === right.dev && left.ino === right.ino,
      () => false,
    ));
  if (same) throw new UsageError(`--html ${report} is the transcript being read; choose another file for the report`);
}
