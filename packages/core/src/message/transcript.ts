/**
 * Reading and writing transcripts (format v1, JSON Lines). The reader streams, so a
 * large session never has to be held as one string; every problem becomes a
 * {@link TranscriptError} naming the line and the field.
 */
import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import type { z } from 'zod';
import { writeFileAtomic } from '../support/atomic-write.js';
import { EpisodicError, TranscriptError } from '../errors.js';
import type { Message } from './message.js';
import { TranscriptConsistency } from './transcript-consistency.js';
import { MAX_NESTING_DEPTH, tooDeepField } from './transcript-limits.js';
import { decodeTranscriptLine, type TranscriptLineBytes, transcriptLines } from './transcript-lines.js';
import { MessageSchemas } from './transcript-schema.js';

const roles = Object.keys(MessageSchemas) as (keyof typeof MessageSchemas)[];

/** Options for reading a transcript. */
export interface ReadTranscriptOptions {
  /** Name used in error messages when the source is a stream. */
  file?: string;
  /** Longest line accepted, in bytes. Default `MAX_LINE_BYTES` (32 MiB). */
  maxLineBytes?: number;
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
  const deep = tooDeepField(value);
  if (deep !== undefined) {
    throw new TranscriptError(
      { file, line: lineNumber, field: deep },
      `${deep} nests arrays and objects more than ${MAX_NESTING_DEPTH} levels deep`,
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
    const { issue, path } = deepestIssue(result.error.issues[0] as z.core.$ZodIssue, []);
    const field = formatPath(path);
    throw new TranscriptError(
      { file, line: lineNumber, field },
      `${role} ${field} ${describeIssue(issue, path, value)}`,
    );
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
  maxLineBytes?: number;
}

/**
 * One line of bytes as a message, checked on its own (length, UTF-8, JSON, format
 * v1) and, with `consistency`, against the lines before it. Undefined for a blank
 * line. Throws {@link TranscriptError}.
 */
export function parseTranscriptLineBytes(line: TranscriptLineBytes, options: LineCheckOptions = {}): Message | undefined {
  const text = decodeTranscriptLine(line, options.file, options.maxLineBytes);
  if (text.trim() === '') return undefined;
  const message = parseTranscriptLine(text, line.number, options.file);
  options.consistency?.check(message, line.number, options.file);
  return message;
}

/** The same error, telling how to set the damaged lines of `file` aside. */
export function withRepairHint(error: TranscriptError, file: string): TranscriptError {
  const hint = `. To move damaged lines aside (and keep a backup), run: episodic repair ${file}`;
  return new TranscriptError({ file: error.file, line: error.line, field: error.field }, error.detail + hint);
}

/**
 * Unions report one issue per alternative; the alternative that got furthest
 * (longest path) says best what is wrong.
 */
function deepestIssue(
  issue: z.core.$ZodIssue,
  prefix: PropertyKey[],
): { issue: z.core.$ZodIssue; path: PropertyKey[] } {
  const path = [...prefix, ...issue.path];
  if (issue.code !== 'invalid_union' || issue.errors.length === 0) return { issue, path };
  let best: { issue: z.core.$ZodIssue; path: PropertyKey[] } | undefined;
  for (const branch of issue.errors) {
    const first = branch[0];
    if (!first) continue;
    const candidate = deepestIssue(first, path);
    if (!best || candidate.path.length > best.path.length) best = candidate;
  }
  return best ?? { issue, path };
}

function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out ? `.${String(key)}` : String(key);
  }
  return out || '(message)';
}

function describeIssue(issue: z.core.$ZodIssue, path: readonly PropertyKey[], root: unknown): string {
  const received = receivedAt(path, root);
  switch (issue.code) {
    case 'invalid_union': {
      const options = (issue as { options?: unknown[] }).options;
      if (options) return `must be one of ${options.join(', ')}`;
      return received === undefined ? 'is required' : 'does not match any allowed shape';
    }
    case 'invalid_type':
      if (received === undefined) return 'is required';
      return `must be ${issue.expected} (got ${describeValue(received)})`;
    case 'invalid_value':
      return `must be one of ${issue.values.map((value) => JSON.stringify(value)).join(', ')}`;
    case 'too_small':
      return issue.origin === 'string' ? 'must not be empty' : `must be at least ${String(issue.minimum)}`;
    default:
      return issue.message;
  }
}

function receivedAt(path: readonly PropertyKey[], root: unknown): unknown {
  let current: unknown = root;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/**
 * Streams a transcript, yielding one validated message per non-blank line: each line
 * checked on its own and against the lines before it (see {@link TranscriptConsistency}).
 * `source` is a file path or a readable stream.
 */
export async function* readTranscriptStream(
  source: string | Readable,
  options: ReadTranscriptOptions = {},
): AsyncGenerator<Message> {
  const file = typeof source === 'string' ? source : options.file;
  const input = typeof source === 'string' ? createReadStream(source) : source;
  const check: LineCheckOptions = { ...options, file, consistency: new TranscriptConsistency() };
  try {
    for await (const line of transcriptLines(input, { maxLineBytes: options.maxLineBytes, file })) {
      const message = parseTranscriptLineBytes(line, check);
      if (message) yield message;
    }
  } catch (error) {
    if (error instanceof TranscriptError && typeof source === 'string') throw withRepairHint(error, source);
    if (EpisodicError.isInstance(error)) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new EpisodicError('file_not_found', `Transcript file not found: ${file}`);
    throw error;
  } finally {
    if (typeof source === 'string') input.destroy();
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

/** Serialises messages as transcript text (one line each, trailing newline). */
export function formatTranscript(messages: readonly Message[]): string {
  return messages.map((message) => `${serializeMessage(message)}\n`).join('');
}

/**
 * Writes a whole transcript to `path` atomically: it is written to a temporary file
 * beside the target, flushed to disk, then renamed over it, so a crash never leaves
 * a half-written file in place of a good one.
 */
export async function writeTranscript(path: string, messages: readonly Message[]): Promise<void> {
  await writeFileAtomic(path, formatTranscript(messages));
}
