/**
 * Writes an HTML report where the user asked (`--html FILE`), turning file-system
 * failures into a message the user can act on.
 */
import { writeFile } from 'node:fs/promises';
import { EpisodicError } from '@episodic/core';

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
