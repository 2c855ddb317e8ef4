import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { toolCallsOf } from '@episodic/core';
import { splitEpisodes } from '@episodic/core/transcript';
import { readTranscript } from '@episodic/core/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './cli.js';
import { FIXTURE_PROJECT } from './fixture-paths.js';

function capture() {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8');
  });
  return { stream, text: () => text };
}

let sessions: string;
let exitCode: number;
let stdout: string;
let stderr: string;
let queueBefore: string;

beforeAll(async () => {
  sessions = await mkdtemp(path.join(tmpdir(), 'ci-debugger-e2e-'));
  queueBefore = await readFile(path.join(FIXTURE_PROJECT, 'src', 'queue.js'), 'utf8');
  const out = capture();
  const err = capture();
  // Two built-in follow-ups, then one piped on stdin: four episodes.
  const stdin = Readable.from(['Anything else failing on #1884?\n']);
  exitCode = await runCli(['--sessions', sessions], { stdin, stdout: out.stream, stderr: err.stream });
  stdout = out.text();
  stderr = err.text();
}, 120_000);

afterAll(() => rm(sessions, { recursive: true, force: true }));

describe('offline run end to end', () => {
  it('says it runs offline and how to use a real model, and exits 0', () => {
    expect(stderr).toBe('');
    expect(exitCode).toBe(0);
    expect(stdout).toContain('running OFFLINE with a scripted model');
    expect(stdout).toContain('npm start -- --provider anthropic --model');
  });

  it('ends the investigation with a verified fix of the onIdle race', () => {
    expect(stdout).toContain('## Root cause');
    expect(stdout).toMatch(
      /\*\*Verified fix\*\*: on the patched copy the same seeded batch fails 0\/40 runs \(was [1-9]\d*\/40\)/,
    );
    expect(stdout).toContain('+    return this.#active === 0 && this.#waiting.length === 0 && this.#retrying === 0;');
    expect(stdout).toContain('the whole suite passes');
  });

  it('prints a context stats line per model call and a summary with the transcript path', () => {
    const steps = stdout.match(/^step \d+/gm) ?? [];
    const stats = stdout.match(/^ {2}context [\d,]+\/[\d,]+ tok \| system/gm) ?? [];
    expect(steps.length).toBeGreaterThan(8);
    expect(stats).toHaveLength(steps.length);
    expect(stdout).toMatch(/Summary\n {2}4 episodes · \d+ model calls · \d+ tool calls/);
    expect(stdout).toContain(`transcript: ${sessions}`);
  });

  it('packs old episodes away: past reasoning dropped, then the first episode evicted', () => {
    expect(stdout).toMatch(/^ {2}context .*reasoning kept 0 \(0 tok\) dropped 1\d/m);
    expect(stdout).toMatch(/^ {2}context .*\| evicted 1 \(now\) \|/m);
    expect(stdout).toMatch(/^ {2}packing: 1 episode evicted/m);
    expect(stdout).toContain('the same flaky test');
  });

  it('never touches the original fixture', async () => {
    expect(await readFile(path.join(FIXTURE_PROJECT, 'src', 'queue.js'), 'utf8')).toBe(queueBefore);
  });

  it('saves a valid, complete transcript: every call answered, reasoning kept in the episode', async () => {
    const file = /transcript: (\S+\.jsonl)/.exec(stdout)?.[1];
    expect(file).toBeDefined();
    const messages = await readTranscript(file!);
    const episodes = splitEpisodes(messages);
    expect(episodes).toHaveLength(4);
    const results = new Set(messages.flatMap((message) => (message.role === 'tool' ? [message.toolCallId] : [])));
    const calls = messages.flatMap((message) => (message.role === 'assistant' ? toolCallsOf(message) : []));
    expect(calls.length).toBeGreaterThan(15);
    for (const call of calls) expect(results.has(call.id)).toBe(true);
    expect(results.size).toBe(calls.length);
    const first = messages.slice(
      0,
      messages.findIndex((message, index) => index > 0 && message.role === 'user'),
    );
    const assistants = first.filter((message) => message.role === 'assistant');
    expect(
      assistants.every((message) => message.content.some((part) => part.type === 'reasoning' && part.text.length > 40)),
    ).toBe(true);
    const last = assistants.at(-1);
    expect(last?.content.some((part) => part.type === 'text' && part.text.includes('Verified fix'))).toBe(true);
  });

  it('prints a budget command that works on the saved transcript', async () => {
    const command = /analyse it: npx episodic (.+)$/m.exec(stdout)?.[1];
    expect(command).toBeDefined();
    // The CLI is not a dependency of the example; load it from the workspace source.
    const { run } = await import('../../../packages/cli/src/cli.js');
    const out = capture();
    const err = capture();
    const code = await run(command!.split(' '), { stdin: Readable.from([]), stdout: out.stream, stderr: err.stream });
    expect(err.text()).not.toContain('episodic:');
    expect(code).toBe(0);
    expect(out.text()).toContain('Recommendation:');
  });
});
