/**
 * The example's command line against the strict loopback wire server of each
 * provider (test/servers): the real adapter and SDK speak the real wire format,
 * the server plays a short scripted investigation and rejects what the provider
 * would reject (missing thinking blocks, unpaired items, missing signatures). The
 * tools run for real; the follow-up on stdin becomes a second episode.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { toolCallsOf } from '@episodic/core';
import { readTranscript } from '@episodic/core/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startAnthropicServer } from '../../../test/servers/anthropic-server.js';
import { startGeminiServer } from '../../../test/servers/gemini-server.js';
import { startOpenAIChatServer } from '../../../test/servers/openai-chat-server.js';
import { startOpenAIResponsesServer } from '../../../test/servers/openai-responses-server.js';
import type { ScriptedResponse, ScriptedServer } from '../../../test/servers/scripted-server.js';
import { runCli } from './cli.js';

interface WireCase {
  provider: string;
  model: string;
  keyVariable: string;
  start: () => Promise<ScriptedServer>;
  /** False where the wire has no field for reasoning (Chat Completions). */
  echoesReasoning?: boolean;
}

const cases: WireCase[] = [
  {
    provider: 'anthropic',
    model: 'claude-sonnet-4-6',
    keyVariable: 'ANTHROPIC_API_KEY',
    start: () => startAnthropicServer(),
  },
  { provider: 'openai', model: 'gpt-5-mini', keyVariable: 'OPENAI_API_KEY', start: () => startOpenAIResponsesServer() },
  {
    provider: 'openai-chat',
    model: 'gpt-4.1-mini',
    keyVariable: 'OPENAI_API_KEY',
    start: () => startOpenAIChatServer('openai'),
    echoesReasoning: false,
  },
  {
    provider: 'google',
    model: 'gemini-3-pro-preview',
    keyVariable: 'GEMINI_API_KEY',
    start: () => startGeminiServer(),
  },
  {
    provider: 'deepseek',
    model: 'deepseek-v4-pro',
    keyVariable: 'DEEPSEEK_API_KEY',
    start: () => startOpenAIChatServer('deepseek-thinking'),
  },
  {
    provider: 'openrouter',
    model: 'anthropic/claude-sonnet-4.5',
    keyVariable: 'OPENROUTER_API_KEY',
    start: () => startOpenAIChatServer('openrouter'),
  },
  {
    provider: 'ollama',
    model: 'qwen3:8b',
    keyVariable: 'OLLAMA_API_KEY',
    start: () => startOpenAIChatServer('ollama'),
  },
];

const file = 'test/queue.test.js';
// The fix as a unified diff (models often write patches this way).
const fix = [
  '--- a/src/queue.js',
  '+++ b/src/queue.js',
  '@@ -27,2 +27,3 @@',
  '   #active = 0;',
  '+  #retrying = 0;',
  '   #nextId = 1;',
  '@@ -84 +85 @@',
  '-    return this.#active === 0 && this.#waiting.length === 0;',
  '+    return this.#active === 0 && this.#waiting.length === 0 && this.#retrying === 0;',
  '@@ -120 +121,3 @@',
  '+    this.#retrying += 1;',
  '     setTimeout(() => {',
  '+      this.#retrying -= 1;',
  '',
].join('\n');
const usage = { input: 3_200, cacheRead: 2_048, output: 150, reasoning: 40 };

/** A short investigation: the model's side of the conversation, in neutral terms. */
const script: ScriptedResponse[] = [
  {
    type: 'reply',
    reasoning: ['List the runs and read the failure summary of the newest failing run.'],
    toolCalls: [
      { name: 'list_ci_runs', args: { status: 'failure' } },
      { name: 'get_ci_log', args: { run: 1887, grep: '^test at ' } },
    ],
    usage,
  },
  {
    type: 'reply',
    reasoning: ['The onIdle test failed; replay its CI seed locally.'],
    toolCalls: [{ name: 'run_tests', args: { file, times: 1, seed: 1887 } }],
    usage,
  },
  {
    type: 'reply',
    reasoning: ['Reproduced. Count retries in the idle check.'],
    toolCalls: [{ name: 'apply_patch', args: { diff: fix } }],
    usage,
  },
  {
    type: 'reply',
    reasoning: ['Verify on the patched copy with the failing seeds.'],
    toolCalls: [{ name: 'run_tests_on_patched', args: { file, times: 3, seed: 1887 } }],
    usage,
  },
  { type: 'reply', reasoning: ['All passed.'], text: 'Verified fix: onIdle now waits for retries.', usage },
  { type: 'reply', reasoning: ['A different test.'], text: 'No: #1847 failed a different test.', usage },
];

let sessions: string;
beforeAll(async () => {
  sessions = await mkdtemp(path.join(tmpdir(), 'ci-debugger-wire-'));
});
afterAll(() => rm(sessions, { recursive: true, force: true }));
afterEach(() => {
  vi.unstubAllEnvs();
});

async function run(argv: string[], stdinLines: string[] = []) {
  let stdout = '';
  let stderr = '';
  const out = new PassThrough().on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
  });
  const err = new PassThrough().on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const stdin = Readable.from(stdinLines.map((line) => `${line}\n`));
  const code = await runCli(argv, { stdin, stdout: out, stderr: err });
  return { code, stdout, stderr };
}

describe.each(cases)('npm start -- --provider $provider against its loopback server', (wire) => {
  it('runs the investigation and a follow-up episode, every request accepted', async () => {
    const server = await wire.start();
    try {
      vi.stubEnv(wire.keyVariable, 'test-key');
      server.enqueue(...script);
      const argv = [
        '--provider',
        wire.provider,
        '--model',
        wire.model,
        '--base-url',
        server.url,
        '--sessions',
        sessions,
      ];
      const result = await run(argv, ['Is #1847 the same flake?']);
      const rejected = server.requests.filter((request) => request.status !== 200);
      expect(rejected.map((request) => request.error)).toEqual([]);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(server.modelCalls()).toHaveLength(6);
      // Reasoning of the episode went back with the tool results that followed it.
      const echoed = server.modelCalls()[1]?.view?.echoedReasoning ?? [];
      if (wire.echoesReasoning === false) expect(echoed).toEqual([]);
      else expect(echoed).toContain('List the runs and read the failure summary of the newest failing run.');
      expect(result.stdout).toMatch(/provider cached [\d,]+\/[\d,]+/);
      expect(result.stdout).toMatch(/Summary\n {2}2 episodes · 6 model calls · 5 tool calls/);
      const transcriptPath = /transcript: (\S+\.jsonl)/.exec(result.stdout)?.[1] ?? '';
      const messages = await readTranscript(transcriptPath);
      const results = messages.flatMap((message) => (message.role === 'tool' ? [message] : []));
      const calls = messages.flatMap((message) => (message.role === 'assistant' ? toolCallsOf(message) : []));
      expect(results.map((message) => message.toolCallId).sort()).toEqual(calls.map((call) => call.id).sort());
      expect(results.find((message) => message.toolName === 'run_tests')?.content).toContain('0 passed, 1 failed');
      expect(results.find((message) => message.toolName === 'run_tests_on_patched')?.content).toContain(
        '3 passed, 0 failed',
      );
      expect(JSON.stringify(messages)).not.toContain('test-key');
    } finally {
      await server.close();
    }
  });
});

describe('provider setup errors', () => {
  it('says which variable to set when the key is missing', async () => {
    vi.stubEnv('ANTHROPIC_API_KEY', '');
    const result = await run(['--provider', 'anthropic', '--model', 'claude-sonnet-4-6', '--sessions', sessions]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('No API key for anthropic');
    expect(result.stderr).toContain('export ANTHROPIC_API_KEY=...');
    expect(result.stdout).toBe('');
  });

  it('rejects an unknown provider without a base URL, and a provider without a model', async () => {
    const unknown = await run(['--provider', 'acme', '--model', 'x', '--sessions', sessions]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Unknown provider "acme"');
    const noModel = await run(['--provider', 'google']);
    expect(noModel.code).toBe(2);
    expect(noModel.stderr).toContain('--provider google needs --model ID (for example --model gemini-3.8-flash)');
  });
});
