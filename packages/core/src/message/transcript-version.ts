/**
 * Transcript versions. v1.1 is a strict superset of v1: every v1 file is a valid
 * v1.1 file and loads unchanged. A file that uses anything v1 does not have says so
 * with a version line on top, `{"format":"episodic-transcript","version":"1.1"}`,
 * which a v1 reader refuses at line 1 instead of misreading what follows (an
 * `injected` user message would otherwise pass as a real one). A file whose
 * messages are all v1 is written without it, byte for byte as v1 wrote it.
 *
 * What v1.1 adds: tool results with content parts (text, image, file), system lines
 * after the top and `developer` lines anywhere, `provider-tool` and `compaction` parts
 * and applied `contextEdits` on assistant messages, the
 * `injected` and `compaction` markers on user messages, the `finalAnswer` marker on
 * the tool result that accepted a structured final answer, and `summary` lines
 * (summaries of evicted episodes the agent loop writes).
 */
import { TranscriptError } from '../errors.js';
import type { Message } from './message.js';

/** The transcript versions this code reads, oldest first. */
export const transcriptVersions = ['1', '1.1'] as const;
/** A transcript version. */
export type TranscriptVersion = (typeof transcriptVersions)[number];
/** The version this code writes when the content needs more than v1. */
export const TRANSCRIPT_VERSION: TranscriptVersion = '1.1';

/** The `format` value of a version line. */
export const TRANSCRIPT_FORMAT = 'episodic-transcript';

/** The version line of a transcript file (without its newline). */
export function versionLine(version: TranscriptVersion = TRANSCRIPT_VERSION): string {
  return JSON.stringify({ format: TRANSCRIPT_FORMAT, version });
}

/** True for the object of a version line (it has `format`, a message has `role`). */
export function isVersionLine(value: unknown): value is { format: string; version: unknown } {
  return typeof value === 'object' && value !== null && 'format' in value && !('role' in value);
}

/**
 * The version a version line declares. Throws a {@link TranscriptError} for another
 * format, or for a version this code cannot read (newer than `accept`).
 */
export function declaredVersion(
  value: { format: unknown; version: unknown },
  line: number,
  file: string | undefined,
  accept: TranscriptVersion,
): TranscriptVersion {
  if (value.format !== TRANSCRIPT_FORMAT) {
    throw new TranscriptError(
      { file, line, field: 'format' },
      `format must be ${JSON.stringify(TRANSCRIPT_FORMAT)} (got ${JSON.stringify(value.format)}): this is not an Episodic transcript`,
    );
  }
  const known = transcriptVersions.find((version) => version === value.version);
  if (!known || newer(known, accept)) {
    throw new TranscriptError(
      { file, line, field: 'version' },
      `this file is transcript version ${JSON.stringify(value.version)}, and this reader reads up to ${accept}: ` +
        (known ? 'read it without the version limit' : 'upgrade @episodic/core (or @episodic/cli) to read it'),
    );
  }
  return known;
}

function newer(version: TranscriptVersion, than: TranscriptVersion): boolean {
  return transcriptVersions.indexOf(version) > transcriptVersions.indexOf(than);
}

/**
 * What in `message` needs v1.1, or undefined when v1 has it all. `afterTop` is true
 * once a message other than a system line came before (a system line is v1 only at
 * the top).
 */
export function v11Feature(message: Message, afterTop: boolean): { field: string; what: string } | undefined {
  switch (message.role) {
    case 'developer':
      return { field: 'role', what: 'a developer line' };
    case 'summary':
      return { field: 'role', what: 'a summary line' };
    case 'system':
      return afterTop ? { field: 'role', what: 'a system line after the top of the transcript' } : undefined;
    case 'user':
      if (message.compaction !== undefined) return { field: 'compaction', what: 'a compaction marker' };
      return message.injected !== undefined ? { field: 'injected', what: 'the injected marker' } : undefined;
    case 'tool':
      // A v1 reader would take an episode ended by an accepted final answer for an unfinished one.
      if (message.finalAnswer !== undefined) return { field: 'finalAnswer', what: 'the final-answer marker' };
      return typeof message.content === 'string' ? undefined : { field: 'content', what: 'tool result content parts' };
    case 'assistant': {
      if (message.contextEdits !== undefined) return { field: 'contextEdits', what: 'applied context edits' };
      const index = message.content.findIndex((part) => part.type === 'provider-tool' || part.type === 'compaction');
      if (index === -1) return undefined;
      return { field: `content[${index}].type`, what: `a ${message.content[index]?.type} part` };
    }
  }
}

/** The oldest version that holds all of `messages`: `1` or `1.1`. */
export function transcriptVersionOf(messages: readonly Message[]): TranscriptVersion {
  let afterTop = false;
  for (const message of messages) {
    if (v11Feature(message, afterTop)) return '1.1';
    if (message.role !== 'system') afterTop = true;
  }
  return '1';
}

/**
 * Checks messages line by line against the version in force: the declared one, or,
 * for a file without a version line, the newest the reader accepts.
 */
export class VersionCheck {
  private afterTop = false;
  private version: TranscriptVersion;
  private declaredOn: number | undefined;
  private started = false;

  constructor(
    private readonly accept: TranscriptVersion,
    private readonly file: string | undefined,
  ) {
    this.version = accept;
  }

  /** True until the first line (a version line or a message) is read. */
  get atTop(): boolean {
    return !this.started;
  }

  /** The version line, read on `line` (the file's first). */
  declare(value: { format: unknown; version: unknown }, line: number): void {
    this.started = true;
    this.version = declaredVersion(value, line, this.file, this.accept);
    this.declaredOn = line;
  }

  /** Throws a {@link TranscriptError} when `message` needs a newer version than the one in force. */
  check(message: Message, line: number): void {
    this.started = true;
    const feature = this.version === '1' ? v11Feature(message, this.afterTop) : undefined;
    if (message.role !== 'system') this.afterTop = true;
    if (!feature) return;
    const why =
      this.declaredOn === undefined
        ? 'this reader reads transcript v1 only'
        : `line ${this.declaredOn} says the file is transcript v1`;
    throw new TranscriptError(
      { file: this.file, line, field: feature.field },
      `${feature.what} needs transcript v1.1, but ${why}` +
        (this.declaredOn === undefined ? '' : ` (write {"format":"${TRANSCRIPT_FORMAT}","version":"1.1"} there)`),
    );
  }
}
