/**
 * `episodic budget` and `npm run bench` agree: on a session from the benchmark's own
 * generator, with the benchmark's system prompt and tools passed as --system and
 * --tools, the CLI's tokens and cost equal what the benchmark's Episodic strategy and
 * its independent metrics recorder measure (gpt-5 prices, 1024-token cache minimum).
 */

import { createTokenCounter, type Message, type TokenCounter, type ToolSpec } from '@episodic/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureDir, runCli, transcriptText } from '../testing/cli-harness.js';

// The bench is plain JavaScript outside the TypeScript projects: typed here by hand.
interface BenchStrategy {
  pack(messages: Message[]): Message[];
  onAppend(message: Message): void;
}
interface BenchRecorder {
  record(call: {
    packed: Message[];
    currentEpisode: number;
    currentUser: Message | undefined;
    packNanoseconds: number;
    fresh: Message[];
  }): void;
  summary(): { calls: number; readCalls: number; threw: number; tokensSent: number; cost: number };
}
interface Bench {
  generateSession(options: { seed: number; turns: number }): Message[];
  BENCH_SYSTEM: string;
  BENCH_TOOLS: ToolSpec[];
  createStrategy(options: { budget: number; counter: TokenCounter; system: string; tools: ToolSpec[] }): BenchStrategy;
  createRecorder(options: {
    counter: TokenCounter;
    system: string;
    tools: ToolSpec[];
    budget: number;
    episodeOfReasoning: Map<string, number>;
  }): BenchRecorder;
  reasoningEpisodes(messages: Message[]): Map<string, number>;
}

async function loadBench(): Promise<Bench> {
  const load = (file: string) => import(new URL(`../../../../bench/${file}`, import.meta.url).href);
  const [generator, prompt, strategy, metrics] = await Promise.all([
    load('session-generator.js'),
    load('agent-prompt.js'),
    load('strategies/episodic.js'),
    load('metrics.js'),
  ]);
  return { ...generator, ...prompt, ...strategy, ...metrics } as Bench;
}

/** The bench's replay loop: pack before each assistant message, then append. */
function benchFigures(bench: Bench, messages: Message[], budget: number) {
  const system = bench.BENCH_SYSTEM;
  const tools = bench.BENCH_TOOLS;
  const strategy = bench.createStrategy({ budget, counter: createTokenCounter(), system, tools });
  const recorder = bench.createRecorder({
    counter: createTokenCounter(),
    system,
    tools,
    budget,
    episodeOfReasoning: bench.reasoningEpisodes(messages),
  });
  const transcript: Message[] = [];
  let episode = -1;
  let currentUser: Message | undefined;
  let calledAt = 0;
  for (const message of messages) {
    if (message.role === 'assistant') {
      const fresh = transcript.slice(calledAt);
      recorder.record({ packed: strategy.pack(transcript), currentEpisode: episode, currentUser, packNanoseconds: 0, fresh });
      calledAt = transcript.length;
    }
    if (message.role === 'user') {
      episode += 1;
      currentUser = message;
    }
    transcript.push(message);
    strategy.onAppend(message);
  }
  return recorder.summary();
}

interface CliRun {
  budget: number;
  calls: number;
  readCalls: number;
  overflowCalls: number;
  evictedEpisodes: number;
  inputTokens: number;
  cost: { total: number };
}

describe('episodic budget agrees with the packer benchmark', () => {
  let fixtures: Awaited<ReturnType<typeof fixtureDir>>;
  beforeAll(async () => {
    fixtures = await fixtureDir();
  });
  afterAll(async () => {
    await fixtures.cleanup();
  });

  it('sends the same tokens at the same cost for the same settings', async () => {
    const bench = await loadBench();
    // Ten turns: with the 1% tool-result cap, five no longer outgrow 16k.
    const messages = bench.generateSession({ seed: 7, turns: 10 });
    const budgets = [16_000, 64_000];
    const transcript = await fixtures.write('bench.jsonl', transcriptText(messages));
    const system = await fixtures.write('system.txt', bench.BENCH_SYSTEM);
    const tools = await fixtures.write('tools.json', JSON.stringify(bench.BENCH_TOOLS));

    const result = await runCli([
      'budget',
      transcript,
      '--budgets',
      budgets.join(','),
      '--system',
      system,
      '--tools',
      tools,
      '--json',
    ]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const output = JSON.parse(result.stdout) as { model: { id: string }; runs: CliRun[] };
    expect(output.model.id).toBe('gpt-5');

    for (const budget of budgets) {
      const expected = benchFigures(bench, messages, budget);
      const run = output.runs.find((candidate) => candidate.budget === budget)!;
      expect(expected.threw).toBe(0);
      expect(run.overflowCalls).toBe(0);
      expect(run.calls).toBe(expected.calls);
      expect(run.readCalls).toBe(expected.readCalls);
      expect(run.inputTokens).toBe(expected.tokensSent);
      expect(run.cost.total).toBeCloseTo(expected.cost, 9);
    }
    // Some result must have been read back (modelled reads), and the smaller budget must
    // have had to evict, or the comparison proves little.
    expect(output.runs.some((run) => run.readCalls > 0)).toBe(true);
    expect(output.runs.find((run) => run.budget === 16_000)!.evictedEpisodes).toBeGreaterThan(0);
  });
});
