import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { type Message, type ToolMessage } from '@episodic/core';
import { readTranscript } from '@episodic/core/node';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from './cli.js';
import { describeCall } from './patch-approval.js';

/** A stdin that says it is a terminal and answers each patch question with `answer`. */
function terminal(answer: string, stdout: PassThrough) {
  const stdin = Object.assign(new PassThrough(), { isTTY: true });
  let asked = 0;
  stdout.on('data', (chunk: Buffer) => {
    const questions = chunk.toString('utf8').split('Apply this patch to the scratch copy? [y/N]').length - 1;
    for (let index = 0; index < questions; index += 1) {
      asked += 1;
      setImmediate(() => stdin.write(`${answer}\n`));
    }
  });
  return { stdin, asked: () => asked };
}

async function run(argv: string[], stdin: NodeJS.ReadableStream & { isTTY?: boolean }, stdout = new PassThrough()) {
  let out = '';
  let err = '';
  const stderr = new PassThrough();
  stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  const code = await runCli(argv, { stdin, stdout, stderr });
  return { code, out, err };
}

async function patchResults(out: string): Promise<ToolMessage[]> {
  const file = /transcript: (\S+\.jsonl)/.exec(out)?.[1];
  const messages: Message[] = await readTranscript(file!);
  return messages.filter((message): message is ToolMessage => message.role === 'tool' && message.toolName === 'apply_patch');
}

describe('--confirm: asking before apply_patch', () => {
  const directories: string[] = [];
  const sessions = async () => {
    const directory = await mkdtemp(path.join(tmpdir(), 'ci-debugger-confirm-'));
    directories.push(directory);
    return directory;
  };
  afterEach(async () => {
    for (const directory of directories.splice(0)) await rm(directory, { recursive: true, force: true });
  });

  it('shows the patch and applies it once the person says yes', async () => {
    const stdout = new PassThrough();
    const tty = terminal('y', stdout);
    const { code, out, err } = await run(['--confirm', '--no-follow-up', '--sessions', await sessions()], tty.stdin, stdout);
    expect(err).toBe('');
    expect(code).toBe(0);
    expect(tty.asked()).toBe(1);
    expect(out).toContain('? apply_patch waits for your approval');
    expect(out).toContain('apply_patch wants to change the scratch copy:');
    expect(out).toContain('+   #retrying = 0;');
    expect(out).toContain('Verified fix');
    const [result] = await patchResults(out);
    expect(result).toMatchObject({ isError: false, approval: { decision: 'approved', by: 'person' } });
  }, 120_000);

  it('applies nothing when the person says no, and the answer says the patch was declined', async () => {
    const stdout = new PassThrough();
    const tty = terminal('n', stdout);
    const { code, out } = await run(['--confirm', '--no-follow-up', '--sessions', await sessions()], tty.stdin, stdout);
    expect(code).toBe(1);
    expect(tty.asked()).toBe(1);
    expect(out).toContain('## Patch (declined, not applied)');
    expect(out).not.toContain('run_tests_on_patched');
    const [result] = await patchResults(out);
    expect(result).toMatchObject({ isError: true, approval: { decision: 'rejected', by: 'person' } });
  }, 120_000);

  it('--yes approves without asking, and the transcript says the policy approved', async () => {
    const { code, out } = await run(['--confirm', '--yes', '--no-follow-up', '--sessions', await sessions()], Readable.from([]));
    expect(code).toBe(0);
    expect(out).not.toContain('Apply this patch');
    const [result] = await patchResults(out);
    expect(result?.approval).toEqual({ decision: 'approved', by: 'policy' });
  }, 120_000);

  it('refuses to ask without a terminal, and --yes without --confirm', async () => {
    const noTerminal = await run(['--confirm'], Readable.from([]));
    expect(noTerminal.code).toBe(2);
    expect(noTerminal.err).toContain('--confirm asks on the terminal, and stdin is not one');
    const yesAlone = await run(['--yes'], Readable.from([]));
    expect(yesAlone.code).toBe(2);
    expect(yesAlone.err).toContain('use it together with --confirm');
  });

  it('escapes control characters in the patch it shows', () => {
    const text = describeCall({
      callId: 'c',
      toolName: 'apply_patch',
      sessionId: 's',
      args: { diff: '--- a/x\n+++ b/x\n+\u001b]0;owned\u0007' },
    });
    expect(text).toContain('+\\u001b]0;owned\\u0007');
    expect(text).not.toContain('\u001b');
  });
});
