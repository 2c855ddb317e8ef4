/**
 * Hostile text (issue 17, item 2): counting a megabyte of one character and a
 * megabyte of random base64, at three sizes to show how the time grows, and packing
 * cold at a 64k budget a session whose newest tool result is such a string. Each
 * measurement runs in a child process, since tiktoken's WASM build could crash on
 * such input (and a crashed instance is not reused).
 *
 *   node bench/hostile-text.js count <kind> <bytes>   prints { ms, tokens } or { error }
 *   node bench/hostile-text.js pack <kind>            prints { ms, tokens } or { error }
 */
import { execFile } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createTokenCounter } from '@episodic/core';
import { packContext } from '@episodic/core/packing';
import { BENCH_SYSTEM, BENCH_TOOLS } from './agent-prompt.js';
import { percentile } from './metrics.js';
import { generateSession, mulberry32 } from './session-generator.js';

export const KINDS = ['one character', 'random base64'];
const SIZES = [256 * 1024, 512 * 1024, 1024 * 1024];
const REPEATS = 3;

/** A string of `bytes` bytes: one character repeated, or seeded random base64. */
export function hostileText(kind, bytes) {
  if (kind === 'one character') return 'a'.repeat(bytes);
  const random = mulberry32(17);
  const data = Buffer.alloc(Math.ceil((bytes * 3) / 4));
  for (let index = 0; index < data.length; index += 1) data[index] = Math.floor(random() * 256);
  return data.toString('base64').slice(0, bytes);
}

/** The first ten episodes of the bench session, then one whose tool result is the hostile text. */
function hostileSession(kind) {
  const messages = [];
  let users = 0;
  for (const message of generateSession({ seed: 1, turns: 11 })) {
    if (message.role === 'user' && (users += 1) > 10) break;
    messages.push(message);
  }
  const call = { type: 'tool-call', id: 'call_dump', name: 'read_file', args: { path: 'dist/bundle.min.js' } };
  messages.push(
    { role: 'user', content: 'The bundle is broken, look at it.' },
    { role: 'assistant', content: [{ type: 'reasoning', text: 'Read the bundle.' }, call] },
    { role: 'tool', toolCallId: call.id, toolName: call.name, content: hostileText(kind, 1024 * 1024) },
  );
  return messages;
}

function timed(run) {
  const start = process.hrtime.bigint();
  const tokens = run();
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, tokens };
}

/** Runs one measurement in this process (the child side). */
function measureHere([mode, kind, bytes]) {
  const counter = createTokenCounter();
  counter.countText('warm up the encoder');
  if (mode === 'count') {
    const text = hostileText(kind, Number(bytes));
    return timed(() => counter.countText(text));
  }
  const messages = hostileSession(kind);
  const options = { messages, system: BENCH_SYSTEM, tools: BENCH_TOOLS, budget: 64_000, tokenizer: counter };
  return timed(() => packContext(options).stats.tokens.total);
}

const self = fileURLToPath(import.meta.url);

function inChild(args) {
  return new Promise((resolve) => {
    execFile(process.execPath, [self, ...args], { maxBuffer: 1 << 20, timeout: 600_000 }, (error, stdout, stderr) => {
      const line = stdout.trim().split('\n').at(-1);
      if (!error && line) resolve(JSON.parse(line));
      else resolve({ error: (stderr.match(/^\w*Error: .*$/m)?.[0] ?? error?.message ?? 'no output').slice(0, 120) });
    });
  });
}

async function median(args) {
  const runs = [];
  for (let repeat = 0; repeat < REPEATS; repeat += 1) {
    const result = await inChild(args);
    if (result.error) return result;
    runs.push(result);
  }
  const sorted = runs.map((run) => run.ms).sort((a, b) => a - b);
  return { ms: percentile(sorted, 0.5), tokens: runs[0].tokens };
}

/** Measures every case; returns the markdown section. */
export async function measureHostileText() {
  const rows = [];
  for (const kind of KINDS) {
    const counts = [];
    for (const bytes of SIZES) counts.push({ bytes, ...(await median(['count', kind, String(bytes)])) });
    rows.push({ kind, counts, pack: await median(['pack', kind]) });
  }
  return formatHostileText(rows);
}

const cell = (result) => (result.error ? `error: ${result.error}` : `${result.ms.toFixed(0)} ms`);

function formatHostileText(rows) {
  const lines = [
    '### Hostile text',
    '',
    `Counting strings of one character and of random base64 with \`createTokenCounter().countText\`, and packing cold at a`,
    '64,000 budget the first ten episodes of the bench session followed by one whose newest tool result is a 1 MB string',
    `of that kind (new counter, no state). Each cell is the median of ${REPEATS} runs, each in its own process.`,
    '',
    '| Text | Count 256 KB | Count 512 KB | Count 1 MB | 1 MB tokens | ms per MB (1 MB / 256 KB) | Pack at 64k, cold |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const { kind, counts, pack } of rows) {
    const [small, , large] = counts;
    const growth =
      small.error || large.error ? 'n/a' : `${(large.ms / small.ms / 4).toFixed(2)} (1.00 = linear)`;
    const tokens = large.error ? 'n/a' : large.tokens.toLocaleString('en-US');
    lines.push(`| ${kind} | ${counts.map(cell).join(' | ')} | ${tokens} | ${growth} | ${cell(pack)} |`);
  }
  return lines.join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  if (process.argv.length > 2) process.stdout.write(`${JSON.stringify(measureHere(process.argv.slice(2)))}\n`);
  else process.stdout.write(`${await measureHostileText()}\n`);
}
