#!/usr/bin/env node
/**
 * `npm start`: the CI-debugging agent from the command line (see cli.ts).
 */
import { runCli } from './cli.js';

process.exitCode = await runCli(process.argv.slice(2), {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
});
// stdin may still hold the event loop open (a pipe nobody closes).
process.stdin.destroy();
