/**
 * `read_file`: reads a text file inside the root, optionally a range of lines, with
 * line numbers, within a byte cap, and says how many lines the file has so the model
 * can ask for the next range.
 */
import { constants, createReadStream } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { z } from 'zod/v4';
import { type DefinedTool, defineTool } from './define-tool.js';
import { PathEscapeError, resolveInsideRoot } from './root-path.js';
import { refuseSecretFile, type SecretFilesOption } from './secret-files.js';
import { ToolUsageError } from './tool-errors.js';

/** Options of {@link readFileTool}. */
export interface ReadFileToolOptions {
  /** The directory the tool may read inside. */
  root: string;
  /** Most bytes of file text returned per call (default 100,000). */
  maxBytes?: number;
  /** Tool timeout in milliseconds. */
  timeoutMs?: number;
  /** Secrets files that are refused (default {@link DEFAULT_SECRET_FILES}); `false` allows every file. */
  secretFiles?: SecretFilesOption;
}

const readFileInput = z.object({
  path: z.string().min(1).describe('File path relative to the project root.'),
  startLine: z.int().min(1).optional().describe('First line to read, 1-based. Default: 1.'),
  endLine: z.int().min(1).optional().describe('Last line to read, inclusive. Default: the end of the file.'),
});

const DEFAULT_MAX_BYTES = 100_000;
// Bytes sniffed for a NUL to tell binary files from text, as git and grep do.
const SNIFF_BYTES = 8192;

/** A `read_file` tool confined to `options.root`. */
export function readFileTool(options: ReadFileToolOptions): DefinedTool {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  return defineTool({
    name: 'read_file',
    description:
      'Read a text file in the project, with line numbers. Give startLine/endLine to read part of a long file; ' +
      `at most ${maxBytes} bytes are returned per call and the reply says how many lines the file has.`,
    input: readFileInput,
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    execute: async (input, { signal }) => {
      const file = await resolveInsideRoot(options.root, input.path);
      refuseSecretFile(file.relative, options.secretFiles);
      const handle = await openTextFile(file.absolute, file.relative);
      try {
        const startLine = input.startLine ?? 1;
        const endLine = input.endLine ?? Number.POSITIVE_INFINITY;
        if (endLine < startLine) {
          throw new ToolUsageError('invalid_line_range', `endLine (${endLine}) is before startLine (${startLine}).`);
        }
        const range = await readLines(handle, startLine, endLine, maxBytes, signal);
        return formatRange(file.relative, range, startLine, maxBytes);
      } finally {
        await handle.close();
      }
    },
  });
}

// O_NOFOLLOW: the path was checked with its links resolved, so a link appearing at its
// end since then is a swap and is refused. O_NONBLOCK: opening a FIFO returns at once
// instead of waiting for a writer; the type check below then refuses it. (Both are 0
// where the platform lacks them.)
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/**
 * Opens a regular text file for reading, checking the opened file itself (not the
 * path again), so what is checked is what is read.
 */
async function openTextFile(absolute: string, relative: string): Promise<FileHandle> {
  const handle = await open(absolute, OPEN_FLAGS).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT' || error.code === 'ENOTDIR') {
      throw new ToolUsageError('not_found', `No file "${relative}". Use list_files to see what exists.`);
    }
    if (error.code === 'ELOOP') throw new PathEscapeError(relative, 'it became a symbolic link while being opened');
    throw error;
  });
  try {
    await assertTextFile(handle, relative);
    return handle;
  } catch (error) {
    await handle.close();
    throw error;
  }
}

async function assertTextFile(handle: FileHandle, relative: string): Promise<void> {
  const stats = await handle.stat();
  if (stats.isDirectory()) {
    throw new ToolUsageError('not_a_file', `"${relative}" is a directory. Use list_files to see what it contains.`);
  }
  if (!stats.isFile()) {
    throw new ToolUsageError(
      'not_a_file',
      `"${relative}" is not a regular file (a pipe, socket or device); read_file reads files only.`,
    );
  }
  const { buffer, bytesRead } = await handle.read(Buffer.alloc(SNIFF_BYTES), 0, SNIFF_BYTES, 0);
  if (buffer.subarray(0, bytesRead).includes(0)) {
    throw new ToolUsageError(
      'binary_file',
      `"${relative}" is a binary file (${stats.size} bytes); read_file shows text only.`,
    );
  }
}

interface LineRange {
  lines: string[];
  totalLines: number;
  /** True when the byte cap stopped the range early. */
  capped: boolean;
}

async function readLines(
  handle: FileHandle,
  startLine: number,
  endLine: number,
  maxBytes: number,
  signal: AbortSignal,
): Promise<LineRange> {
  const range: LineRange = { lines: [], totalLines: 0, capped: false };
  let bytes = 0;
  const onLine = (line: string) => {
    const number = (range.totalLines += 1);
    if (number < startLine || number > endLine || range.capped) return;
    const numbered = `${number}\t${line}`;
    const cost = Buffer.byteLength(numbered) + 1;
    if (bytes + cost > maxBytes) {
      range.capped = true;
      if (range.lines.length === 0) range.lines.push(cutToBytes(numbered, maxBytes));
      return;
    }
    range.lines.push(numbered);
    bytes += cost;
  };
  // The whole file is scanned to count its lines; only text that can still be shown is
  // kept (a line is cut past maxBytes characters, which is at least maxBytes bytes).
  const wanted = (number: number) => number >= startLine && number <= endLine && !range.capped;
  const splitter = new LineSplitter(onLine, wanted, maxBytes + 1);
  const stream = createReadStream('', { fd: handle, start: 0, autoClose: false, encoding: 'utf8', signal });
  for await (const chunk of stream as AsyncIterable<string>) splitter.feed(chunk);
  splitter.end();
  return range;
}

/**
 * Splits text fed in chunks into lines ended by `\n`, `\r\n` or a lone `\r` (as
 * readline does), keeping at most `keep` characters of a line and none of a line
 * that is not `wanted`. readline instead builds every line whole, and one longer than
 * V8's largest string throws from a stream callback.
 */
class LineSplitter {
  private current = '';
  private lineNumber = 1;
  private open = false;
  private afterCarriageReturn = false;

  constructor(
    private readonly onLine: (line: string) => void,
    private readonly wanted: (lineNumber: number) => boolean,
    private readonly keep: number,
  ) {}

  feed(chunk: string): void {
    let from = 0;
    for (let index = 0; index < chunk.length; index += 1) {
      const code = chunk.charCodeAt(index);
      if (code !== 0x0a && code !== 0x0d) continue;
      const secondHalfOfCrLf = code === 0x0a && this.afterCarriageReturn && index === from && !this.open;
      if (!secondHalfOfCrLf) {
        this.take(chunk.slice(from, index));
        this.finish();
      }
      this.afterCarriageReturn = code === 0x0d;
      from = index + 1;
    }
    if (from < chunk.length) {
      this.take(chunk.slice(from));
      this.afterCarriageReturn = false;
    }
  }

  /** Ends the text: a last line without a line break still counts. */
  end(): void {
    if (this.open) this.finish();
  }

  private take(text: string): void {
    if (text === '') return;
    this.open = true;
    if (this.current.length < this.keep && this.wanted(this.lineNumber)) {
      this.current += text.slice(0, this.keep - this.current.length);
    }
  }

  private finish(): void {
    this.onLine(this.current);
    this.current = '';
    this.open = false;
    this.lineNumber += 1;
  }
}

function formatRange(relative: string, range: LineRange, startLine: number, maxBytes: number): string {
  const { lines, totalLines, capped } = range;
  if (totalLines === 0) return `${relative}: empty file (0 lines).`;
  if (startLine > totalLines) {
    throw new ToolUsageError(
      'invalid_line_range',
      `startLine ${startLine} is past the end: "${relative}" has ${totalLines} lines.`,
    );
  }
  const lastLine = startLine + lines.length - 1;
  const header = `${relative}: lines ${startLine}-${lastLine} of ${totalLines}`;
  const footer = capped
    ? `\n[stopped at the ${maxBytes}-byte cap; call read_file with startLine=${lastLine + 1} to continue]`
    : '';
  return `${header}\n${lines.join('\n')}${footer}`;
}

function cutToBytes(text: string, maxBytes: number): string {
  const buffer = Buffer.from(text);
  // Drop a multi-byte character split by the cut instead of showing a replacement char.
  return buffer
    .subarray(0, maxBytes)
    .toString('utf8')
    .replace(/\uFFFD$/, '');
}
