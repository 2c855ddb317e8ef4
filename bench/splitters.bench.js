/**
 * Throughput of the streaming reasoning splitters (`createTagSplitter`,
 * `createHarmonyParser`) on a deterministic ~5 MB stream, cut into chunks of random
 * size 1..64 characters (seeded), and into fixed 1- and 64-character chunks.
 *
 * `bench/run.js` imports the default export; `node bench/splitters.bench.js` runs it
 * alone, prints the markdown and writes bench/results/splitters.md. Uses the built
 * `@episodic/core` (run `npx tsc -b packages/core` first).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createHarmonyParser, createTagSplitter } from '@episodic/core/reasoning';

const STREAM_BYTES = 5_000_000;
const RUNS = 5;
const SEED = 20_251_122;

/** mulberry32: small, seeded, good enough to make streams and cuts reproducible. */
function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const WORDS = (
  'the ci run failed because a fixture file is missing so we check the loader and the path ' +
  'if a < b then return x > y else <b>bold</b> retry with <thinker> tag a <- b 2 << 3 <|not a token|>'
).split(' ');

function sentence(next, words) {
  const parts = [];
  for (let index = 0; index < words; index += 1) parts.push(WORDS[Math.floor(next() * WORDS.length)]);
  return `${parts.join(' ')}. `;
}

/** Visible text with `<think>`-style reasoning blocks (several tag names and cases) in between. */
function tagStream(next) {
  const tags = ['think', 'thinking', 'reasoning', 'thought', 'analysis', 'THINK'];
  const parts = [];
  let length = 0;
  while (length < STREAM_BYTES) {
    const tag = tags[Math.floor(next() * tags.length)];
    const part = `${sentence(next, 40)}<${tag}>${sentence(next, 120)}</${tag}>\n`;
    parts.push(part);
    length += part.length;
  }
  return parts.join('').slice(0, STREAM_BYTES);
}

/** Harmony output: analysis, tool calls on commentary, preambles and final answers. */
function harmonyStream(next) {
  const parts = [];
  let length = 0;
  while (length < STREAM_BYTES) {
    const roll = next();
    const part =
      roll < 0.5
        ? `<|start|>assistant<|channel|>analysis<|message|>${sentence(next, 120)}<|end|>`
        : roll < 0.75
          ? `<|start|>assistant<|channel|>commentary to=functions.get_ci_log <|constrain|>json<|message|>{"run":${Math.floor(next() * 1000)}}<|call|>`
          : `<|start|>assistant<|channel|>final<|message|>${sentence(next, 60)}<|return|>`;
    parts.push(part);
    length += part.length;
  }
  return parts.join('').slice(0, STREAM_BYTES);
}

function cutRandom(text, next, smallest, largest) {
  const chunks = [];
  for (let from = 0; from < text.length;) {
    const size = smallest + Math.floor(next() * (largest - smallest + 1));
    chunks.push(text.slice(from, from + size));
    from += size;
  }
  return chunks;
}

/** Runs the splitter over the chunks; returns characters out, so the work cannot be optimised away. */
function consume(splitter, chunks) {
  let characters = 0;
  for (const chunk of chunks) for (const piece of splitter.push(chunk)) characters += piece.text.length;
  for (const piece of splitter.end()) characters += piece.text.length;
  return characters;
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/**
 * Wall-clock and CPU-time throughput. CPU time (user + system of this process) is
 * reported too because the benchmark machine may be shared: it is steadier.
 */
function measure(create, chunks, bytes) {
  const expected = consume(create(), chunks); // warm-up, and the output size every run must match
  const wall = [];
  const cpu = [];
  // No forced gc() between runs: a full collection shrinks V8's young generation, and
  // the next run would then measure heap regrowth rather than the splitter.
  for (let run = 0; run < RUNS; run += 1) {
    const cpuStarted = process.cpuUsage();
    const started = performance.now();
    const characters = consume(create(), chunks);
    const seconds = (performance.now() - started) / 1000;
    const used = process.cpuUsage(cpuStarted);
    if (characters !== expected) throw new Error(`splitter output changed between runs: ${characters} vs ${expected}`);
    wall.push(bytes / 1e6 / seconds);
    cpu.push(bytes / 1e6 / ((used.user + used.system) / 1e6));
  }
  return { wall: median(wall), min: Math.min(...wall), max: Math.max(...wall), cpu: median(cpu) };
}

/** Runs the benchmark and returns a markdown section. */
export default async function run() {
  const load = loadavg()[0];
  const next = random(SEED);
  const streams = [
    { name: 'tag splitter', text: tagStream(next), create: () => createTagSplitter() },
    { name: 'Harmony parser', text: harmonyStream(next), create: () => createHarmonyParser() },
  ];
  const rows = [];
  for (const stream of streams) {
    const bytes = Buffer.byteLength(stream.text);
    // Chunks are made per measurement so only one chunk array is alive (and scanned by the GC) at a time.
    const cuts = [
      { name: 'random 1..64', make: () => cutRandom(stream.text, random(SEED + 1), 1, 64) },
      { name: 'fixed 1', make: () => cutRandom(stream.text, random(SEED), 1, 1) },
      { name: 'fixed 64', make: () => cutRandom(stream.text, random(SEED), 64, 64) },
    ];
    for (const cut of cuts) {
      const chunks = cut.make();
      const result = measure(stream.create, chunks, bytes);
      rows.push(
        `| ${stream.name} | ${cut.name} | ${chunks.length.toLocaleString('en-US')} | ` +
          `${result.wall.toFixed(1)} | ${result.min.toFixed(1)} to ${result.max.toFixed(1)} | ${result.cpu.toFixed(1)} |`,
      );
    }
  }
  return [
    '## Streaming reasoning splitters',
    '',
    `Stream: ${(STREAM_BYTES / 1e6).toFixed(0)} MB (ASCII) per splitter, seeded (${SEED}); MB = 10^6 bytes.`,
    `Throughput is the median of ${RUNS} runs after a warm-up; every run must produce the same output.`,
    'The CPU-time column divides by the CPU time the process used, which a busy machine disturbs less.',
    `Node ${process.version}, ${process.platform}/${process.arch}, ${availableParallelism()} cores, ` +
      `1-minute load average ${load.toFixed(1)} at the start (a busy machine lowers the wall-clock figures).`,
    '',
    '| splitter | chunk size (chars) | chunks | MB/s (median) | MB/s (range) | MB/s of CPU time (median) |',
    '| --- | --- | ---: | ---: | ---: | ---: |',
    ...rows,
    '',
  ].join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const markdown = await run();
  process.stdout.write(`${markdown}\n`);
  const target = join(dirname(fileURLToPath(import.meta.url)), 'results', 'splitters.md');
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, `${markdown}\n`);
}
