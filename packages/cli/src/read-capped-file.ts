/**
 * Reads an option's file (`--pricing`, `--system`, `--tools`) through the checked
 * opener with a size cap, so a path such as `/dev/zero`, a FIFO or a huge file by
 * mistake ends in a clear error instead of a hang or the process running out of memory.
 */
import { readChecked, UnusableFileError } from './checked-file.js';

/** Largest option file read, in bytes (16 MiB; real ones are a few KB). */
export const MAX_OPTION_FILE_BYTES = 16 * 1024 * 1024;

/** The file's text. Rejects with an `UnusableFileError` (see `checked-file.ts`). */
export async function readCappedFile(file: string, maxBytes = MAX_OPTION_FILE_BYTES): Promise<string> {
  return (await readChecked(file, { what: 'the file', maxBytes })).toString('utf8');
}

/** What to tell the user about a file that could not be read. */
export function unreadableReason(error: unknown): string {
  if (error instanceof UnusableFileError) return error.detail;
  const code = (error as NodeJS.ErrnoException).code;
  return `cannot read it (${code ?? (error as Error).message})`;
}
