/**
 * Reads the transcript a command was given: a file path (opened through the checked
 * opener), or `-` for standard input.
 */
import { Readable } from 'node:stream';
import { type Message, TranscriptError } from '@episodic/core';
import { withRepairHint } from '@episodic/core/internal';
import { readTranscript } from '@episodic/core/node';
import { openChecked } from './checked-file.js';
import { refuseForeignRecording, refuseForeignText } from './foreign-recording.js';

/** The name standard input goes by in messages. */
export const stdinName = '<stdin>';

/**
 * Reads and validates a whole transcript. Problems the user can fix (missing file, a
 * directory or FIFO, no permission, malformed line) surface as `EpisodicError`s; a
 * file another agent recorded surfaces as a `ForeignRecordingError` naming the
 * command that reads it (`command` with `--from`, or `episodic import`).
 */
export async function readInput(source: string, stdin: Readable, command?: string): Promise<Message[]> {
  if (source === '-') return readStandardInput(stdin, command);
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

/** Bytes of standard input kept to recognise another agent's recording (as of a file's head). */
const HEAD_BYTES = 256 * 1024;

/** Standard input as a transcript; its head is kept to name a recording fed to it. */
async function readStandardInput(stdin: Readable, command: string | undefined): Promise<Message[]> {
  const head: Buffer[] = [];
  let kept = 0;
  async function* tap(): AsyncGenerator<Buffer> {
    for await (const chunk of stdin) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
      if (kept < HEAD_BYTES) {
        head.push(bytes);
        kept += bytes.length;
      }
      yield bytes;
    }
  }
  try {
    return await readTranscript(Readable.from(tap()), { file: stdinName });
  } catch (error) {
    if (error instanceof TranscriptError) refuseForeignText(Buffer.concat(head).toString('utf8'), stdinName, command, error);
    throw error;
  }
}
