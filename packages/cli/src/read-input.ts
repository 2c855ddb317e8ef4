/**
 * Reads the transcript a command was given: a file path, or `-` for standard input.
 */
import type { Readable } from 'node:stream';
import { EpisodicError, type Message } from '@episodic/core';
import { readTranscript } from '@episodic/core/node';
import { refuseForeignRecording } from './foreign-recording.js';

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
 * directory, no permission, malformed line) surface as {@link EpisodicError}s; a file
 * another agent recorded surfaces as a `ForeignRecordingError` naming the command
 * that reads it (`command` with `--from`, or `episodic import`).
 */
export async function readInput(source: string, stdin: Readable, command?: string): Promise<Message[]> {
  if (source === '-') return readTranscript(stdin, { file: stdinName });
  try {
    return await readTranscript(source);
  } catch (error) {
    if (EpisodicError.isInstance(error) && error.code === 'invalid_transcript') await refuseForeignRecording(source, command, error);
    const reason = readFailures[(error as NodeJS.ErrnoException).code ?? ''];
    if (reason && !EpisodicError.isInstance(error)) {
      throw new EpisodicError('unreadable_input', `cannot read ${source}: ${reason}`, { cause: error });
    }
    throw error;
  }
}
