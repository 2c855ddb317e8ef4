import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runCli } from './testing/cli-harness.js';

describe('episodic (dispatch)', () => {
  it('prints the usage on --help, -h and help, exit 0', async () => {
    for (const flag of ['--help', '-h', 'help']) {
      const result = await runCli([flag]);
      expect(result.code).toBe(0);
      expect(result.stderr).toBe('');
      expect(result.stdout).toMatch(/^Usage: episodic <command> \[options\]/);
      expect(result.stdout).toMatch(/^ {2}pack {10}Pack a transcript/m);
      expect(result.stdout).toMatch(/^ {2}episodes {6}List the episodes/m);
      expect(result.stdout).toContain('Exit codes: 0 ok, 1 bad input, 2 usage error.');
    }
  });

  it('prints the version from package.json', async () => {
    const { readFile } = await import('node:fs/promises');
    const { version } = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    for (const flag of ['--version', '-v']) {
      const result = await runCli([flag]);
      expect(result).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
    }
  });

  it('prints a command help with --help anywhere before --, without running it', async () => {
    const result = await runCli(['pack', 'missing.jsonl', '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Usage: episodic pack FILE\|- --budget N/);
    expect(result.stdout).toContain('--retention POLICY');
    const episodes = await runCli(['episodes', '-h']);
    expect(episodes.stdout).toMatch(/^Usage: episodic episodes FILE\|-/);
  });

  it.each([
    [[], 'missing command'],
    [['nope'], "unknown command 'nope'"],
    [['--budget', '16k'], "unknown option '--budget'"],
  ])('exits 2 for %j with a one-line reason and the usage', async (argv, reason) => {
    const result = await runCli(argv);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    const [first, blank, usage] = result.stderr.split('\n');
    expect([first, blank, usage]).toEqual([`episodic: ${reason}`, '', 'Usage: episodic <command> [options]']);
  });
});

describe('episodic (unexpected errors)', () => {
  const failingStdin = () =>
    new Readable({
      read() {
        this.destroy(new Error('disk on fire'));
      },
    });

  it('exits 1 with the message and a hint to report it, without a stack trace', async () => {
    const result = await runCli(['episodes', '-'], { stdin: failingStdin() });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^episodic: unexpected error: disk on fire\n/);
    expect(result.stderr).toContain('EPISODIC_DEBUG=1');
    expect(result.stderr).toContain('please report it');
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('prints the stack trace with EPISODIC_DEBUG=1', async () => {
    const result = await runCli(['episodes', '-'], { stdin: failingStdin(), env: { EPISODIC_DEBUG: '1' } });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^episodic: unexpected error: disk on fire\nError: disk on fire\n\s+at /);
  });
});
