/**
 * Splitting transcript bytes into lines, with a cap on a line's length and a strict
 * UTF-8 check. `readline` can do neither: it holds a line of any length in memory
 * (`/dev/zero` has none, so the process dies out of memory) and replaces invalid
 * bytes with U+FFFD, silently changing what the session said.
 */
import { TranscriptError } from '../errors/input-errors.js';
import { MAX_LINE_BYTES } from './transcript-limits.js';

/** Bytes of an over-long line kept to show what it was. */
const HEAD_BYTES = 200;

/** One line of a transcript, as bytes. */
export interface TranscriptLineBytes {
  /** 1-based. */
  number: number;
  /** The line without its newline (or carriage return); only the first bytes when `overLong`. */
  bytes: Buffer;
  /** Length of the whole line in bytes. */
  length: number;
  /** Longer than the cap: `bytes` holds only its head. */
  overLong: boolean;
  /** Followed by a newline; only the last line of a file can lack one. */
  terminated: boolean;
}

/** Cuts a byte stream into lines as chunks arrive; never holds more than the cap of one line. */
export class TranscriptLineSplitter {
  private pending: Buffer[] = [];
  private pendingLength = 0;
  private overLong = false;
  private number = 0;

  constructor(private readonly maxLineBytes: number = MAX_LINE_BYTES) {}

  /** The lines `chunk` completes. */
  push(chunk: Buffer): TranscriptLineBytes[] {
    const lines: TranscriptLineBytes[] = [];
    let start = 0;
    for (let end = chunk.indexOf(0x0a); end !== -1; end = chunk.indexOf(0x0a, start)) {
      this.keep(chunk.subarray(start, end));
      lines.push(this.take(true));
      start = end + 1;
    }
    this.keep(chunk.subarray(start));
    return lines;
  }

  /** The unfinished line when it is already over the cap (its head and length so far). */
  overLongLine(): TranscriptLineBytes | undefined {
    if (!this.overLong) return undefined;
    const bytes = Buffer.concat(this.pending);
    return { number: this.number + 1, bytes, length: this.pendingLength, overLong: true, terminated: false };
  }

  /** The last line, when the input does not end with a newline. */
  end(): TranscriptLineBytes[] {
    return this.pendingLength > 0 ? [this.take(false)] : [];
  }

  private keep(piece: Buffer): void {
    if (piece.length === 0) return;
    const room = this.overLong ? Math.max(0, HEAD_BYTES - this.held()) : piece.length;
    if (room > 0) this.pending.push(piece.subarray(0, room));
    this.pendingLength += piece.length;
    if (!this.overLong && this.pendingLength > this.maxLineBytes) {
      // Keep only the head from now on: the point of the cap is never holding the rest.
      this.overLong = true;
      this.pending = [Buffer.concat(this.pending).subarray(0, HEAD_BYTES)];
    }
  }

  private held(): number {
    return this.pending.reduce((sum, piece) => sum + piece.length, 0);
  }

  private take(terminated: boolean): TranscriptLineBytes {
    let bytes = this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending);
    let length = this.pendingLength;
    if (terminated && !this.overLong && bytes.at(-1) === 0x0d) {
      bytes = bytes.subarray(0, -1);
      length -= 1;
    }
    this.number += 1;
    const line = { number: this.number, bytes, length, overLong: this.overLong, terminated };
    this.pending = [];
    this.pendingLength = 0;
    this.overLong = false;
    return line;
  }
}

/** Options of {@link transcriptLines}. */
export interface TranscriptLinesOptions {
  /** Default {@link MAX_LINE_BYTES}. */
  maxLineBytes?: number;
  /**
   * Read past a line over the cap (to its newline) and yield it marked `overLong`,
   * instead of throwing as soon as the line passes the cap (the default: a source
   * such as `/dev/zero` has no newline to wait for).
   */
  keepOverLong?: boolean;
  /** Named in errors. */
  file?: string;
}

/** Every line of `input`, split as they arrive. */
export async function* transcriptLines(
  input: AsyncIterable<Buffer | string>,
  options: TranscriptLinesOptions = {},
): AsyncGenerator<TranscriptLineBytes> {
  const splitter = new TranscriptLineSplitter(options.maxLineBytes);
  for await (const chunk of input) {
    yield* splitter.push(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk);
    const pending = splitter.overLongLine();
    if (pending !== undefined && !options.keepOverLong) {
      decodeTranscriptLine(pending, options.file, options.maxLineBytes);
    }
  }
  yield* splitter.end();
}

/** Every line of a whole buffer. */
export function splitTranscriptLines(bytes: Buffer, maxLineBytes?: number): TranscriptLineBytes[] {
  const splitter = new TranscriptLineSplitter(maxLineBytes);
  return [...splitter.push(bytes), ...splitter.end()];
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * The line as text. Throws a {@link TranscriptError} for a line over the cap and for
 * bytes that are not UTF-8 (naming the byte), which would otherwise be replaced.
 */
export function decodeTranscriptLine(line: TranscriptLineBytes, file?: string, maxLineBytes = MAX_LINE_BYTES): string {
  if (line.overLong) {
    throw new TranscriptError(
      { file, line: line.number },
      `the line is longer than ${maxLineBytes} bytes (a message is one line; this is not a transcript, or a damaged one)`,
    );
  }
  try {
    return strictUtf8.decode(line.bytes);
  } catch {
    // A line that ends inside a character has no invalid byte before its end: name its last.
    const at = Math.min(firstInvalidByte(line.bytes), line.bytes.length - 1);
    throw new TranscriptError(
      { file, line: line.number },
      `not valid UTF-8 (byte ${at + 1} of the line, 0x${line.bytes[at]?.toString(16).padStart(2, '0')}); ` +
        'the file is damaged or not UTF-8 text',
    );
  }
}

/** Offset of the first byte that starts no valid UTF-8 sequence. */
function firstInvalidByte(bytes: Buffer): number {
  let low = 0;
  let high = bytes.length;
  // The longest valid prefix, found by halving (decoding is the only exact test).
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (decodesAsPrefix(bytes.subarray(0, middle))) low = middle;
    else high = middle - 1;
  }
  return low;
}

function decodesAsPrefix(bytes: Buffer): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: true });
    return true;
  } catch {
    return false;
  }
}
