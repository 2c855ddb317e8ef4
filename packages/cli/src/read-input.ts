/**
 * Reads the transcript a command was given: a file path (opened through the checked
 * opener), or `-` for standard input.
 */
import type { Readable } from 'node:stream';
import { type Message, TranscriptError } from '@episodic/core';
import { withRepairHint } from '@episodic/core/internal';
import { readTranscript } from '@episodic/core/node';
import { openChecked } from './checked-file.js';
import { refuseForeignRecording } from './foreign-recording.js';

/** The name standard input goes by in messages. */
export const stdinName = '<stdin>';

/**
 * Reads and validates a whole transcript. Problems the user can fix (missing file, a
 * directory or FIFO, no permission, malformed line) surface as `EpisodicError`s; a
 * file another agent recorded surfaces as a `ForeignRecordingError` naming the
 * command that reads it (`command` with `--from`, or `episodic import`).
 */
export async function readInput(source: string, stdin: Readable, command?: string): Promise<Message[]> {
  if (source === '-') return readTranscript(stdin, { file: stdinName });
  // The transcript is read as a stream: no size cap, but a regular file only.
  const checked = await openChecked(source, { what: 'the transcript' });
  try {
    return await readTranscript(checked.handle.createReadStream({ autoClose: false }), { file: source });
  } catch (error) {
    if (!(error instanceof TranscriptError)) throw error;
    await refuseForeignRecording(source, command, error);
    throw withRepairHint(error, source);
  } finally {
    await checked.handle.close();
  }
}
