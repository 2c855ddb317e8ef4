/**
 * The built `episodic` executable, spawned as a real process: proves the shebangs,
 * the bin wiring (`packages/cli/bin/episodic.js`, the file npm links, which loads
 * `packages/cli/dist/main.js`), standard input through a pipe and that exit codes
 * reach the shell. The in-process tests in packages/cli cover the
 * behaviour; this only checks what they cannot.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureDir, malformedText, transcriptText, twoEpisodes } from '../packages/cli/src/testing/cli-harness.js';

const main = fileURLToPath(new URL('../packages/cli/dist/main.js', import.meta.url));
const launcher = fileURLToPath(new URL('../packages/cli/bin/episodic.js', import.meta.url));
const built = existsSync(main);

interface Exit {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Spawns `command` (no shell) and feeds `input` to its standard input. */
function spawnCli(command: readonly string[], input = ''): Promise<Exit> {
  const [file, ...argv] = command;
  return new Promise((resolve, reject) => {
    const child = spawn(file!, argv, {
      stdio: 'pipe',
      env: { ...process.env, EPISODIC_DEBUG: '' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}

describe.skipIf(!built)(
  built
    ? 'episodic bin (packages/cli/dist/main.js)'
    : 'episodic bin: skipped, packages/cli/dist/main.js is not built (run npm run build)',
  () => {
    let dir: Awaited<ReturnType<typeof fixtureDir>>;
    beforeAll(async () => {
      dir = await fixtureDir();
    });
    afterAll(() => dir?.cleanup());

    it('starts both the launcher and dist/main.js with a node shebang', async () => {
      for (const file of [launcher, main]) {
        const text = await readFile(file, 'utf8');
        expect(text.split('\n')[0]).toBe('#!/usr/bin/env node');
      }
    });

    it('exits 0, 1 and 2 for a good run, bad input and a usage error', async () => {
      const bad = await dir.write('bad.jsonl', malformedText(4));
      const [ok, badInput, usage] = await Promise.all([
        // Executed directly, as a shell runs the linked bin: needs the shebang and the executable bit.
        spawnCli([launcher, 'pack', '-', '--budget', '16k', '--json'], transcriptText(twoEpisodes)),
        spawnCli([process.execPath, main, 'episodes', bad]),
        spawnCli([process.execPath, main, 'pack', bad, '--budget', 'lots']),
      ]);

      expect(ok.stderr).toBe('');
      expect(ok.code).toBe(0);
      const packed = JSON.parse(ok.stdout) as { messages: unknown[]; stats: { tokens: { total: number } } };
      expect(packed.messages).toHaveLength(twoEpisodes.length - 1);
      expect(packed.stats.tokens.total).toBeLessThanOrEqual(16_000);

      expect(badInput.code).toBe(1);
      expect(badInput.stdout).toBe('');
      expect(badInput.stderr.startsWith(`episodic: ${bad}, line 4: `)).toBe(true);
      expect(badInput.stderr).not.toMatch(/\n\s+at /);

      expect(usage.code).toBe(2);
      expect(usage.stderr).toContain('episodic: bad budget "lots"');
      expect(usage.stderr).toContain('Usage: episodic pack FILE|- --budget N');
    });
  },
);
