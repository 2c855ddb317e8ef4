/**
 * What every `episodic` subcommand is: a name, its help text and a `run` function.
 * `cli.ts` holds the table of commands; adding one is a file plus a table entry.
 */
import type { Readable, Writable } from 'node:stream';
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { EpisodicError } from '@episodic/core';
import { didYouMean } from './did-you-mean.js';

/** The streams (and environment) a command talks to; tests pass captured ones. */
export interface CliIo {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  /** Read for `EPISODIC_DEBUG`. Default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
}

/** One subcommand of `episodic`. */
export interface Command {
  /** The word after `episodic`. */
  readonly name: string;
  /** One line for the command list. */
  readonly summary: string;
  /** The synopsis, e.g. `episodic pack FILE|- --budget N [--json]`. */
  readonly usage: string;
  /** Everything `episodic <name> --help` prints after the synopsis: description and options. */
  readonly help: string;
  /** Runs with the arguments after the command name; resolves to the exit code. */
  run(argv: readonly string[], io: CliIo): Promise<number>;
}

/** Exit codes of the `episodic` command. */
export const ExitCode = {
  ok: 0,
  /** Bad input: unreadable or malformed transcript, budget below the minimum. */
  badInput: 1,
  /** Bad command line: unknown flag, missing or malformed option. */
  usage: 2,
} as const;

/**
 * The command line itself is wrong (exit code 2). The CLI prints the message and the
 * usage of the command that was being parsed.
 */
export class UsageError extends EpisodicError {
  constructor(message: string) {
    super('usage', message);
  }
}

/** A command's options in `node:util` `parseArgs` form (single values only). */
export type OptionTable = Readonly<Record<string, { type: 'string' | 'boolean'; short?: string }>>;

/** What the user gave for each option: a string, `true` for a flag, or nothing. */
export type OptionValues<Options extends OptionTable> = {
  [Name in keyof Options]?: Options[Name]['type'] extends 'boolean' ? boolean : string;
};

/** Parsed command-line arguments. */
export interface ParsedArguments<Options extends OptionTable> {
  values: OptionValues<Options>;
  positionals: string[];
}

/**
 * `parseArgs` in strict mode with positionals allowed; its errors (unknown flag, missing
 * value) become {@link UsageError}s.
 */
export function parseCommandArgs<const Options extends OptionTable>(
  argv: readonly string[],
  options: Options,
): ParsedArguments<Options> {
  try {
    const config: ParseArgsConfig = { args: [...argv], options, strict: true, allowPositionals: true };
    return parseArgs(config) as ParsedArguments<Options>;
  } catch (error) {
    // Node marks its argument errors with ERR_PARSE_ARGS_* codes.
    const code = (error as NodeJS.ErrnoException).code;
    if (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS_')) {
      const message = (error as Error).message;
      // `--budget -5k`: Node will not take a value that starts with a dash without `=`.
      const ambiguous = / argument is ambiguous/.test(message) ? /'(--[^']+)'/.exec(message)?.[1] : undefined;
      const hint = ambiguous ? `: to give a value that starts with a dash, write ${ambiguous}=VALUE` : '';
      throw new UsageError(firstSentence(message) + hint + unknownOptionHint(code, message, options));
    }
    throw error;
  }
}

/** For an unknown option, the known one it most likely meant (`--budget` for `--budgets`). */
function unknownOptionHint(code: string, message: string, options: OptionTable): string {
  if (code !== 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return '';
  const typed = /'(-{1,2}[^'=]+)/.exec(message)?.[1];
  if (typed === undefined || !typed.startsWith('--')) return '';
  return didYouMean(typed, Object.keys(options).map((name) => `--${name}`));
}

/** The single positional a command takes (a file or `-`), or a usage error. */
export function onePositional(positionals: readonly string[], what: string): string {
  if (positionals.length === 0) throw new UsageError(`missing ${what}`);
  if (positionals.length > 1) throw new UsageError(`expected one ${what}, got ${positionals.length}`);
  return positionals[0]!;
}

// Node appends advice about `--` to unknown-option errors; the usage printed after the
// reason says more, so keep only the first sentence, in the CLI's lower-case voice.
function firstSentence(text: string): string {
  const sentence = text.split(/\.\s/)[0] ?? text;
  return sentence.charAt(0).toLowerCase() + sentence.slice(1);
}
