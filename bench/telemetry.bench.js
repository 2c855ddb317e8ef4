/**
 * What the ecosystem subscribers cost per episode (issue 16): OpenTelemetry tracing
 * (`createTelemetry().handler()`, spans to the SDK's in-memory exporter through a
 * simple span processor) and the UI message stream mapping, measured on the events
 * of a real episode, against the episode itself run by the agent loop on the
 * scripted model at zero latency (the baseline, in the same run).
 *
 *   node bench/telemetry.bench.js      (or `npm run bench -- telemetry`)
 *
 * Needs the built @episodic/core (`npx tsc -b packages/core`). Writes
 * bench/results/telemetry.md and returns the same markdown.
 */
import { writeFile } from 'node:fs/promises';
import { availableParallelism, loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
import { Agent } from '@episodic/core';
import { UIMessageChunkMapper } from '@episodic/core/internal';
import { createTelemetry } from '@episodic/core/telemetry';
import { scriptedModel } from '@episodic/core/testing';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';

const TOOL_STEPS = 4;
const EPISODES = 300;
const REPLAYS = 3000;

const words = 'the build failed because a test timed out while waiting for the fixture server'.split(' ');
function text(seed, length) {
  let out = '';
  for (let index = 0; out.length < length; index += 1) out += `${words[(seed * 7 + index * 13) % words.length]} `;
  return out.trim();
}

function median(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** An agent whose every episode is 5 model calls (4 with a tool call) on a zero-latency scripted model. */
function benchAgent() {
  let call = 0;
  const model = scriptedModel({
    chunkSize: 32,
    steps: (request) => {
      const last = request.messages.at(-1);
      const step = last?.role === 'user' ? 1 : Number(String(last?.toolCallId).split('_')[2]) + 1;
      call += 1;
      if (step > TOOL_STEPS) return { reasoning: text(call, 300), text: text(call + 1, 300) };
      return { reasoning: text(call, 300), toolCalls: [{ id: `c_${call}_${step}`, name: 'read_log', args: { run: step } }] };
    },
  });
  const readLog = {
    spec: { name: 'read_log', description: 'Reads a CI log', inputSchema: { type: 'object' } },
    execute: async (args) => ({ content: text(args.run, 1500) }),
  };
  return new Agent({ model, system: text(99, 2000), tools: [readLog], context: { budget: 100_000 } });
}

/** Median wall time of one episode in a fresh session (the baseline), and one episode's events. */
async function episodes() {
  const agent = benchAgent();
  const samples = [];
  let events = [];
  for (let index = 0; index < EPISODES; index += 1) {
    const session = await agent.session();
    const recorded = [];
    const started = performance.now();
    await session.send(text(index, 200), { onEvent: (event) => recorded.push(event) });
    samples.push(performance.now() - started);
    events = recorded;
  }
  return { episodeMs: median(samples), events };
}

/** Median time to pass one episode's events through a fresh handler from `makeHandler`. */
function replay(events, makeHandler, afterEach = () => {}) {
  const samples = [];
  for (let index = 0; index < REPLAYS; index += 1) {
    const handle = makeHandler();
    const started = performance.now();
    for (const event of events) handle(event);
    samples.push(performance.now() - started);
    afterEach();
  }
  return median(samples);
}

export default async function run() {
  const { episodeMs, events } = await episodes();
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const quiet = await createTelemetry({ tracer: provider.getTracer('bench') });
  const verbose = await createTelemetry({ tracer: provider.getTracer('bench'), recordContent: true });
  const spans = (() => {
    const handle = quiet.handler();
    for (const event of events) handle(event);
    const count = exporter.getFinishedSpans().length;
    exporter.reset();
    return count;
  })();
  const tracingMs = replay(events, () => quiet.handler(), () => exporter.reset());
  const contentMs = replay(events, () => verbose.handler(), () => exporter.reset());
  const uiMs = replay(events, () => {
    const mapper = new UIMessageChunkMapper();
    return (event) => mapper.map(event);
  });
  const row = (name, ms) =>
    `| ${name} | ${(ms * 1000).toFixed(0)} µs | ${((ms / episodeMs) * 100).toFixed(1)}% |`;
  const section = `## Ecosystem subscribers (tracing, UI stream)

One episode: 5 model calls (4 with a tool call), ${events.length} agent events, ${spans} spans. Baseline: the
episode run by the agent loop on the scripted model at zero latency, fresh session, median of ${EPISODES}.
Subscribers: the same episode's recorded events replayed through a fresh handler, median of ${REPLAYS}.
Node ${process.version}, ${availableParallelism()} cores, load ${loadavg()[0].toFixed(1)} at the end.

| per episode | median | share of the episode |
| --- | --- | --- |
| agent loop (baseline) | ${(episodeMs * 1000).toFixed(0)} µs | 100% |
${row('OpenTelemetry tracing (in-memory exporter)', tracingMs)}
${row('tracing with recordContent', contentMs)}
${row('UI message stream mapping', uiMs)}
`;
  await writeFile(new URL('./results/telemetry.md', import.meta.url), `${section}\n`);
  return section;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) process.stdout.write(`${await run()}\n`);
