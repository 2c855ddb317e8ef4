/**
 * Parsing and formatting transcripts (format v1.1, JSON Lines; v1 files read as they
 * are), with no file system: `transcript-file.ts` reads and writes files and streams
 * on Node. Every problem becomes a {@link TranscriptError} naming the line and the field.
 */
import { describeSchemaIssue } from '../support/schema-issue.js';
import { TranscriptError } from '../errors/input-errors.js';
import type { Message } from './message.js';
import { TranscriptConsistency } from './transcript-consistency.js';
import { MAX_NESTING_DEPTH, tooDeepField } from './transcript-limits.js';
import { decodeTranscriptLine, type TranscriptLineBytes } from './transcript-lines.js';
import { transcriptSchemas } from './transcript-schema.js';
import {
  isVersionLine,
  type TranscriptVersion,
  transcriptVersionOf,
  VersionCheck,
  versionLine,
} from './transcript-version.js';

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
  /** Longest line accepted, in bytes. Default `MAX_LINE_BYTES` (32 MiB). */
  maxLineBytes?: number;
}

/**
 * Parses one transcript line. `lineNumber` is 1-based and only used for errors.
 * Throws a `TranscriptError`.
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
  const deep = tooDeepField(value);
  if (deep !== undefined) {
    throw new TranscriptError(
      { file, line: lineNumber, field: deep },
      `${deep} nests arrays and objects more than ${MAX_NESTING_DEPTH} levels deep`,
    );
  }
  const { MessageSchemas } = transcriptSchemas();
  const role = (value as { role?: unknown }).role;
  if (typeof role !== 'string' || !Object.hasOwn(MessageSchemas, role)) {
    throw new TranscriptError(
      { file, line: lineNumber, field: 'role' },
      `role must be one of ${Object.keys(MessageSchemas).join(', ')} (got ${JSON.stringify(role) ?? 'nothing'})`,
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
 * A message object from outside (a history, `send()` input, an adapter's answer)
 * checked like a transcript line and copied, so later changes to the caller's object
 * do not reach the session. Its nesting is checked before it is serialised, which a
 * deep enough object would otherwise overflow. Throws {@link TranscriptError}.
 */
export function copyMessage(value: unknown, lineNumber: number, file?: string): Message {
  const deep = tooDeepField(value);
  if (deep !== undefined) {
    throw new TranscriptError(
      { file, line: lineNumber, field: deep },
      `${deep} nests arrays and objects more than ${MAX_NESTING_DEPTH} levels deep`,
    );
  }
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    throw new TranscriptError({ file, line: lineNumber }, `cannot be written as JSON (${(error as Error).message})`);
  }
  return parseTranscriptLine(text ?? 'undefined', lineNumber, file);
}

/** Options of {@link parseTranscriptLineBytes}. */
export interface LineCheckOptions {
  file?: string;
  /** Checks the message against the lines before it (and records it). */
  consistency?: TranscriptConsistency;
  /** Reads a version line at the top and checks each message against the version in force. */
  versions?: VersionCheck;
  maxLineBytes?: number;
}

/**
 * One line of bytes as a message, checked on its own (length, UTF-8, JSON, format)
 * and, with `consistency`, against the lines before it. Undefined for a blank line
 * and, with `versions`, for the version line at the top. Throws {@link TranscriptError}.
 */
export function parseTranscriptLineBytes(line: TranscriptLineBytes, options: LineCheckOptions = {}): Message | undefined {
  const text = decodeTranscriptLine(line, options.file, options.maxLineBytes);
  if (text.trim() === '') return undefined;
  const { versions } = options;
  const header = versions?.atTop ? versionLineValue(text) : undefined;
  if (header) {
    versions?.declare(header, line.number);
    return undefined;
  }
  const message = parseTranscriptLine(text, line.number, options.file);
  versions?.check(message, line.number);
  options.consistency?.check(message, line.number, options.file);
  return message;
}

/** The same error, telling how to set the damaged lines of `file` aside. */
export function withRepairHint(error: TranscriptError, file: string): TranscriptError {
  const hint = `. To move damaged lines aside (and keep a backup), run: episodic repair ${file}`;
  return new TranscriptError({ file: error.file, line: error.line, field: error.field }, error.detail + hint);
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
