/**
 * A command run_command started does not outlive the agent: when the agent process
 * gets SIGTERM, the command's process group is killed (it runs in a group of its own,
 * so nothing else would reach it), and the agent still ends as the signal says, or
 * stays in control when the application handles the signal itself.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const child = fileURLToPath(new URL('./command-child.mjs', import.meta.url));
const builtTools = fileURLToPath(new URL('../../packages/tools/dist/index.js', import.meta.url));

/**
 * Pids of running `sleep <seconds>` processes (the odd duration marks this test's command).
 * A killed command whose parent died waits as a zombie until the machine's init reaps it,
 * which in a container may be never: a zombie has been killed, so it is not counted.
 */
function sleepers(seconds: string): number[] {
  try {
    const pids = execFileSync('pgrep', ['-f', `^sleep ${seconds}$`], { encoding: 'utf8' }).trim().split('\n').map(Number);
    return pids.filter((pid) => !isZombie(pid));
  } catch {
    return [];
  }
}

/** Whether a process has exited and waits to be reaped (state Z in /proc/<pid>/stat); gone counts as not running either. */
function isZombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return true;
  }
}

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('run_command and the agent process lifetime', () => {
  let root: string | undefined;
  const leftovers: string[] = [];
  afterEach(async () => {
    for (const seconds of leftovers.splice(0)) for (const pid of sleepers(seconds)) process.kill(pid, 'SIGKILL');
    if (root) await rm(root, { recursive: true, force: true });
  });

  for (const mode of ['default', 'handler'] as const) {
    it(`kills the running command when the agent gets SIGTERM (${mode === 'default' ? 'no handler' : 'the app handles SIGTERM'})`, async () => {
      expect(existsSync(builtTools), 'the child imports the built @episodic/tools: run `npx tsc -b`').toBe(true);
      root = await mkdtemp(`${tmpdir()}/episodic-lifetime-`);
      const seconds = `3${Math.floor(Math.random() * 1e6)}.5`;
      leftovers.push(seconds);
      const agent = spawn(process.execPath, [child, root, seconds, mode], { stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      agent.stdout.on('data', (chunk) => (output += chunk));
      agent.stderr.on('data', (chunk) => (output += chunk));
      const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
        agent.on('exit', (code, signal) => resolve({ code, signal })),
      );
      await until(() => sleepers(seconds).length === 1, `the command to start (output: ${output})`);

      agent.kill('SIGTERM');
      const { code, signal } = await exited;
      if (mode === 'default') expect(signal).toBe('SIGTERM');
      // The application stays in control; the call it was running reports the kill.
      else expect({ code, output }).toEqual({ code: 0, output: 'started\nhandled\n[killed by SIGKILL]\n' });
      await until(() => sleepers(seconds).length === 0, 'the command to be killed');
    });
  }
});
