/**
 * Reads the transcript a command was given: a file path, or `-` for standard input;
 * with `--from`, a recording of another agent imported on the fly.
 */
import type { Readable } from 'node:stream';
import { EpisodicError, type Message, readTranscript } from '@episodic/core';
import type { ImportResult } from './import/import-result.js';
import { importSession, parseImportSource } from './import/import-session.js';

/** The name standard input goes by in messages. */
export const stdinName = '<stdin>';

/** File-system failures a user can fix, with what to tell them. */
const readFailures: Readonly<Record<string, string>> = {
  ENOENT: 'no such file',
  EISDIR: 'it is a directory, not a transcript file',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
};

/**
 * Reads and validates a whole transcript. Problems the user can fix (missing file,
 * directory, no permission, malformed line) surface as {@link EpisodicError}s.
 */
export async function readInput(source: string, stdin: Readable): Promise<Message[]> {
  if (source === '-') return readTranscript(stdin, { file: stdinName });
  try {
    return await readTranscript(source);
  } catch (error) {
    const reason = readFailures[(error as NodeJS.ErrnoException).code ?? ''];
    if (reason && !EpisodicError.isInstance(error)) {
      throw new EpisodicError('unreadable_input', `cannot read ${source}: ${reason}`, { cause: error });
    }
    throw error;
  }
}

/** A session to analyse, and how it was imported when it was not a transcript. */
export interface InputSession {
  messages: Message[];
  /** Set when `--from` imported the file. */
  imported?: ImportResult;
}

/** Reads a transcript, or imports a recording when `from` (the `--from` value) is given. */
export async function readSession(source: string, stdin: Readable, from: string | undefined): Promise<InputSession> {
  if (from === undefined) return { messages: await readInput(source, stdin) };
  const imported = await importSession(parseImportSource(from), source, stdin);
  return { messages: imported.messages, imported };
}
