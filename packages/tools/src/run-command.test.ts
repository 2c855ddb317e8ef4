import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ToolContext } from '@episodic/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PathEscapeError } from './root-path.js';
import { type RunCommandToolOptions, runCommandTool } from './run-command.js';
import { ToolUsageError } from './tool-errors.js';

const node = process.execPath;
const context = (signal = new AbortController().signal): ToolContext => ({ signal, toolCallId: 'call_1' });
let base: string;
let root: string;

beforeAll(async () => {
  base = await mkdtemp(path.join(tmpdir(), 'episodic-run-command-'));
  root = path.join(base, 'project');
  await mkdir(path.join(root, 'sub'), { recursive: true });
  await mkdir(path.join(base, 'outside'));
  await symlink(path.join(base, 'outside'), path.join(root, 'outside-dir'));
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

function run(
  argv: string[],
  options: Partial<RunCommandToolOptions> = {},
  extra: { cwd?: string; signal?: AbortSignal } = {},
) {
  const tool = runCommandTool({ root, timeoutMs: 10_000, ...options });
  return tool.execute({ argv, ...(extra.cwd === undefined ? {} : { cwd: extra.cwd }) }, context(extra.signal));
}

/**
 * True while `pid` runs. A killed orphan may linger as a zombie until init reaps it
 * (slow in some containers); on Linux a zombie is not running.
 */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  if (process.platform !== 'linux') return true;
  try {
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
}

/** The output lines after the `$ command` and `[status]` lines. */
const body = (content: string) => content.split('\n').slice(2).join('\n');

describe('run_command', () => {
  it('runs a program and returns its exit code and combined output', async () => {
    const { content, isError } = await run([node, '-e', 'console.log("out"); console.error("err")']);
    expect(content.split('\n')[1]).toBe('[exit code 0]');
    expect(body(content)).toBe('out\nerr\n');
    expect(isError).toBe(false);
  });

  it('reports a non-zero exit code as output the model can read', async () => {
    const { content, isError } = await run([node, '-e', 'console.log("2 tests failed"); process.exit(3)']);
    expect(content).toContain('[exit code 3]\n2 tests failed');
    expect(isError).toBe(false);
  });

  it('passes shell syntax through literally: there is no shell', async () => {
    const hostile = ['$(whoami)', '; touch pwned', '`id`', '&& echo hacked', '*', '$HOME', "'quoted'"];
    const { content } = await run([node, '-e', 'console.log(JSON.stringify(process.argv.slice(1)))', ...hostile]);
    expect(JSON.parse(body(content))).toEqual(hostile);
    expect(existsSync(path.join(root, 'pwned'))).toBe(false);
    expect(existsSync(path.join(root, 'sub', 'pwned'))).toBe(false);
  });

  it('does not run a shell command line given as one string', async () => {
    await expect(run(['echo hi; touch pwned'])).rejects.toMatchObject({ code: 'command_not_found' });
    expect(existsSync(path.join(root, 'pwned'))).toBe(false);
  });

  it('gives the child only allowlisted environment variables', async () => {
    process.env.EPISODIC_TEST_SECRET = 'sk-live-123';
    try {
      const printEnv = [node, '-e', 'console.log(JSON.stringify(process.env))'];
      const hidden = JSON.parse(body((await run(printEnv)).content)) as Record<string, string>;
      expect(hidden.EPISODIC_TEST_SECRET).toBeUndefined();
      expect(Object.keys(hidden).every((name) => ['PATH', 'HOME', 'LANG'].includes(name))).toBe(true);
      expect(hidden.PATH).toBe(process.env.PATH);

      const shared = JSON.parse(
        body((await run(printEnv, { env: ['EPISODIC_TEST_SECRET'], envValues: { CI: 'true' } })).content),
      ) as Record<string, string>;
      expect(shared.EPISODIC_TEST_SECRET).toBe('sk-live-123');
      expect(shared.CI).toBe('true');
    } finally {
      delete process.env.EPISODIC_TEST_SECRET;
    }
  });

  it('kills a command that runs past the timeout, with everything it started', async () => {
    const script = [
      'const { spawn } = require("node:child_process");',
      'const child = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"], { stdio: "ignore" });',
      'console.log(child.pid);',
      'setTimeout(() => {}, 60000);',
    ].join('\n');
    const started = Date.now();
    const { content, isError } = await run([node, '-e', script], { timeoutMs: 500 });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(content.split('\n')[1]).toBe('[timed out after 500 ms; the process was killed]');
    expect(isError).toBe(true);
    const grandchild = Number(body(content).trim());
    expect(grandchild).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(isRunning(grandchild)).toBe(false);
  });

  // A child left behind that still holds the output pipe kept the call waiting until the
  // timeout, which then reported a command that had exited 0 as "timed out".
  it('returns when the command exits, with its exit code, and ends what it left running', async () => {
    const script = [
      'const { spawn } = require("node:child_process");',
      'const child = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"], { stdio: "inherit" });',
      'console.log(child.pid);',
      'child.unref();',
    ].join('\n');
    const started = Date.now();
    const { content, isError } = await run([node, '-e', script], { timeoutMs: 5_000 });
    expect(content.split('\n')[1]).toBe('[exit code 0]');
    expect(isError).toBe(false);
    expect(Date.now() - started).toBeLessThan(3_000);
    const leftBehind = Number(body(content).trim());
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(isRunning(leftBehind)).toBe(false);
  });

  // A process that left the command's group (setsid) is not killed with it and kept the
  // pipe open: the call waited for the timeout and reported "timed out".
  it('stops waiting shortly after the command exits even when a setsid process holds the output, and says so', async () => {
    const script = [
      'const { spawn } = require("node:child_process");',
      'const child = spawn("setsid", [process.execPath, "-e", "setTimeout(() => {}, 60000)"], { stdio: "inherit" });',
      'child.on("spawn", () => setTimeout(() => { console.log(child.pid); process.exit(3); }, 200));',
    ].join('\n');
    const started = Date.now();
    const { content, isError } = await run([node, '-e', script], { timeoutMs: 4_000 });
    const escaped = Number(body(content).split('\n')[0]);
    try {
      expect(content.split('\n')[1]).toBe('[exit code 3]');
      expect(isError).toBe(false);
      expect(Date.now() - started).toBeLessThan(2_500);
      expect(content).toMatch(/\[stopped reading 500 ms after the command exited: a process it started outside/);
    } finally {
      if (escaped > 0) process.kill(escaped, 'SIGKILL');
    }
  });

  it('stops when the tool call is aborted', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const { content, isError } = await run(
      [node, '-e', 'setTimeout(() => {}, 60000)'],
      {},
      { signal: controller.signal },
    );
    expect(content.split('\n')[1]).toBe('[aborted; the process was killed]');
    expect(isError).toBe(true);
  });

  it('caps long output keeping the head and the tail, and says how much was cut', async () => {
    const script = 'process.stdout.write("BEGIN" + "x".repeat(50000) + "END")';
    const { content } = await run([node, '-e', script], { maxOutputBytes: 1000 });
    const output = body(content);
    expect(output.startsWith('BEGIN')).toBe(true);
    expect(output.endsWith('END')).toBe(true);
    expect(output).toContain('\n[... 49008 bytes cut from the middle of the output ...]\n');
    expect(output.length).toBeLessThan(1100);
  });

  it('runs in a working directory inside the root and refuses one outside', async () => {
    const { content } = await run([node, '-e', 'console.log(process.cwd())'], {}, { cwd: 'sub' });
    expect(body(content).trim()).toBe(await realpath(path.join(root, 'sub')));
    await expect(run([node, '-e', '0'], {}, { cwd: '..' })).rejects.toThrow(PathEscapeError);
    await expect(run([node, '-e', '0'], {}, { cwd: path.join(base, 'outside') })).rejects.toThrow(PathEscapeError);
    await expect(run([node, '-e', '0'], {}, { cwd: 'outside-dir' })).rejects.toThrow(PathEscapeError);
  });

  it('runs only allowlisted programs when an allowlist is given', async () => {
    const error = await run([node, '-e', '0'], { allowedCommands: ['git', 'npm'] }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ToolUsageError);
    expect(error).toMatchObject({ code: 'command_not_allowed' });
    expect((error as Error).message).toContain('Allowed programs: git, npm.');
    const allowed = await run([node, '-e', 'console.log("ok")'], { allowedCommands: [node] });
    expect(body(allowed.content)).toBe('ok\n');
  });

  it('requires a non-empty argv', async () => {
    await expect(run([])).rejects.toThrow(/argv: Too small/i);
  });
});
