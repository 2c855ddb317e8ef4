/**
 * Reads an option's file (`--pricing`, `--system`, `--tools`) with a size cap, so a
 * path such as `/dev/zero` or a huge file by mistake ends in a clear error instead
 * of the process running out of memory.
 */
import { createReadStream } from 'node:fs';

/** Largest option file read, in bytes (16 MiB; real ones are a few KB). */
export const MAX_OPTION_FILE_BYTES = 16 * 1024 * 1024;

/**
 * The file's text. Rejects with the system error, or with an error of code `EFBIG`
 * when the file is longer than `maxBytes`.
 */
export async function readCappedFile(file: string, maxBytes = MAX_OPTION_FILE_BYTES): Promise<string> {
  const chunks: Buffer[] = [];
  let length = 0;
  const stream = createReadStream(file);
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      length += chunk.length;
      if (length > maxBytes) {
        throw Object.assign(new Error(`larger than ${maxBytes} bytes`), { code: 'EFBIG' });
      }
      chunks.push(chunk);
    }
  } finally {
    stream.destroy();
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** What to tell the user about a file that could not be read, by system error code. */
export function unreadableReason(error: unknown, maxBytes = MAX_OPTION_FILE_BYTES): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EISDIR') return 'it is a directory, not a file';
  if (code === 'EFBIG') return `larger than ${maxBytes} bytes: not the file this option takes`;
  return `cannot read it (${code ?? (error as Error).message})`;
}
