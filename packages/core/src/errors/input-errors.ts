/**
 * Errors about what a caller or a file handed to Episodic: a transcript line, a
 * context that cannot fit, an option, a saved record in another format.
 */
import { EpisodicError } from './episodic-error.js';

/** Where a transcript problem was found. */
export interface TranscriptLocation {
  /** The file the line came from, when reading a file. */
  file?: string;
  /** 1-based line number. */
  line: number;
  /** Path inside the message, such as `content[2].type`. */
  field?: string;
}

/** A transcript line that is not valid JSON or does not match transcript format v1. */
export class TranscriptError extends EpisodicError<'invalid_transcript'> {
  readonly file: string | undefined;
  readonly line: number;
  readonly field: string | undefined;
  /** What is wrong, without the location. */
  readonly detail: string;

  constructor(location: TranscriptLocation, detail: string) {
    const where = location.file ? `${location.file}, line ${location.line}` : `line ${location.line}`;
    super('invalid_transcript', `${where}: ${detail}`);
    this.file = location.file;
    this.line = location.line;
    this.field = location.field;
    this.detail = detail;
  }
}

/** The minimum context (system, tools and the current episode's minimum) exceeds the budget. */
export class ContextOverflowError extends EpisodicError<'context_overflow'> {
  /** Tokens the minimum context needs. */
  readonly required: number;
  /** The budget it had to fit. */
  readonly budget: number;
  /** How many tokens are missing: `required - budget`. */
  readonly shortfall: number;

  constructor(required: number, budget: number, detail: string) {
    super(
      'context_overflow',
      `Context does not fit: the minimum context needs ${required} tokens but the budget is ${budget} ` +
        `(short by ${required - budget}). ${detail}`,
    );
    this.required = required;
    this.budget = budget;
    this.shortfall = required - budget;
  }
}

/** An option or argument has a value Episodic cannot use. */
export class InvalidArgumentError extends EpisodicError<'invalid_argument'> {
  constructor(message: string) {
    super('invalid_argument', message);
  }
}

/**
 * An option given under both its deprecated name and its new one, with different
 * values: neither wins silently. Names both fields, e.g. `budget` and `context.budget`.
 */
export class OptionConflictError extends EpisodicError<'option_conflict'> {
  /** The deprecated name, as given (e.g. `budget`). */
  readonly deprecated: string;
  /** The name that replaces it (e.g. `context.budget`). */
  readonly replacement: string;

  constructor(deprecated: string, replacement: string, where = 'AgentOptions') {
    super(
      'option_conflict',
      `${where}: both ${deprecated} (deprecated) and ${replacement} are given, with different values; ` +
        `keep ${replacement} only.`,
    );
    this.deprecated = deprecated;
    this.replacement = replacement;
  }
}

/** Where a problem in a saved file (other than a transcript) was found. */
export interface PersistedFormatLocation {
  /** The file, or the name a store gives the record when it is not a file. */
  file: string;
  /** 1-based line, for files with one record per line. */
  line?: number;
  /** Path inside the record, such as `entries[0].parts[1].position`, or `version`. */
  field?: string;
}

/** The formats a {@link PersistedFormatError} can name. */
export type PersistedFormatCode =
  | 'invalid_session_state'
  | 'invalid_reasoning_sidecar'
  | 'invalid_replay_cache'
  | 'invalid_approval_record';

/**
 * A saved pack state, reasoning sidecar or replay-cache log that is damaged or was
 * written in a format this version cannot read (a newer one: `field` is `version`).
 * The `code` names the format: `invalid_session_state`, `invalid_reasoning_sidecar`
 * or `invalid_replay_cache`; the message says what to do.
 */
export class PersistedFormatError extends EpisodicError<PersistedFormatCode> {
  /** The file, or the record's name in a store that is not on disk. */
  readonly file: string;
  /** 1-based line, for files with one record per line. */
  readonly line: number | undefined;
  /** The field that is wrong, when one is. */
  readonly field: string | undefined;

  constructor(code: PersistedFormatCode, location: PersistedFormatLocation, message: string) {
    super(code, message);
    this.file = location.file;
    this.line = location.line;
    this.field = location.field;
  }
}
