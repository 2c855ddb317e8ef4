/**
 * The agent-loop benchmark (issue 3, item 8):
 * - loop overhead per step: a session of 200 messages runs episodes of 5 steps
 *   against the scripted model at zero latency; each step's wall time minus its
 *   tool time (pack + model stream handling + tool dispatch + events + persistence
 *   to an in-process store). Target: median under 1 ms.
 * - file store append latency per step: one step's messages (assistant + tool
 *   result) appended with write + fsync.
 *
 *   node bench/loop.bench.js      (or `npm run bench -- loop`)
 *
 * Needs the built @episodic/core (`npx tsc -b packages/core`). Writes
 * bench/results/loop.md and returns the same markdown.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Agent } from '@episodic/core';
import { FileSessionStore } from '@episodic/core/node';
import { scriptedModel } from '@episodic/core/testing';
import { stepMessages, text } from './step-messages.js';

const BASE_MESSAGES = 200;
const EPISODES = 200;
const TOOL_STEPS = 4;
const APPENDS = 300;

/** 50 finished episodes of 4 messages: user, assistant with reasoning and a call, tool result, answer. */
function baseTranscript() {
  const messages = [];
  for (let episode = 0; messages.length < BASE_MESSAGES; episode += 1) {
    const id = `base_${episode}`;
    messages.push(
      { role: 'user', content: text(episode, 200) },
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: text(episode + 1, 600) },
          { type: 'tool-call', id, name: 'read_log', args: { run: episode, lines: 200 } },
        ],
      },
      { role: 'tool', toolCallId: id, toolName: 'read_log', content: text(episode + 2, 1500), isError: false },
      { role: 'assistant', content: [{ type: 'text', text: text(episode + 3, 400) }] },
    );
  }
  return messages;
}

/**
 * A store that hands out the same message objects every time and drops appends, so
 * each episode starts from the same 200 warm messages (as in a long-lived session,
 * where the counter has seen every message once) and no I/O is timed.
 */
function fixedStore(base) {
  return {
    load: async () => ({ messages: [...base], packState: undefined }),
    append: async () => {},
    saveState: async () => {},
  };
}

function percentile(sorted, share) {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))];
}

function summary(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  return { median: percentile(sorted, 0.5), p99: percentile(sorted, 0.99), count: sorted.length };
}

async function loopOverhead() {
  const base = baseTranscript();
  let call = 0;
  const model = scriptedModel({
    steps: (request) => {
      const last = request.messages.at(-1);
      const step = last?.role === 'user' ? 1 : Number(String(last?.toolCallId).split('_')[2]) + 1;
      call += 1;
      if (step > TOOL_STEPS) return { reasoning: text(call, 300), text: text(call + 1, 300) };
      return {
        reasoning: text(call, 300),
        toolCalls: [{ id: `c_${call}_${step}`, name: 'read_log', args: { run: step } }],
      };
    },
  });
  const readLog = {
    spec: {
      name: 'read_log',
      description: 'Reads a CI log',
      inputSchema: { type: 'object', properties: { run: { type: 'number' } } },
    },
    execute: async (args) => ({ content: text(args.run, 1500) }),
  };
  const agent = new Agent({
    model,
    system: text(99, 2000),
    tools: [readLog],
    store: fixedStore(base),
    context: { budget: 100_000 },
  });
  const samples = [];
  let stepStart = 0;
  let toolTime = 0;
  const onEvent = (event) => {
    if (event.type === 'episode-start') stepStart = performance.now();
    if (event.type === 'tool-result') toolTime += event.durationMs;
    if (event.type === 'step-finish') {
      const now = performance.now();
      samples.push(now - stepStart - toolTime);
      stepStart = now;
      toolTime = 0;
    }
  };
  for (let episode = 0; episode < EPISODES + 10; episode += 1) {
    const session = await agent.session({ id: 'bench' });
    if (episode === 10) samples.length = 0; // the first episodes warm up the JIT and the token caches
    const result = await session.send(text(episode, 200), { onEvent });
    if (result.steps !== TOOL_STEPS + 1) throw new Error(`expected ${TOOL_STEPS + 1} steps, got ${result.steps}`);
  }
  return summary(samples);
}

async function fileAppends() {
  const directory = await mkdtemp(join(tmpdir(), 'episodic-bench-'));
  try {
    const store = new FileSessionStore({ directory });
    const samples = [];
    for (let step = 0; step < APPENDS; step += 1) {
      const messages = stepMessages(step);
      const started = performance.now();
      await store.append('bench', messages);
      samples.push(performance.now() - started);
    }
    return summary(samples);
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

const ms = (value) => `${value.toFixed(3)} ms`;

/** Runs both measurements and returns a markdown section. */
export default async function run() {
  const loop = await loopOverhead();
  const appends = await fileAppends();
  const markdown = `## Agent loop

Scripted model at zero latency, tools that return at once; Node ${process.version}, ${availableParallelism()} cores,
load average ${loadavg()[0].toFixed(1)} when it finished (p99 is sensitive to other work on the machine).

| measure | median | p99 | samples |
| --- | --- | --- | --- |
| loop overhead per step, ${BASE_MESSAGES}-message session (pack + stream + tools dispatch + events, tool time excluded) | ${ms(loop.median)} | ${ms(loop.p99)} | ${loop.count} |
| file store append per step (assistant + tool result, write + fsync, in ${tmpdir()}) | ${ms(appends.median)} | ${ms(appends.p99)} | ${appends.count} |

Target: loop overhead median under 1 ms. The file store's cost is the disk's fsync latency.
`;
  await mkdir(new URL('./results/', import.meta.url), { recursive: true });
  await writeFile(new URL('./results/loop.md', import.meta.url), markdown);
  return markdown;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.stdout.write(await run());
}
