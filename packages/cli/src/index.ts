/**
 * @episodic/cli: the `episodic` command. The executable is `dist/main.js`; `run` is
 * exported so the CLI can be embedded or tested in-process.
 *
 * This is the public API, listed in `api/cli.api.md`, which a test compares with the
 * built package.
 */
export { run } from './cli.js';
export { type CliIo, ExitCode } from './command.js';
