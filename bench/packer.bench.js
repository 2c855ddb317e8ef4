/**
 * The packer benchmark (issue 2, item 8): replays every model call of a generated
 * 60-turn agent session through four packing strategies at three budgets and
 * measures time, tokens, prefix-cache reuse, cost and validity of what each sends.
 *
 *   node --expose-gc bench/packer.bench.js      (or `npm run bench -- packer`)
 *
 * Needs the built @episodic/core (`npx tsc -b packages/core`). Writes
 * bench/results/packer.md and returns the same markdown.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { createTokenCounter } from '@episodic/core';
import { resolveProfile } from '@episodic/providers';
import { BENCH_SYSTEM, BENCH_TOOLS } from './agent-prompt.js';
import { createRecorder, reasoningEpisodes } from './metrics.js';
import { formatColdPacks, measureColdPacks } from './packer-cold.js';
import { measureHostileText } from './hostile-text.js';
import { formatPackerReport } from './packer-report.js';
import { generateSession } from './session-generator.js';
import * as episodic from './strategies/episodic.js';
import * as langchain from './strategies/langchain.js';
import * as naive from './strategies/naive.js';
import * as vercel from './strategies/vercel.js';

/** Input budgets in tokens. */
export const BUDGETS = [16_000, 64_000, 200_000];
/** Strategies in table order; the first is the one under test. */
export const STRATEGIES = [
  { key: 'episodic', module: episodic },
  { key: 'langchain', module: langchain },
  { key: 'vercel', module: vercel },
  { key: 'naive', module: naive },
];
const SEED = 1;
const TURNS = 60;
const WARM_UP = { seed: 1001, turns: 8 };
/** Replays per strategy and budget; each call's fastest time is kept. `BENCH_REPEATS` overrides. */
const REPEATS = Math.max(1, Number(process.env.BENCH_REPEATS ?? 3) || 3);

function createFor(module, budget) {
  // A fresh counter per run: each strategy's cache starts empty and is filled on append.
  return module.createStrategy({ budget, counter: createTokenCounter(), system: BENCH_SYSTEM, tools: BENCH_TOOLS });
}

/**
 * Replays the session: before each assistant message, the strategy packs the
 * transcript so far (one model call); then every message is appended. Pack and
 * append are timed apart, since the count on append is off the call path.
 */
async function replay(strategy, messages, onCall) {
  const transcript = [];
  let appendNanoseconds = 0n;
  let episode = -1;
  let currentUser;
  let calledAt = 0;
  for (const message of messages) {
    if (message.role === 'assistant') {
      let packed;
      let error;
      const start = process.hrtime.bigint();
      try {
        packed = strategy.pack(transcript);
        if (typeof packed?.then === 'function') packed = await packed;
      } catch (caught) {
        error = caught;
      }
      const packNanoseconds = Number(process.hrtime.bigint() - start);
      const boundary = transcript[transcript.length - 1]?.role === 'user';
      onCall({
        packed: error ? undefined : strategy.toTranscript(packed),
        error,
        packNanoseconds,
        episode,
        currentUser,
        cause: strategy.lastEvent?.() ?? (boundary ? 'episode boundary' : 'step'),
        predictedReused: error ? undefined : strategy.predictedReuseTokens?.(),
        fresh: transcript.slice(calledAt),
      });
      calledAt = transcript.length;
    }
    if (message.role === 'user') {
      episode += 1;
      currentUser = message;
    }
    const start = process.hrtime.bigint();
    transcript.push(message);
    strategy.onAppend(message);
    appendNanoseconds += process.hrtime.bigint() - start;
  }
  return Number(appendNanoseconds) / 1e6;
}

function describeSession(messages, counter) {
  let tokens = 0;
  let reasoning = 0;
  let toolResults = 0;
  let largestResult = 0;
  let results = 0;
  for (const message of messages) {
    const size = counter.countMessage(message);
    tokens += size;
    if (message.role === 'tool') {
      results += 1;
      toolResults += size;
      largestResult = Math.max(largestResult, size);
    } else if (message.role === 'assistant') {
      for (const part of message.content) if (part.type === 'reasoning') reasoning += counter.countText(part.text);
    }
  }
  const calls = messages.filter((message) => message.role === 'assistant').length;
  return { messages: messages.length, calls, tokens, reasoning, toolResults, results, largestResult };
}

/**
 * Replays the session `REPEATS` times, each time with a fresh strategy on a fresh
 * deep copy of the session (so no cache, in the strategy or in @episodic/core,
 * outlives a replay), and keeps each call's fastest pack time: the machine is
 * shared, and the minimum filters out time the process was not running. The
 * figures other than time come from the first replay (all replays send the same).
 */
async function measure(entry, budget, messages, episodeOfReasoning) {
  await replay(createFor(entry.module, budget), generateSession(WARM_UP), () => {});
  const recorder = createRecorder({
    counter: createTokenCounter(),
    system: BENCH_SYSTEM,
    tools: BENCH_TOOLS,
    budget,
    episodeOfReasoning,
    // The prices are gpt-5's, and OpenAI strips earlier turns' reasoning before the model reads it.
    stripsPastReasoning: resolveProfile('openai', 'gpt-5').pastReasoning === 'stripped',
  });
  let firstError;
  let strategy;
  let appendMs = Number.POSITIVE_INFINITY;
  for (let repeat = 0; repeat < REPEATS; repeat += 1) {
    const copy = structuredClone(messages);
    globalThis.gc?.();
    strategy = createFor(entry.module, budget);
    const times = [];
    const onCall = ({ packed, error, packNanoseconds, episode, currentUser, cause, predictedReused, fresh }) => {
      times.push(packNanoseconds);
      if (repeat > 0) return;
      firstError ??= error;
      recorder.record({ packed, currentEpisode: episode, currentUser, packNanoseconds, cause, predictedReused, fresh });
    };
    appendMs = Math.min(appendMs, await replay(strategy, copy, onCall));
    recorder.keepFastestTimes(times);
  }
  return {
    key: entry.key,
    name: strategy.name,
    settings: strategy.settings,
    appendMs,
    firstError: firstError ? String(firstError.message ?? firstError) : undefined,
    ...recorder.summary(),
  };
}

/**
 * Runs the benchmark, writes bench/results/packer.md and returns its markdown.
 * @returns {Promise<string>}
 */
export default async function run() {
  const started = Date.now();
  const messages = generateSession({ seed: SEED, turns: TURNS });
  const session = { seed: SEED, turns: TURNS, repeats: REPEATS, ...describeSession(messages, createTokenCounter()) };
  const episodeOfReasoning = reasoningEpisodes(messages);
  const results = [];
  for (const budget of BUDGETS) {
    for (const entry of STRATEGIES) {
      const result = await measure(entry, budget, messages, episodeOfReasoning);
      results.push({ budget, ...result });
      process.stderr.write(`packer: ${result.name} at ${budget}: median ${result.packMedianMs.toFixed(3)} ms\n`);
    }
  }
  process.stderr.write('packer: cold packs\n');
  const cold = measureColdPacks({ messages, budgets: BUDGETS, repeats: Math.max(REPEATS, 5) });
  process.stderr.write('packer: hostile text\n');
  const hostile = await measureHostileText();
  const markdown = formatPackerReport({
    session,
    results,
    cold: { ...cold, markdown: formatColdPacks(cold, Math.max(REPEATS, 5)) },
    hostile,
    seconds: (Date.now() - started) / 1000,
  });
  await mkdir(new URL('./results/', import.meta.url), { recursive: true });
  await writeFile(new URL('./results/packer.md', import.meta.url), markdown);
  return markdown;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.stdout.write(`${await run()}\n`);
}
