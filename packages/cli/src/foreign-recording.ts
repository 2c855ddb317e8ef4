/**
 * What a command says when it is given another agent's recording where it reads a
 * transcript: which recording it is and the exact command that reads it, never
 * `episodic repair` (which would set every line of it aside).
 */
import { EpisodicError } from '@episodic/core';
import { detectRecording, detectRecordingFile, sourceNames } from './import/detect-source.js';
import type { ImportSource } from './import/import-result.js';

/** A recording of another agent (or an API log) given where a transcript was expected. */
export class ForeignRecordingError extends EpisodicError {
  readonly file: string;
  readonly source: ImportSource;

  constructor(file: string, source: ImportSource, message: string, options?: { cause?: unknown }) {
    super('foreign_recording', message, options);
    this.file = file;
    this.source = source;
  }
}

/** A path as it can be pasted into a shell. */
export function shellWord(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * Throws {@link ForeignRecordingError} when `file` is a recording `episodic import`
 * reads: `command` (e.g. `budget`) is the command to suggest with `--from`, or
 * undefined when the command does not take `--from`.
 */
export async function refuseForeignRecording(file: string, command: string | undefined, cause?: unknown): Promise<void> {
  const source = await detectRecordingFile(file);
  if (source) throw foreignRecordingError(file, source, command, cause);
}

/** The same for text read from standard input (`head` is its start), named `-` in the command. */
export function refuseForeignText(head: string, name: string, command: string | undefined, cause?: unknown): void {
  const source = detectRecording(head);
  if (source) throw foreignRecordingError(name, source, command, cause, '-');
}

function foreignRecordingError(
  file: string,
  source: ImportSource,
  command: string | undefined,
  cause: unknown,
  path = shellWord(file),
): ForeignRecordingError {
  const convert = `episodic import --from ${source} ${path} -o session.jsonl`;
  const direct = command ? `read it with: episodic ${command} --from ${source} ${path} (or convert it once: ${convert})` : `convert it first: ${convert}`;
  return new ForeignRecordingError(file, source, `${file} is ${sourceNames[source]}, not a transcript: ${direct}`, { cause });
}
