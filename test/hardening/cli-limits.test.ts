/**
 * Inputs that used to take the `episodic` process down, run through the built bin
 * with a bounded heap and a deadline: a transcript with no line end (`/dev/zero`),
 * option files of any size, and a `--pricing` pattern that backtracks without end.
 * Each must end with exit code 1 and one line on stderr, quickly.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, openSync } from 'node:fs';
import { truncate } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { PostgresSessionStore } from '@episodic/postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureDir, transcriptText } from '../../packages/cli/src/testing/cli-harness.js';

const launcher = fileURLToPath(new URL('../../packages/cli/bin/episodic.js', import.meta.url));
let fixtures: Awaited<ReturnType<typeof fixtureDir>>;
let transcript: string;

beforeAll(async () => {
  fixtures = await fixtureDir();
  const id = `${'a'.repeat(40)}!`;
  transcript = await fixtures.write(
    'priced.jsonl',
    transcriptText([
      { role: 'user', content: 'hi' },
      {
        role: 'assistant',
        content: [{ type: 'text', text: 'hello' }],
        model: { provider: 'acme', id },
        usage: { inputTokens: 10, outputTokens: 2 },
      },
    ]),
  );
});
afterAll(() => fixtures.cleanup());

/** Runs the bin with a 256 MB heap; a hang is cut at 20 s (and then fails). */
function episodic(argv: readonly string[], stdin: 'pipe' | number = 'pipe') {
  const started = Date.now();
  const run = spawnSync(process.execPath, ['--max-old-space-size=256', launcher, ...argv], {
    encoding: 'utf8',
    stdio: [stdin, 'pipe', 'pipe'],
    timeout: 20_000,
    env: { ...process.env, EPISODIC_DEBUG: '' },
  });
  return { code: run.status, signal: run.signal, stderr: run.stderr, ms: Date.now() - started };
}

function expectOneLineError(result: ReturnType<typeof episodic>, pattern: RegExp): void {
  expect(result.signal, `killed after ${result.ms} ms: ${result.stderr.slice(0, 300)}`).toBeNull();
  expect(result.code).toBe(1);
  expect(result.stderr).toMatch(pattern);
  expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(result.stderr).not.toMatch(/unexpected error|\n\s+at |FATAL/);
}

describe.runIf(process.platform === 'linux')('episodic limits', () => {
  it('the bin is built', () => {
    expect(existsSync(launcher.replace('bin/episodic.js', 'dist/main.js')), 'run `npx tsc -b`').toBe(true);
  });

  it('pack /dev/zero: a device is refused before it is read, not read to an out-of-memory crash', () => {
    expectOneLineError(episodic(['pack', '/dev/zero', '--budget', '1k']), /^episodic: cannot read the transcript \/dev\/zero: it is a device, not a regular file/);
  });

  it('pack - with /dev/zero on standard input: a line over the cap is a transcript error, not an out-of-memory crash', () => {
    const zero = openSync('/dev/zero', 'r');
    try {
      expectOneLineError(episodic(['pack', '-', '--budget', '1k'], zero), /^episodic: <stdin>, line 1: the line is longer than 33554432 bytes/);
    } finally {
      closeSync(zero);
    }
  });

  it('--pricing, --system and --tools /dev/zero: the file is capped too', () => {
    for (const option of ['--pricing', '--system', '--tools']) {
      expectOneLineError(
        episodic(['budget', transcript, '--budgets', '1k', option, '/dev/zero']),
        new RegExp(`^episodic: (pricing file |${option} )/dev/zero: it is a device, not a regular file`),
      );
    }
  });

  it('a --pricing pattern that backtracks without end is stopped and named', async () => {
    const pricing = await fixtures.write(
      'evil-prices.json',
      JSON.stringify({ models: [{ pattern: '(a+)+$', input: 1, cachedInput: 0.1, output: 2 }] }),
    );
    const result = episodic(['budget', transcript, '--budgets', '1k', '--pricing', pricing]);
    expectOneLineError(result, /pattern "\(a\+\)\+\$" took over 200 ms on model id "a{40}!"/);
    expect(result.ms).toBeLessThan(10_000);
  });

  it('import of a 600 MB file: says it is too large, with the size and the limit', async () => {
    const file = await fixtures.write('huge.jsonl', '');
    await truncate(file, 600 * 1024 * 1024);
    expectOneLineError(episodic(['import', '--from', 'pi', file]), /huge\.jsonl: cannot read it: it is 600 MiB, over the 512 MiB/);
  });

  it('deleteIdle({ days: Infinity }) is an argument error naming the value, before any SQL', async () => {
    const store = new PostgresSessionStore({ connectionString: 'postgres://nobody@127.0.0.1:1/none' });
    try {
      await expect(store.deleteIdle({ days: Infinity })).rejects.toMatchObject({
        code: 'invalid_argument',
        message: expect.stringMatching(/finite number of days.*Infinity/),
      });
    } finally {
      await store.close();
    }
  });
});
