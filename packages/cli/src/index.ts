/**
 * @episodic/cli: the `episodic` command. The executable is `dist/main.js`; `run` is
 * exported so the CLI can be embedded or tested in-process.
 */
export { run, usage } from './cli.js';
export { type CliIo, type Command, ExitCode, UsageError } from './command.js';
