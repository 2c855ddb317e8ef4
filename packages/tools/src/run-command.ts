/**
 * `run_command`: runs a program inside the root with an argv array, never through a
 * shell, so arguments such as `$(whoami)` or `; rm -rf /` reach the program as plain
 * text. The child gets a minimal environment (an allowlist), a working directory
 * inside the root, a timeout that kills its whole process group (as does the
 * command's own exit, for anything it left running, and this process's exit or an
 * exit signal to it), and its output is capped keeping the head and the tail. A
 * process that left the group (`setsid`) may hold the output pipe open: the call
 * stops waiting for it shortly after the command itself exits.
 *
 * This is not a sandbox: the program itself can read or write anything its user
 * can. Restrict it with `allowedCommands`, and run untrusted work in a container.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { stat } from 'node:fs/promises';
import { z } from 'zod/v4';
import { type DefinedTool, defineTool } from './define-tool.js';
import { HeadTailBuffer } from './head-tail-buffer.js';
import { killGroupOnExit } from './process-groups.js';
import { resolveInsideRoot } from './root-path.js';
import { ToolUsageError } from './tool-errors.js';

/** Options of {@link runCommandTool}. */
export interface RunCommandToolOptions {
  /** The directory commands run inside (their working directory must be in it). */
  root: string;
  /** When set, only these programs (exact `argv[0]`, e.g. `npm`, `git`) may run. */
  allowedCommands?: readonly string[];
  /** Kill the command after this many milliseconds (default 60,000). */
  timeoutMs?: number;
  /** Most output bytes returned; beyond it the middle is cut (default 30,000). */
  maxOutputBytes?: number;
  /** Names of environment variables passed through besides `PATH`, `HOME` and `LANG`. */
  env?: readonly string[];
  /** Fixed environment values for the child (they win over passed-through ones). */
  envValues?: Readonly<Record<string, string>>;
  /**
   * Whether a command may run again after a crash (under a durable runtime). Default
   * false: a command can do anything (deploy, send, delete), so one that may have begun
   * before a crash is not run again and the model reads that its outcome is unknown.
   * Set true when every allowed command is safe to repeat (tests, builds, reads).
   */
  idempotent?: boolean;
}

/** Environment variables every command gets (when set in this process). */
const BASE_ENVIRONMENT: readonly string[] = ['PATH', 'HOME', 'LANG'];

const DEFAULT_TIMEOUT_MS = 60_000;
const DEFAULT_MAX_OUTPUT_BYTES = 30_000;
// Time between the polite SIGTERM and the SIGKILL on timeout.
const KILL_GRACE_MS = 2_000;
// How long output may still arrive after the command exited (its group is killed by then).
const PIPE_GRACE_MS = 500;

const runCommandInput = z.object({
  argv: z
    .array(z.string())
    .min(1)
    .describe(
      'The program and its arguments, such as ["npm", "test"] or ["git", "log", "-n", "5"]. It runs without a ' +
        'shell: no pipes, redirects, globs or $VARIABLES.',
    ),
  cwd: z.string().default('.').describe('Working directory, relative to the project root. Default: the root.'),
});

/** A `run_command` tool confined to `options.root`. */
export function runCommandTool(options: RunCommandToolOptions): DefinedTool {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxOutputBytes = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
  const allowed = options.allowedCommands;
  const allowedNote = allowed ? ` Allowed programs: ${allowed.join(', ')}.` : '';
  return defineTool({
    name: 'run_command',
    description:
      `Run a program in the project and get its exit code and output (stdout and stderr together). No shell.${allowedNote} ` +
      `Killed after ${timeoutMs} ms; long output keeps its beginning and end.`,
    input: runCommandInput,
    // The loop's own timeout is a backstop; this tool kills the process group itself first.
    timeoutMs: timeoutMs + KILL_GRACE_MS * 2,
    idempotent: options.idempotent ?? false,
    execute: async ({ argv, cwd }, { signal }) => {
      const program = argv[0]!;
      if (allowed && !allowed.includes(program)) {
        throw new ToolUsageError('command_not_allowed', `"${program}" is not an allowed command.${allowedNote}`);
      }
      const directory = await resolveInsideRoot(options.root, cwd);
      const stats = await stat(directory.absolute).catch(() => undefined);
      if (!stats?.isDirectory()) {
        throw new ToolUsageError('not_a_directory', `Working directory "${directory.relative}" is not a directory.`);
      }
      const run = await runProcess(argv, {
        cwd: directory.absolute,
        env: childEnvironment(options),
        timeoutMs,
        maxOutputBytes,
        signal,
      });
      return formatRun(argv, run, timeoutMs);
    },
  });
}

/** The child's environment: only allowlisted names, plus fixed values. */
export function childEnvironment(options: Pick<RunCommandToolOptions, 'env' | 'envValues'>): NodeJS.ProcessEnv {
  const environment: NodeJS.ProcessEnv = {};
  for (const name of [...BASE_ENVIRONMENT, ...(options.env ?? [])]) {
    const value = process.env[name];
    if (value !== undefined) environment[name] = value;
  }
  return { ...environment, ...options.envValues };
}

interface ProcessRun {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  aborted: boolean;
  /** The output pipe was still held open (by a process outside the group) when the call stopped waiting. */
  pipeHeld: boolean;
  output: HeadTailBuffer;
}

interface ProcessOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  maxOutputBytes: number;
  signal: AbortSignal;
}

function runProcess(argv: string[], options: ProcessOptions): Promise<ProcessRun> {
  const [program, ...args] = argv as [string, ...string[]];
  const output = new HeadTailBuffer(options.maxOutputBytes);
  // Its own process group (POSIX), so a timeout also kills what the command started.
  const ownGroup = process.platform !== 'win32';
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, {
      cwd: options.cwd,
      env: options.env,
      shell: false,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: ownGroup,
      windowsHide: true,
    });
    const state = { timedOut: false, aborted: false, pipeHeld: false };
    const kill = killer(child, ownGroup);
    const stop = (reason: 'timedOut' | 'aborted') => {
      state[reason] = true;
      kill('SIGTERM');
      graceTimer = setTimeout(() => kill('SIGKILL'), KILL_GRACE_MS);
    };
    let graceTimer: NodeJS.Timeout | undefined;
    let pipeTimer: NodeJS.Timeout | undefined;
    const forget = ownGroup && child.pid !== undefined ? killGroupOnExit(child.pid) : () => {};
    const timeoutTimer = setTimeout(() => stop('timedOut'), options.timeoutMs);
    const onAbort = () => stop('aborted');
    if (options.signal.aborted) onAbort();
    else options.signal.addEventListener('abort', onAbort, { once: true });
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timeoutTimer);
      clearTimeout(graceTimer);
      clearTimeout(pipeTimer);
      options.signal.removeEventListener('abort', onAbort);
      forget();
      outcome();
    };
    child.stdout.on('data', (chunk: Buffer) => output.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => output.push(chunk));
    child.once('error', (error: NodeJS.ErrnoException) => settle(() => reject(spawnError(program, error))));
    let exited: { exitCode: number | null; signal: NodeJS.Signals | null } | undefined;
    child.once('exit', (exitCode, signal) => {
      exited = { exitCode, signal };
      // The command is done. Whatever it left running in its group would hold the output
      // pipe open until the timeout (and outlive the call): end it now.
      if (ownGroup) kill('SIGKILL');
      // A process that escaped the group (setsid) can still hold the pipe: wait only briefly.
      pipeTimer = setTimeout(() => {
        state.pipeHeld = true;
        child.stdout.destroy();
        child.stderr.destroy();
        settle(() => resolve({ ...exited!, ...state, output }));
      }, PIPE_GRACE_MS);
    });
    child.once('close', (exitCode, signal) => {
      settle(() => resolve({ ...(exited ?? { exitCode, signal }), ...state, output }));
    });
  });
}

/** Sends a signal to the child's whole process group (or to the child alone, without one). */
function killer(child: ChildProcess, ownGroup: boolean): (signal: NodeJS.Signals) => void {
  return (signal) => {
    try {
      if (ownGroup && child.pid !== undefined) process.kill(-child.pid, signal);
      else child.kill(signal);
    } catch {
      // Already gone.
    }
  };
}

function spawnError(program: string, error: NodeJS.ErrnoException): Error {
  if (error.code === 'ENOENT') {
    return new ToolUsageError(
      'command_not_found',
      `Command "${program}" was not found (it is not on PATH or the file does not exist).`,
    );
  }
  if (error.code === 'EACCES') return new ToolUsageError('command_not_executable', `"${program}" is not executable.`);
  return error;
}

function formatRun(argv: string[], run: ProcessRun, timeoutMs: number): { content: string; isError: boolean } {
  const shown = argv.map((arg) => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : JSON.stringify(arg))).join(' ');
  let status: string;
  if (run.timedOut) status = `timed out after ${timeoutMs} ms; the process was killed`;
  else if (run.aborted) status = 'aborted; the process was killed';
  else if (run.signal) status = `killed by ${run.signal}`;
  else status = `exit code ${run.exitCode}`;
  const text = run.output.toString();
  const body = text === '' ? '(no output)' : text;
  const held = run.pipeHeld
    ? `\n[stopped reading ${PIPE_GRACE_MS} ms after the command exited: a process it started outside its ` +
      'process group (setsid, a daemon) still holds the output open and may still be running]'
    : '';
  return {
    content: `$ ${shown}\n[${status}]\n${body}${held}`,
    isError: run.timedOut || run.aborted || run.signal !== null,
  };
}
