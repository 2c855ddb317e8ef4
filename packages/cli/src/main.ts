#!/usr/bin/env node
/**
 * The `episodic` executable: runs the CLI on this process's arguments and streams.
 */
import { run } from './cli.js';

// A reader that goes away early (`episodic pack ... | head`) is not an error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

process.exitCode = await run(process.argv.slice(2), {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
});
