/**
 * The reasoning-toolkit benchmark (issue 8):
 * - cross-model hand-off: size of the note and tokens it adds to a call, for the
 *   last N = 1, 3, 5 traces of another model, measured through the agent loop (the
 *   `reasoning-hand-off` event's tokens, o200k_base, joined to the system prompt),
 *   with the time to build the note;
 * - replay cache: lookup time (median, p99) at 10,000 entries for the memory store
 *   and the file store (hits and misses), the file store's append and reopen time,
 *   and restoring a 100-message history.
 *
 *   node bench/reasoning.bench.js      (or `npm run bench -- reasoning`)
 *
 * Needs the built @episodic/core (`npx tsc -b packages/core`). Writes
 * bench/results/reasoning.md and returns the same markdown.
 */
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Agent, createTokenCounter, MemorySessionStore, maxSteps } from '@episodic/core';
import { MemoryReplayCache } from '@episodic/core/reasoning';
import { FileReplayCache } from '@episodic/core/node';
import { buildHandoff, restoreReasoning, toolCallKey } from '@episodic/core/internal';
import { scriptedModel } from '@episodic/core/testing';
import { percentile } from './metrics.js';
import { mulberry32 } from './session-generator.js';
import { prose } from './session-text.js';

const SYSTEM = 'You are a CI debugging agent. Read logs and files with the tools, find the cause, propose a fix.';
const TRACE_TOKENS = [180, 420, 260, 650, 310, 520];
const ENTRIES = 10_000;
const LOOKUPS = 20_000;

const modelA = { provider: 'anthropic', id: 'claude-sonnet-4-5' };
const modelB = { provider: 'openai', id: 'gpt-5.1' };
const read = {
  spec: { name: 'read_log', description: 'reads a CI log', inputSchema: { type: 'object' } },
  execute: async () => ({ content: 'FAIL test/fixtures.test.ts: timeout after 5000 ms' }),
};

/** Model A runs six tool steps of one episode, then is interrupted; returns the store holding it. */
async function episodeOfModelA() {
  const random = mulberry32(8);
  const steps = TRACE_TOKENS.map((tokens, index) => ({
    reasoning: prose(tokens, random),
    toolCalls: [{ id: `a${index}`, name: 'read_log', args: { run: index } }],
  }));
  const store = new MemorySessionStore();
  const model = scriptedModel({ model: modelA, steps });
  const agent = new Agent({ model, system: SYSTEM, tools: [read], store, stopWhen: maxSteps(6), context: { budget: 100_000 } });
  await (await agent.session({ id: 'handoff' })).send('CI is red on main since this morning');
  return store;
}

/** One hand-off call through the loop with the last `traces` traces; returns the event and request. */
async function handoffCall(store, traces) {
  const copy = new MemorySessionStore();
  const stored = await store.load('handoff');
  await copy.append('handoff', stored.messages);
  const model = scriptedModel({ model: modelB, steps: [{ text: 'Found it.' }] });
  const agent = new Agent({ model, system: SYSTEM, tools: [read], store: copy, context: { budget: 100_000 } });
  const session = await agent.session({ id: 'handoff', handoff: { maxTraces: traces, maxTokens: 8_000 } });
  let event;
  await session.resume({
    onEvent: (next) => {
      if (next.type === 'reasoning-handoff') event = next;
    },
  });
  return { event, system: model.requests[0].system, messages: stored.messages };
}

function timed(runs, action) {
  const times = [];
  for (let run = 0; run < runs; run += 1) {
    const started = performance.now();
    action();
    times.push(performance.now() - started);
  }
  times.sort((left, right) => left - right);
  return percentile(times, 0.5);
}

async function handoffRows() {
  const store = await episodeOfModelA();
  const counter = createTokenCounter();
  const rows = [];
  for (const traces of [1, 3, 5]) {
    const { event, system, messages } = await handoffCall(store, traces);
    const options = { maxTraces: traces, maxTokens: 8_000 };
    // Cold: a new counter each time, so every trace and the note are counted (the first call of an episode).
    const cold = timed(50, () => buildHandoff(messages, modelB, options, createTokenCounter()));
    // Warm: the same counter, as for the later calls of the episode (counts are cached per trace and note).
    const warm = timed(200, () => buildHandoff(messages, modelB, options, counter));
    const built = buildHandoff(messages, modelB, options, counter);
    const traceTokens = built.traces.reduce((sum, trace) => sum + trace.tokens, 0);
    const note = system.slice(SYSTEM.length + 2);
    rows.push({ traces, chars: note.length, tokens: event.tokens, traceTokens, cold, warm });
  }
  const defaults = await handoffCall(store, 3);
  const defaultNote = buildHandoff(defaults.messages, modelB, {}, counter);
  return { rows, defaults: { traces: defaultNote.traces.length, skipped: defaultNote.skipped.length } };
}

function entry(index, now) {
  return {
    key: toolCallKey(modelA, `call_${index}`),
    provider: modelA.provider,
    model: modelA.id,
    parts: [{ type: 'reasoning', text: `reasoning ${index} `.repeat(40), signature: `sig-${index}` }],
    tokens: 120,
    storedAt: now,
  };
}

async function timeLookups(cache, keyOf) {
  const random = mulberry32(3);
  const times = [];
  for (let run = 0; run < LOOKUPS; run += 1) {
    const key = keyOf(Math.floor(random() * ENTRIES));
    const started = performance.now();
    await cache.get(key);
    times.push((performance.now() - started) * 1000);
  }
  times.sort((left, right) => left - right);
  return { median: percentile(times, 0.5), p99: percentile(times, 0.99) };
}

async function fill(cache) {
  const now = Date.now();
  const times = [];
  for (let index = 0; index < ENTRIES; index += 1) {
    const started = performance.now();
    await cache.set([entry(index, now)]);
    times.push((performance.now() - started) * 1000);
  }
  times.sort((left, right) => left - right);
  return { median: percentile(times, 0.5), p99: percentile(times, 0.99) };
}

/** A 100-message history (50 tool steps) that lost its reasoning; every step is in the cache. */
async function restoreTime(cache) {
  const messages = [{ role: 'user', content: 'CI is red' }];
  for (let index = 0; index < 50; index += 1) {
    const id = `call_${index * 97}`;
    messages.push(
      { role: 'assistant', content: [{ type: 'tool-call', id, name: 'read_log', args: {} }] },
      { role: 'tool', toolCallId: id, toolName: 'read_log', content: 'ok' },
    );
  }
  const times = [];
  for (let run = 0; run < 200; run += 1) {
    const started = performance.now();
    await restoreReasoning(messages, { cache, target: modelA, retention: 'tool-episodes' });
    times.push(performance.now() - started);
  }
  times.sort((left, right) => left - right);
  return percentile(times, 0.5);
}

async function cacheRows() {
  const hit = (index) => toolCallKey(modelA, `call_${index}`);
  const miss = (index) => toolCallKey(modelA, `missing_${index}`);
  const memory = new MemoryReplayCache({ maxEntries: ENTRIES * 2 });
  const memoryFill = await fill(memory);
  const memoryRow = {
    store: 'memory',
    set: memoryFill,
    hits: await timeLookups(memory, hit),
    misses: await timeLookups(memory, miss),
    restore: await restoreTime(memory),
  };
  const directory = await mkdtemp(join(tmpdir(), 'episodic-replay-bench-'));
  try {
    const path = join(directory, 'replay.jsonl');
    const file = await FileReplayCache.open({ path, maxEntries: ENTRIES * 2 });
    const fileFill = await fill(file);
    await file.close();
    const size = (await stat(path)).size;
    const started = performance.now();
    const reopened = await FileReplayCache.open({ path, maxEntries: ENTRIES * 2 });
    const reopen = performance.now() - started;
    const fileRow = {
      store: 'file (JSONL log)',
      set: fileFill,
      hits: await timeLookups(reopened, hit),
      misses: await timeLookups(reopened, miss),
      restore: await restoreTime(reopened),
    };
    await reopened.close();
    return { rows: [memoryRow, fileRow], reopen, size };
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

const us = (value) => `${value.toFixed(1)} µs`;

/** Runs both measurements and returns a markdown section. */
export default async function run() {
  const handoff = await handoffRows();
  const cache = await cacheRows();
  const handoffTable = handoff.rows
    .map(
      (row) =>
        `| ${row.traces} | ${row.chars.toLocaleString('en-US')} | ${row.traceTokens.toLocaleString('en-US')} | ${row.tokens.toLocaleString('en-US')} | ${row.cold.toFixed(2)} ms | ${row.warm.toFixed(3)} ms |`,
    )
    .join('\n');
  const cacheTable = cache.rows
    .map(
      (row) =>
        `| ${row.store} | ${us(row.hits.median)} | ${us(row.hits.p99)} | ${us(row.misses.median)} | ${us(row.misses.p99)} | ${us(row.set.median)} | ${us(row.set.p99)} | ${row.restore.toFixed(2)} ms |`,
    )
    .join('\n');
  const markdown = `## Reasoning toolkit

Node ${process.version}, ${availableParallelism()} cores.

### Cross-model hand-off

Model A (${modelA.provider}/${modelA.id}) ran six tool steps of one episode with traces of ${TRACE_TOKENS.join(', ')} tokens
(generated prose); model B (${modelB.provider}/${modelB.id}) continues the episode with hand-off on
(\`maxTokens\` 8,000 so that only N bounds it). "Added tokens" is the \`reasoning-handoff\` event's count: the tokens the
note adds to B's system prompt (o200k_base, counted joined to the prompt), taken from the packer's budget for each call
of the episode while A's traces are in it; the difference to the traces' own tokens is the frame. Later episodes get
the plain system prompt back. Build time: the first call counts the traces and the note with tiktoken; later calls of
the episode reuse those counts.

| last N traces | note characters | traces' own tokens | added tokens per call | build, first call (median) | build, later calls (median) |
| --- | --- | --- | --- | --- | --- |
${handoffTable}

With the defaults (3 traces, 2,000 tokens) the note holds ${handoff.defaults.traces} trace(s); ${handoff.defaults.skipped} newer-than-budget trace(s) are reported as skipped.

### Replay cache

${ENTRIES.toLocaleString('en-US')} entries (one per tool call, a 120-token trace each), then ${LOOKUPS.toLocaleString('en-US')} lookups of random keys
(\`await cache.get(key)\`, each timed alone). Set = one \`set\` of one entry while filling; for the file store that
is one append to the log (no fsync, the default). Restore = \`restoreReasoning\` over a 100-message history with 50
tool-call messages, all in the cache.

| store | hit median | hit p99 | miss median | miss p99 | set median | set p99 | restore 100 messages |
| --- | --- | --- | --- | --- | --- | --- | --- |
${cacheTable}

File store: the log of ${ENTRIES.toLocaleString('en-US')} entries is ${(cache.size / 1024 / 1024).toFixed(1)} MB and reopens (read and index every line) in ${cache.reopen.toFixed(0)} ms. Lookups never touch the disk.
`;
  await mkdir(new URL('./results/', import.meta.url), { recursive: true });
  await writeFile(new URL('./results/reasoning.md', import.meta.url), markdown);
  return markdown;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.stdout.write(await run());
}
