/**
 * Reading and writing transcript files and streams on Node (part of
 * `@episodic/core/node`). The reader streams, so a large session never has to be
 * held as one string; each line is parsed by `transcript.ts`.
 */
import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { writeFileAtomic } from '../support/atomic-write.js';
import { EpisodicError } from '../errors/episodic-error.js';
import { TranscriptError } from '../errors/input-errors.js';
import type { Message } from './message.js';
import { formatTranscript, type LineCheckOptions, parseTranscriptLineBytes, type ReadTranscriptOptions, withRepairHint } from './transcript.js';
import { TranscriptConsistency } from './transcript-consistency.js';
import { transcriptLines } from './transcript-lines.js';
import { TRANSCRIPT_VERSION, VersionCheck } from './transcript-version.js';

/**
 * Streams a transcript, yielding one validated message per non-blank line: each line
 * checked on its own, against the version in force, and against the lines before it
 * (see `TranscriptConsistency`). `source` is a file path or a readable stream.
 */
export async function* readTranscriptStream(
  source: string | Readable,
  options: ReadTranscriptOptions = {},
): AsyncGenerator<Message> {
  const file = typeof source === 'string' ? source : options.file;
  const input = typeof source === 'string' ? createReadStream(source) : source;
  const check: LineCheckOptions = {
    file,
    maxLineBytes: options.maxLineBytes,
    consistency: new TranscriptConsistency(),
    versions: new VersionCheck(options.accept ?? TRANSCRIPT_VERSION, file),
  };
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

/**
 * Writes a whole transcript to `path` atomically: it is written to a temporary file
 * beside the target, flushed to disk, then renamed over it, so a crash never leaves
 * a half-written file in place of a good one.
 */
export async function writeTranscript(path: string, messages: readonly Message[]): Promise<void> {
  await writeFileAtomic(path, formatTranscript(messages));
}
