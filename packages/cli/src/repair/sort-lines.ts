/**
 * The core of `episodic repair`: reads a transcript line by line and sorts each line
 * into kept (it passes every check a reader makes, given the kept lines before it)
 * or rejected (with the reason). A line is never changed, only kept or moved aside;
 * rejecting a line can reject later ones (the results of a rejected call).
 */
import { createReadStream } from 'node:fs';
import { EpisodicError, type TranscriptError } from '@episodic/core';
import { TRANSCRIPT_VERSION } from '@episodic/core/transcript';
import {
  type LineCheckOptions,
  parseTranscriptLineBytes,
  TranscriptConsistency,
  type TranscriptLineBytes,
  transcriptLines,
  VersionCheck,
} from '@episodic/core/internal';

/** Characters of a rejected line kept in the report (the backup has every byte). */
const SHOWN_CHARACTERS = 2_000;

/** A line moved aside, and why. */
export interface RejectedLine {
  /** 1-based line number in the original file. */
  line: number;
  reason: string;
  /** The line as text (invalid bytes replaced), cut to 2,000 characters. */
  text: string;
}

/** What sorting found. */
export interface SortedLines {
  /** Lines in the file. */
  lines: number;
  rejected: RejectedLine[];
}

/** Sorts the lines of `file`, handing each kept line (without its newline) to `keep`, in order. */
export async function sortLines(file: string, keep: (bytes: Buffer) => Promise<void>): Promise<SortedLines> {
  const check: LineCheckOptions = {
    consistency: new TranscriptConsistency(),
    versions: new VersionCheck(TRANSCRIPT_VERSION, file),
  };
  const rejected: RejectedLine[] = [];
  let lines = 0;
  for await (const line of transcriptLines(createReadStream(file), { keepOverLong: true })) {
    lines = line.number;
    const reason = problemOf(line, check);
    if (reason === undefined) await keep(line.bytes);
    else rejected.push({ line: line.number, reason, text: shown(line) });
  }
  return { lines, rejected };
}

/** Why the line must go, or undefined when it may stay (it is then recorded as kept). */
function problemOf(line: TranscriptLineBytes, check: LineCheckOptions): string | undefined {
  try {
    parseTranscriptLineBytes(line, check);
    return undefined;
  } catch (error) {
    if (!EpisodicError.isInstance(error) || error.code !== 'invalid_transcript') throw error;
    const { detail } = error as TranscriptError;
    return line.terminated ? detail : `${detail} (the last line, without a newline: cut short by a crash)`;
  }
}

function shown(line: TranscriptLineBytes): string {
  const text = line.bytes.toString('utf8');
  const cut = line.overLong || text.length > SHOWN_CHARACTERS;
  return cut ? `${text.slice(0, SHOWN_CHARACTERS)}... (${line.length} bytes in all)` : text;
}
