/**
 * Test support for the CLI: realistic transcript fixtures written to a temp dir and
 * captured streams, so tests call `run()` in-process. Not part of the built package.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { run } from '../cli.js';

const ciLog = Array.from(
  { length: 60 },
  (_, line) =>
    `2026-11-21T23:${String(line % 60).padStart(2, '0')}:07Z  step ${line + 1}: ` +
    (line === 41 ? 'FAIL src/parser.test.ts > parses nested arrays: expected 3, received 2' : 'ok'),
).join('\n');

/**
 * A CI-debugging session with two episodes. Line 1 is the system prompt; episode 1
 * (lines 2-7) has reasoning, two tool calls and a final answer; episode 2 (lines 8-11)
 * starts at the second user message.
 */
export const twoEpisodes = [
  { role: 'system', content: 'You are a CI debugging assistant. Use the tools to read logs and files.' },
  { role: 'user', content: 'CI is red on main since this morning. Can you find out why?' },
  {
    role: 'assistant',
    content: [
      { type: 'reasoning', text: 'Start with the latest failed run log to see which job fails.', signature: 'sig-1' },
      { type: 'tool-call', id: 'call_1', name: 'get_ci_log', args: { run: 42 } },
    ],
    model: { provider: 'anthropic', id: 'claude-sonnet-4-5' },
  },
  { role: 'tool', toolCallId: 'call_1', toolName: 'get_ci_log', content: ciLog, isError: false },
  {
    role: 'assistant',
    content: [
      { type: 'reasoning', text: 'The parser test fails on nested arrays; read the parser.', signature: 'sig-2' },
      { type: 'text', text: 'The parser test fails. Let me read the parser.' },
      { type: 'tool-call', id: 'call_2', name: 'read_file', args: { path: 'src/parser.ts' } },
    ],
  },
  {
    role: 'tool',
    toolCallId: 'call_2',
    toolName: 'read_file',
    content: 'export function parse(input: string) {\n  return input.split(",").slice(0, -1);\n}\n',
  },
  {
    role: 'assistant',
    content: [
      { type: 'reasoning', text: 'slice(0, -1) drops the last element: that is the off-by-one.' },
      { type: 'text', text: 'The parser drops the last element (`slice(0, -1)`); that breaks nested arrays.' },
    ],
  },
  { role: 'user', content: [{ type: 'text', text: 'Thanks! Is the flaky e2e test related?' }] },
  {
    role: 'assistant',
    content: [
      { type: 'reasoning', text: 'Check the e2e history before answering.' },
      { type: 'tool-call', id: 'call_3', name: 'get_ci_log', args: { run: 41, job: 'e2e' } },
    ],
  },
  { role: 'tool', toolCallId: 'call_3', toolName: 'get_ci_log', content: 'e2e: 12 passed, 0 failed', isError: false },
  { role: 'assistant', content: [{ type: 'text', text: 'No: the e2e job passed in the previous run.' }] },
];

/** The fixture as transcript text. */
export function transcriptText(messages: readonly object[]): string {
  return messages.map((message) => `${JSON.stringify(message)}\n`).join('');
}

/** Transcript text whose line `badLine` (1-based) has an assistant part of unknown type. */
export function malformedText(badLine: number): string {
  const lines = transcriptText(twoEpisodes).trimEnd().split('\n');
  lines[badLine - 1] = JSON.stringify({ role: 'assistant', content: [{ type: 'thinking', text: 'hmm' }] });
  return `${lines.join('\n')}\n`;
}

/** A temp directory for fixture files; remove it with `cleanup`. */
export async function fixtureDir(): Promise<{
  path: (name: string) => string;
  write: (name: string, text: string) => Promise<string>;
  cleanup: () => Promise<void>;
}> {
  const dir = await mkdtemp(join(tmpdir(), 'episodic-cli-'));
  return {
    path: (name) => join(dir, name),
    write: async (name, text) => {
      const file = join(dir, name);
      await writeFile(file, text, 'utf8');
      return file;
    },
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
}

/** What one in-process run printed and returned. */
export interface RunOutput {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI in-process with captured output; `stdin` is the text (or stream) on standard input. */
export async function runCli(
  argv: readonly string[],
  options: { stdin?: string | Readable; env?: Record<string, string | undefined> } = {},
): Promise<RunOutput> {
  const stdout = capture();
  const stderr = capture();
  const stdin =
    typeof options.stdin === 'string' || options.stdin === undefined
      ? Readable.from([options.stdin ?? ''])
      : options.stdin;
  const code = await run(argv, { stdin, stdout: stdout.stream, stderr: stderr.stream, env: options.env ?? {} });
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

function capture(): { stream: Writable; text: () => string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      chunks.push(chunk.toString());
      callback();
    },
  });
  return { stream, text: () => chunks.join('') };
}
