/**
 * The agent loop beside the lightest tool loop we know (issue 26): Episodic's
 * `Agent` on `scriptedModel` and the memory store, and the Vercel AI SDK's
 * `generateText` tool loop on its `MockLanguageModelV3`, both with instant models,
 * the same tool (`read_log`, 1,500 characters of log), the same answers (one call
 * per step, then a short final text) and the same number of model calls per episode.
 *
 * Each run opens a session (Episodic) or calls `generateText` (AI SDK) for enough
 * episodes to make about 1,200 steps, and reports wall time per step; runs of the two
 * loops alternate (A B A B ...) so machine drift hits both alike. Median of RUNS runs;
 * the ratio is Episodic / AI SDK per pair of runs, median taken.
 *
 *   node --expose-gc bench/loop-vs-ai-sdk.bench.js   (or `npm run bench -- loop`)
 *
 * Needs the built @episodic/core (`npx tsc -b packages/core`).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { availableParallelism, loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
import { generateText, jsonSchema, stepCountIs, tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { Agent, maxSteps, MemorySessionStore } from '@episodic/core';
import { scriptedModel } from '@episodic/core/testing';

const STEP_COUNTS = (process.env.LOOP_VS_STEPS ?? '10,50,200,400').split(',').map(Number);
const RUNS = Number(process.env.LOOP_VS_RUNS ?? 7);
/**
 * Steps per run at least: long enough that a run of short episodes is more than a
 * scheduler slice or a collection (at 10 steps per episode a run of 400 steps took
 * a few tens of milliseconds, and its pairs scattered widely around the median).
 */
const STEPS_PER_RUN = Number(process.env.LOOP_VS_STEPS_PER_RUN ?? 1200);
/** Unmeasured runs of each loop first, until both run optimised code. */
const WARMUPS = Number(process.env.LOOP_VS_WARMUPS ?? 3);
const WORDS = 'build failed test timed out waiting fixture server start port error warning retry npm ci step job'.split(' ');

/** The tool's output: about 1,500 characters of log, different at every call (no count can be reused). */
export function logText(seed) {
  let state = Math.imul(seed, 2654435761) >>> 0;
  const lines = [];
  for (let length = 0; length < 1500;) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    const line = `${(state % 100000).toString().padStart(5, '0')} ${WORDS[state % WORDS.length]} ${WORDS[(state >>> 8) % WORDS.length]} ${WORDS[(state >>> 16) % WORDS.length]} ${state % 997}`;
    lines.push(line);
    length += line.length + 1;
  }
  return lines.join('\n');
}

/** A tool body that answers each call with the next log of its own sequence (the same for both loops). */
function logSequence() {
  let calls = 0;
  return () => logText((calls += 1));
}

const ANSWER = 'The build failed because the fixture server did not start in time.';
const inputSchema = { type: 'object', properties: { run: { type: 'number' } }, required: ['run'] };

/** One Episodic episode of `steps` model calls per call of the returned function. */
function episodic(steps) {
  const model = scriptedModel({
    steps: (_request, index) => {
      const step = (index % steps) + 1;
      return step < steps ? { toolCalls: [{ name: 'read_log', args: { run: step } }] } : { text: ANSWER };
    },
  });
  const nextLog = logSequence();
  const readLog = {
    spec: { name: 'read_log', description: 'Reads a CI log', inputSchema },
    execute: async () => ({ content: nextLog() }),
  };
  const agent = new Agent({
    model,
    system: 'You debug CI failures.',
    tools: [readLog],
    stopWhen: maxSteps(steps + 1),
    store: new MemorySessionStore(),
  });
  return async () => {
    const session = await agent.session();
    const result = await session.send('Why did the build fail?');
    if (result.steps !== steps || result.text !== ANSWER) throw new Error(`episodic: ${result.steps} steps, "${result.text}"`);
  };
}

const usage = {
  inputTokens: { total: 100, noCache: 100, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 10, text: 10, reasoning: 0 },
};

/** One AI SDK `generateText` tool loop of `steps` model calls per call of the returned function. */
function aiSdk(steps) {
  let calls = 0;
  const model = new MockLanguageModelV3({
    doGenerate: async () => {
      const step = (calls % steps) + 1;
      calls += 1;
      if (step === steps) {
        return { content: [{ type: 'text', text: ANSWER }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] };
      }
      const call = { type: 'tool-call', toolCallId: `call_${calls}_1`, toolName: 'read_log', input: JSON.stringify({ run: step }) };
      return { content: [call], finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage, warnings: [] };
    },
  });
  const nextLog = logSequence();
  const tools = {
    read_log: tool({ description: 'Reads a CI log', inputSchema: jsonSchema(inputSchema), execute: async () => nextLog() }),
  };
  return async () => {
    const result = await generateText({
      model,
      system: 'You debug CI failures.',
      prompt: 'Why did the build fail?',
      tools,
      stopWhen: stepCountIs(steps),
    });
    if (result.steps.length !== steps || result.text !== ANSWER) throw new Error(`ai sdk: ${result.steps.length} steps`);
  };
}

/** Milliseconds per step over enough episodes to make STEPS_PER_RUN steps. */
async function timeRun(episode, steps) {
  const episodes = Math.max(1, Math.ceil(STEPS_PER_RUN / steps));
  globalThis.gc?.();
  const started = performance.now();
  for (let index = 0; index < episodes; index += 1) await episode();
  return (performance.now() - started) / (episodes * steps);
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/** Both loops at `steps` steps per episode, alternating, after WARMUPS unmeasured runs of each. */
async function compare(steps) {
  const a = episodic(steps);
  const b = aiSdk(steps);
  for (let warm = 0; warm < WARMUPS; warm += 1) {
    await timeRun(a, steps);
    await timeRun(b, steps);
  }
  const ours = [];
  const theirs = [];
  const ratios = [];
  const loads = [];
  for (let run = 0; run < RUNS; run += 1) {
    const first = await timeRun(a, steps);
    const second = await timeRun(b, steps);
    ours.push(first);
    theirs.push(second);
    ratios.push(first / second);
    loads.push(loadavg()[0]);
  }
  const spread = { low: Math.min(...ratios), high: Math.max(...ratios) };
  return { steps, ours: median(ours), theirs: median(theirs), ratio: median(ratios), ...spread, load: median(loads) };
}

/** Runs every step count and returns a markdown section. */
export default async function run() {
  const rows = [];
  for (const steps of STEP_COUNTS) {
    const row = await compare(steps);
    process.stderr.write(`loop-vs-ai-sdk: ${steps} steps ${row.ours.toFixed(3)} / ${row.theirs.toFixed(3)} ms/step\n`);
    rows.push(row);
  }
  const table = rows
    .map((row) => `| ${row.steps} | ${row.ours.toFixed(3)} | ${row.theirs.toFixed(3)} | ${row.ratio.toFixed(2)}x | ${row.low.toFixed(2)}-${row.high.toFixed(2)}x | ${row.load.toFixed(1)} |`)
    .join('\n');
  const markdown = `## Agent loop beside the AI SDK's tool loop

Episodic's \`Agent\` (scriptedModel, memory store, default tokenizer) and the Vercel AI SDK's \`generateText\`
(MockLanguageModelV3), instant models, the same tool and answers; a new session / \`generateText\` call per
episode. Wall time per step, median of ${RUNS} alternating runs of at least ${STEPS_PER_RUN} steps each (after ${WARMUPS} unmeasured runs of each); the ratio
is Episodic / AI SDK, median of the pairs. Node ${process.version}, ${availableParallelism()} cores; load is the
1-minute load average during the row's runs.

| steps per episode | Episodic ms/step | AI SDK ms/step | ratio | pairs | load |
| --- | --- | --- | --- | --- | --- |
${table}

Target (issue 26): ratio at most 1 at 10, 50 and 400 steps.
`;
  await mkdir(new URL('./results/', import.meta.url), { recursive: true });
  await writeFile(new URL('./results/loop-vs-ai-sdk.md', import.meta.url), markdown);
  return markdown;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.stdout.write(await run());
}
