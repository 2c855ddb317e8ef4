import type { Message } from '@episodic/core';
import type { PackStats } from '@episodic/core/packing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureDir, malformedText, runCli, transcriptText, twoEpisodes } from '../testing/cli-harness.js';

interface PackJson {
  messages: Message[];
  system: string | null;
  stats: PackStats;
}

let dir: Awaited<ReturnType<typeof fixtureDir>>;
let transcript: string;

beforeAll(async () => {
  dir = await fixtureDir();
  transcript = await dir.write('session.jsonl', transcriptText(twoEpisodes));
});
afterAll(() => dir.cleanup());

function reasoningParts(messages: readonly Message[]): number {
  return messages
    .flatMap((message) => (message.role === 'assistant' ? message.content : []))
    .filter((part) => part.type === 'reasoning').length;
}

async function packJson(argv: readonly string[], stdin?: string): Promise<PackJson> {
  const result = await runCli(['pack', ...argv, '--json'], { stdin });
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as PackJson;
}

describe('episodic pack --json', () => {
  it('prints { messages, system, stats } within the budget, dropping past reasoning by default', async () => {
    const packed = await packJson([transcript, '--budget', '16k']);
    expect(Object.keys(packed).sort()).toEqual(['messages', 'stats', 'system']);
    expect(packed.system).toBe(twoEpisodes[0]!.content);
    expect(packed.stats.budget).toBe(16_000);
    expect(packed.stats.tokens.total).toBeLessThanOrEqual(16_000);
    expect(packed.messages.map((message) => message.role)).toEqual(twoEpisodes.slice(1).map((message) => message.role));
    // Episode 1 has three reasoning parts, episode 2 (current) one.
    expect(reasoningParts(packed.messages)).toBe(1);
    expect(packed.stats.reasoning).toMatchObject({ keptParts: 1, droppedParts: 3 });
  });

  it('keeps every reasoning part with --retention all and none with --retention none', async () => {
    const all = await packJson([transcript, '-b', '1.5m', '--retention', 'all']);
    expect(all.stats.budget).toBe(1_500_000);
    expect(reasoningParts(all.messages)).toBe(4);
    const none = await packJson([transcript, '-b', '16000', '-r', 'none']);
    expect(reasoningParts(none.messages)).toBe(0);
  });

  it('prints system: null for a transcript without a system prompt', async () => {
    const packed = await packJson(['-', '--budget', '16k'], transcriptText(twoEpisodes.slice(1)));
    expect(packed.system).toBeNull();
    expect(packed.stats.tokens.system).toBe(0);
  });

  it('reads the transcript from standard input with -', async () => {
    const fromFile = await packJson([transcript, '--budget', '2k']);
    const fromStdin = await packJson(['-', '--budget', '2k'], transcriptText(twoEpisodes));
    expect(fromStdin).toEqual(fromFile);
  });

  it('evicts the first episode when the budget is tight', async () => {
    const packed = await packJson([transcript, '--budget', '100']);
    expect(packed.stats.evictedEpisodes).toBe(1);
    expect(packed.stats.tokens.total).toBeLessThanOrEqual(100);
    const firstUser = packed.messages.find((message) => message.role === 'user');
    expect(firstUser?.content).toEqual(twoEpisodes[7]!.content);
  });
});

describe('episodic pack (human output)', () => {
  it('prints one line per packed message and the stats the packer reported', async () => {
    const packed = await packJson([transcript, '--budget', '16k']);
    const result = await runCli(['pack', transcript, '--budget', '16k']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const lines = result.stdout.split('\n');
    const { stats } = packed;
    expect(lines[0]).toBe(
      `Packed ${packed.messages.length} of 10 messages into ${stats.tokens.total.toLocaleString('en-US')} of 16,000 tokens (retention episode)`,
    );
    const rows = lines.filter((line) => /^\s*\d+ {2}(user|assistant|tool)\s/.test(line));
    expect(rows).toHaveLength(packed.messages.length);
    packed.messages.forEach((message, index) => {
      expect(rows[index]).toMatch(new RegExp(`^\\s*${index}  ${message.role}\\s`));
    });
    expect(rows[1]).toContain('tool-call get_ci_log');
    expect(rows[2]).toContain('result of get_ci_log (call_1)');
    expect(rows[7]).toContain('reasoning, tool-call get_ci_log');
    expect(result.stdout).toContain(
      `Reasoning: kept 1 part (${stats.reasoning.keptTokens} tokens), dropped 3 parts (${stats.reasoning.droppedTokens} tokens)`,
    );
    expect(result.stdout).toContain(`current episode ${stats.tokens.currentEpisode}, total`);
    expect(result.stdout).toContain(`Evicted episodes: ${stats.evictedEpisodes}`);
    expect(result.stdout).toContain(`Truncated tool results: ${stats.truncatedToolResults}`);
    expect(result.stdout).toContain(`Predicted cache reuse: ${stats.prefixReuseTokens} tokens`);
  });

  it('per-message tokens add up to the total with the system prompt and reply priming', async () => {
    const packed = await packJson([transcript, '--budget', '16k']);
    const result = await runCli(['pack', transcript, '--budget', '16k']);
    const rowTokens = result.stdout
      .split('\n')
      .filter((line) => /^\s*\d+ {2}(user|assistant|tool)\s/.test(line))
      .map((line) => Number(line.trim().split(/\s+/).at(-1)!.replace(/,/g, '')));
    const { tokens } = packed.stats;
    const sum = rowTokens.reduce((total, count) => total + count, 0);
    expect(sum).toBe(tokens.history + tokens.currentEpisode);
    // What remains is the reply priming: a few tokens, never negative.
    const priming = tokens.total - tokens.system - tokens.tools - tokens.summary - sum;
    expect(priming).toBeGreaterThan(0);
    expect(priming).toBeLessThan(10);
  });
});

describe('episodic pack: bad input exits 1 with a message and no stack trace', () => {
  it('names the file, line and field of a malformed line', async () => {
    const bad = await dir.write('bad.jsonl', malformedText(5));
    const result = await runCli(['pack', bad, '--budget', '16k']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr.startsWith(`episodic: ${bad}, line 5: assistant content[0].type`)).toBe(true);
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
  });

  it('calls standard input <stdin> in the message', async () => {
    const result = await runCli(['pack', '-', '--budget', '16k'], { stdin: malformedText(3) });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^episodic: <stdin>, line 3: /);
  });

  it('reports a missing file', async () => {
    const missing = dir.path('nope.jsonl');
    const result = await runCli(['pack', missing, '--budget', '16k']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(missing);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('reports a budget below the minimum context with the shortfall', async () => {
    const result = await runCli(['pack', transcript, '--budget', '30']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^episodic: Context does not fit: .* budget is 30 \(short by \d+\)/);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('episodic pack: usage errors exit 2 with a reason and the usage', () => {
  it.each([
    ['missing --budget', ['FILE'], 'missing --budget'],
    ['bad budget', ['FILE', '--budget', 'lots'], 'bad budget "lots"'],
    ['budget without a value', ['FILE', '--budget'], "--budget <value>' argument missing"],
    [
      'budget value that looks like an option',
      ['FILE', '--budget', '-5k'],
      "option '--budget' argument is ambiguous: to give a value that starts with a dash, write --budget=VALUE",
    ],
    ['negative budget', ['FILE', '--budget=-5k'], 'bad budget "-5k"'],
    ['unknown retention', ['FILE', '-b', '16k', '--retention', 'some'], 'unknown retention "some"'],
    ['unknown flag', ['FILE', '-b', '16k', '--fast'], "unknown option '--fast'"],
    ['no file', ['-b', '16k'], 'missing transcript file'],
    ['two files', ['FILE', 'FILE', '-b', '16k'], 'expected one transcript file'],
  ])('%s', async (_name, argv, reason) => {
    const result = await runCli(['pack', ...argv.map((arg) => (arg === 'FILE' ? transcript : arg))]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    const [first, , usage] = result.stderr.split('\n');
    expect(first).toMatch(/^episodic: /);
    expect(first).toContain(reason);
    expect(usage).toBe('Usage: episodic pack FILE|- --budget N [--retention POLICY] [--from SOURCE [--lossy]] [--json]');
  });
});
