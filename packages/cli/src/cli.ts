/**
 * The `episodic` command line: dispatch to a subcommand, help, version, and the
 * mapping from failures to exit codes and messages. Never prints a stack trace for
 * an expected failure.
 */
import { readFile } from 'node:fs/promises';
import { EpisodicError } from '@episodic/core';
import { type CliIo, type Command, ExitCode, UsageError } from './command.js';
import { controlSafe, escapeControl } from './control-safe.js';
import { didYouMean } from './did-you-mean.js';
import { budgetCommand } from './commands/budget.js';
import { episodesCommand } from './commands/episodes.js';
import { importCommand } from './commands/import.js';
import { migrateCommand } from './commands/migrate.js';
import { packCommand } from './commands/pack.js';
import { repairCommand } from './commands/repair.js';
import { replayCacheCommand } from './commands/replay-cache.js';

/** Every subcommand, in the order the usage lists them. */
const commands: readonly Command[] = [
  packCommand,
  episodesCommand,
  budgetCommand,
  importCommand,
  repairCommand,
  migrateCommand,
  replayCacheCommand,
];

/** The top-level usage text. */
function usage(): string {
  const width = Math.max(...commands.map((command) => command.name.length));
  const list = commands.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`);
  return [
    'Usage: episodic <command> [options]',
    '',
    'Commands:',
    ...list,
    '',
    'Options:',
    '  -h, --help     Show this help; `episodic <command> --help` shows a command',
    '  -v, --version  Print the version',
    '',
    'Exit codes: 0 ok, 1 bad input, 2 usage error.',
  ].join('\n');
}

/**
 * Runs `episodic` with `argv` (the arguments after the program name) and resolves to
 * the exit code: 0 ok, 1 bad input, 2 usage error. Output goes to `io`; nothing here
 * touches `process`, so tests run it in-process.
 */
export async function run(argv: readonly string[], io: CliIo): Promise<number> {
  // Transcript text reaches stdout in tables and previews; it must not reach the terminal raw.
  const safeIo = { ...io, stdout: controlSafe(io.stdout) };
  try {
    return await dispatch(argv, safeIo);
  } catch (error) {
    return reportFailure(safeIo, error);
  }
}

async function dispatch(argv: readonly string[], io: CliIo): Promise<number> {
  const [first, ...rest] = argv;
  if (first === undefined) return usageFailure(io, 'missing command', usage());
  if (first === '-h' || first === '--help' || first === 'help') return print(io.stdout, usage());
  if (first === '-v' || first === '--version') return print(io.stdout, await version());

  const command = commands.find((candidate) => candidate.name === first);
  if (!command) {
    const names = commands.map((candidate) => candidate.name);
    const reason = first.startsWith('-') ? `unknown option '${first}'` : `unknown command '${first}'${didYouMean(first, names)}`;
    return usageFailure(io, reason, usage());
  }
  if (wantsHelp(rest)) return print(io.stdout, `Usage: ${command.usage}\n\n${command.help}`);

  try {
    return await command.run(rest, io);
  } catch (error) {
    if (error instanceof UsageError) {
      return usageFailure(
        io,
        error.message,
        `Usage: ${command.usage}\nRun 'episodic ${command.name} --help' for more.`,
      );
    }
    throw error;
  }
}

/** `--help` or `-h` anywhere before a `--` that ends the options. */
function wantsHelp(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  const options = end === -1 ? argv : argv.slice(0, end);
  return options.includes('--help') || options.includes('-h');
}

function print(stream: CliIo['stdout'], text: string): number {
  stream.write(`${text}\n`);
  return ExitCode.ok;
}

function usageFailure(io: CliIo, reason: string, usageText: string): number {
  io.stderr.write(`episodic: ${escapeControl(reason)}\n\n${usageText}\n`);
  return ExitCode.usage;
}

/** Expected failures print their message; anything else is a bug to report. */
function reportFailure(io: CliIo, error: unknown): number {
  if (EpisodicError.isInstance(error)) {
    io.stderr.write(`episodic: ${escapeControl(error.message)}\n`);
    return ExitCode.badInput;
  }
  const debug = (io.env ?? process.env).EPISODIC_DEBUG === '1';
  const message = error instanceof Error ? error.message : String(error);
  const detail =
    debug && error instanceof Error && error.stack
      ? error.stack
      : 'Run again with EPISODIC_DEBUG=1 to see the stack trace.';
  io.stderr.write(
    `episodic: unexpected error: ${escapeControl(message)}\n${detail}\n` +
      'This is a bug in episodic: please report it with the command you ran (and the transcript, if you can).\n',
  );
  return ExitCode.badInput;
}

/** The package version, read from package.json next to `src/` and `dist/`. */
async function version(): Promise<string> {
  const text = await readFile(new URL('../package.json', import.meta.url), 'utf8');
  return (JSON.parse(text) as { version: string }).version;
}
