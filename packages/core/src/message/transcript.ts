/**
 * Reading and writing transcripts (format v1.1, JSON Lines; v1 files read as they
 * are). The reader streams, so a large session never has to be held as one string;
 * every problem becomes a {@link TranscriptError} naming the line and the field.
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { writeFileAtomic } from '../support/atomic-write.js';
import { describeSchemaIssue } from '../support/schema-issue.js';
import { EpisodicError, TranscriptError } from '../errors.js';
import type { Message } from './message.js';
import { MessageSchemas } from './transcript-schema.js';
import {
  isVersionLine,
  type TranscriptVersion,
  TRANSCRIPT_VERSION,
  transcriptVersionOf,
  VersionCheck,
  versionLine,
} from './transcript-version.js';

const roles = Object.keys(MessageSchemas) as (keyof typeof MessageSchemas)[];

/** Options for reading a transcript. */
export interface ReadTranscriptOptions {
  /** Name used in error messages when the source is a stream. */
  file?: string;
  /**
   * The newest transcript version to accept (default the newest this code knows).
   * With `'1'` the reader is a v1 reader: a v1.1 version line or any v1.1 content
   * is refused with an error naming the line and what needs v1.1.
   */
  accept?: TranscriptVersion;
}

/**
 * Parses one transcript line. `lineNumber` is 1-based and only used for errors.
 * Throws {@link TranscriptError}.
 */
export function parseTranscriptLine(text: string, lineNumber: number, file?: string): Message {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new TranscriptError({ file, line: lineNumber }, `not valid JSON (${(error as Error).message})`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new TranscriptError({ file, line: lineNumber }, 'a message must be a JSON object');
  }
  if (isVersionLine(value)) {
    throw new TranscriptError(
      { file, line: lineNumber, field: 'format' },
      'a version line may only be the first line of a transcript file, not a message',
    );
  }
  const role = (value as { role?: unknown }).role;
  if (typeof role !== 'string' || !(roles as string[]).includes(role)) {
    throw new TranscriptError(
      { file, line: lineNumber, field: 'role' },
      `role must be one of ${roles.join(', ')} (got ${JSON.stringify(role) ?? 'nothing'})`,
    );
  }
  const schema = MessageSchemas[role as keyof typeof MessageSchemas];
  const result = schema.safeParse(value);
  if (!result.success) {
    const issue = describeSchemaIssue(result.error, value);
    const field = issue.field || '(message)';
    throw new TranscriptError({ file, line: lineNumber, field }, `${role} ${field} ${issue.detail}`);
  }
  // Return the input itself: loose schemas keep unknown fields anyway, and the
  // original key order keeps rewritten lines byte-identical.
  return value as Message;
}

/**
 * Streams a transcript, yielding one validated message per non-blank line.
 * `source` is a file path or a readable stream.
 */
export async function* readTranscriptStream(
  source: string | Readable,
  options: ReadTranscriptOptions = {},
): AsyncGenerator<Message> {
  const file = typeof source === 'string' ? source : options.file;
  const input = typeof source === 'string' ? createReadStream(source, { encoding: 'utf8' }) : source;
  const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
  const versions = new VersionCheck(options.accept ?? TRANSCRIPT_VERSION, file);
  let lineNumber = 0;
  let first = true;
  try {
    for await (const line of lines) {
      lineNumber += 1;
      if (line.trim() === '') continue;
      const header = first ? versionLineValue(line) : undefined;
      if (header) versions.declare(header, lineNumber);
      first = false;
      if (header) continue;
      const message = parseTranscriptLine(line, lineNumber, file);
      versions.check(message, lineNumber);
      yield message;
    }
  } catch (error) {
    if (EpisodicError.isInstance(error)) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new EpisodicError('file_not_found', `Transcript file not found: ${file}`);
    throw error;
  } finally {
    lines.close();
    if (typeof source === 'string') input.destroy();
  }
}

/** The parsed version line, when `line` is one (anything else is left to the message parser). */
function versionLineValue(line: string): { format: unknown; version: unknown } | undefined {
  if (!line.includes('"format"')) return undefined;
  try {
    const value: unknown = JSON.parse(line);
    return isVersionLine(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Reads a whole transcript (file path or stream) into memory. */
export async function readTranscript(
  source: string | Readable,
  options: ReadTranscriptOptions = {},
): Promise<Message[]> {
  const messages: Message[] = [];
  for await (const message of readTranscriptStream(source, options)) messages.push(message);
  return messages;
}

/** Serialises one message as a transcript line (without the newline). */
export function serializeMessage(message: Message): string {
  return JSON.stringify(message);
}

/**
 * Serialises messages as transcript text (one line each, trailing newline). When a
 * message needs v1.1 the text starts with the version line; otherwise it is exactly
 * what v1 wrote, so v1 readers keep reading it.
 */
export function formatTranscript(messages: readonly Message[]): string {
  const header = transcriptVersionOf(messages) === '1' ? '' : `${versionLine()}\n`;
  return header + messages.map((message) => `${serializeMessage(message)}\n`).join('');
}

/**
 * Writes a whole transcript to `path` atomically: it is written to a temporary file
 * beside the target, flushed to disk, then renamed over it, so a crash never leaves
 * a half-written file in place of a good one.
 */
export async function writeTranscript(path: string, messages: readonly Message[]): Promise<void> {
  await writeFileAtomic(path, formatTranscript(messages));
}
