/**
 * Reading a recording's JSON Lines tolerantly: agents write one object per line,
 * but a crash or a missing newline can leave two objects glued on one line (pi wrote
 * a message and a compaction entry that way). Each object keeps the number of the
 * line it was on, for errors and for the report of what was dropped.
 */
import type { Readable } from 'node:stream';
import { z } from 'zod';
import { ImportError } from './import-result.js';
import { readChecked, UnusableFileError } from '../checked-file.js';

/** One JSON object of a recording and the line it came from. */
export interface RecordingLine {
  /** 1-based. */
  line: number;
  value: Record<string, unknown>;
}

/** The largest recording read (512 MiB): a longer file does not fit one JavaScript string. */
export const MAX_RECORDING_BYTES = 512 * 2 ** 20;

/** Reads a recording from a file path (through the checked opener), or standard input when `file` is `-`. */
export async function readRecordingText(file: string, stdin: Readable): Promise<string> {
  if (file === '-') {
    const chunks: Buffer[] = [];
    for await (const chunk of stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
    return Buffer.concat(chunks).toString('utf8');
  }
  try {
    return (await readChecked(file, { what: 'the recording', maxBytes: MAX_RECORDING_BYTES })).toString('utf8');
  } catch (error) {
    if (!(error instanceof UnusableFileError)) throw error;
    const split = error.reason === 'EFBIG' ? '; split it' : '';
    throw new ImportError(file, undefined, `cannot read it: ${error.detail}${split}`);
  }
}

/** Every JSON object of the text, in order; blank lines skipped. Throws {@link ImportError}. */
export function recordingLines(text: string, file: string): RecordingLine[] {
  const out: RecordingLine[] = [];
  const lines = text.split('\n');
  for (const [index, raw] of lines.entries()) {
    const line = raw.trim();
    if (line === '') continue;
    for (const value of parseObjects(line, file, index + 1)) out.push({ line: index + 1, value });
  }
  return out;
}

function parseObjects(line: string, file: string, number: number): Record<string, unknown>[] {
  const pieces = splitGluedObjects(line);
  return pieces.map((piece) => {
    let value: unknown;
    try {
      value = JSON.parse(piece);
    } catch (error) {
      throw new ImportError(file, number, `not valid JSON (${(error as Error).message})`);
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw new ImportError(file, number, 'expected a JSON object on every line');
    }
    return value as Record<string, unknown>;
  });
}

/**
 * Cuts `{...}{...}` into its objects at depth zero, outside strings. A line that is
 * one object (the usual case) comes back whole; anything else is left for
 * `JSON.parse` to report.
 */
export function splitGluedObjects(line: string): string[] {
  if (!line.startsWith('{')) return [line];
  const pieces: string[] = [];
  let depth = 0;
  let inString = false;
  let start = 0;
  for (let index = 0; index < line.length; index += 1) {
    const char = line[index];
    if (inString) {
      if (char === '\\') index += 1;
      else if (char === '"') inString = false;
    } else if (char === '"') {
      inString = true;
    } else if (char === '{' || char === '[') {
      depth += 1;
    } else if (char === '}' || char === ']') {
      depth -= 1;
      if (depth === 0) {
        pieces.push(line.slice(start, index + 1));
        start = index + 1;
        while (line[start] === ' ') start += 1;
      }
    }
  }
  if (start < line.length) pieces.push(line.slice(start));
  return pieces;
}

/**
 * Checks a record against the shape an importer relies on; an {@link ImportError}
 * names the line and the first field that does not match.
 */
export function checkShape<Schema extends z.ZodType>(
  schema: Schema,
  record: RecordingLine,
  file: string,
  what: string,
): z.infer<Schema> {
  const result = schema.safeParse(record.value);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const field = issue.path.length > 0 ? issue.path.map(String).join('.') : '(line)';
  throw new ImportError(file, record.line, `${what}: ${field} ${issue.message.toLowerCase()}`);
}
