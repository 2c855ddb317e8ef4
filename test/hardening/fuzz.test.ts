/**
 * Fuzz test of the transcript readers and the `episodic` command line: a few hundred
 * seeded mutations of a real-shaped transcript go through `readTranscript`, the file
 * store (load, append, load again) and `episodic pack`, `episodes` and `repair`; a few
 * hundred seeded command lines mix valid and broken flags, values and files. Every
 * case must end in success or a typed error of one line (a usage error adds the
 * usage), never a crash, a hang or a stack trace; a repaired file must then load. The
 * outcome counts are printed. Seeded, so a failure names a case that replays.
 */
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { EpisodicError, type Message } from '@episodic/core';
import { FileSessionStore, readTranscript } from '@episodic/core/node';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../packages/cli/src/testing/cli-harness.js';
import { baseTranscript, commandLine, mutatedTranscript } from './fuzz-inputs.js';

const SEED = 18;
const TRANSCRIPT_CASES = 250;
const COMMAND_CASES = 300;
/** A case that takes longer than this is a hang. */
const CASE_DEADLINE_MS = 20_000;

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'episodic-fuzz-'));
});
afterAll(() => rm(root, { recursive: true, force: true }));

type Counts = Record<string, number>;
const count = (counts: Counts, key: string) => {
  counts[key] = (counts[key] ?? 0) + 1;
};

/** Runs `work` under the case deadline; a rejection that is not typed, or a hang, is a failure. */
async function outcome(work: () => Promise<unknown>): Promise<{ ok: true } | { ok: false; error: unknown }> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`hang: no result within ${CASE_DEADLINE_MS} ms`)), CASE_DEADLINE_MS);
  });
  try {
    await Promise.race([work(), deadline]);
    return { ok: true };
  } catch (error) {
    return { ok: false, error };
  } finally {
    clearTimeout(timer);
  }
}

/** The problem with a thrown error, or undefined when it is a typed one-line error. */
function untyped(error: unknown): string | undefined {
  if (!EpisodicError.isInstance(error)) return `untyped ${(error as Error)?.name}: ${(error as Error)?.message}`;
  if (error.message.includes('\n')) return `a multi-line message: ${error.message.slice(0, 200)}`;
  return undefined;
}

/** The problem with a CLI run's exit and stderr, or undefined when it ended as it should. */
function badExit(result: { code: number; stderr: string }): string | undefined {
  if (/unexpected error|^\s+at |\bFATAL\b/m.test(result.stderr)) return `crash output: ${result.stderr.slice(0, 300)}`;
  if (result.code === 0) return undefined;
  // As a terminal shows it: a progress bar redrawn after carriage returns, then erased.
  const shown = result.stderr
    .split('\n')
    .map((line) => line.slice(line.lastIndexOf('\r') + 1).replaceAll('\u001b[2K', ''))
    .join('\n');
  const lines = shown.trimEnd().split('\n');
  if (!lines[0]?.startsWith('episodic: ')) return `exit ${result.code} without an episodic: line: ${result.stderr.slice(0, 200)}`;
  if (result.code === 1 && lines.length !== 1) return `exit 1 with ${lines.length} lines: ${result.stderr.slice(0, 300)}`;
  if (result.code === 2 && !result.stderr.includes('Usage:')) return `exit 2 without the usage: ${result.stderr}`;
  if (result.code !== 1 && result.code !== 2) return `exit code ${result.code}`;
  return undefined;
}

async function checkStore(directory: string, bytes: Buffer, counts: Counts): Promise<string | undefined> {
  await mkdir(join(directory, 'store'));
  await writeFile(join(directory, 'store', 's.jsonl'), bytes);
  const store = new FileSessionStore({ directory: join(directory, 'store'), sync: false });
  let loaded: Message[] | undefined;
  const load = await outcome(async () => {
    loaded = (await store.load('s'))?.messages;
  });
  if (!load.ok) {
    count(counts, `store: refused (${(load.error as EpisodicError).code})`);
    return untyped(load.error);
  }
  count(counts, 'store: loaded');
  // What loaded is the session: one more message must append after it and load back with it.
  const next: Message = { role: 'user', content: 'one more' };
  await store.append('s', [next]);
  const again = await store.load('s');
  if (JSON.stringify(again?.messages) !== JSON.stringify([...(loaded ?? []), next])) {
    return 'an append after a successful load did not load back as the same messages plus the new one';
  }
  return undefined;
}

async function transcriptCase(index: number, bytes: Buffer, counts: Counts): Promise<string[]> {
  const problems: string[] = [];
  const directory = join(root, `t${index}`);
  await mkdir(directory);
  const file = join(directory, 'session.jsonl');
  await writeFile(file, bytes);

  const read = await outcome(() => readTranscript(Readable.from([bytes]), { file: 'fuzz.jsonl' }));
  count(counts, read.ok ? 'reader: accepted' : `reader: refused (${(read.error as EpisodicError).code})`);
  if (!read.ok) problems.push(untyped(read.error) ?? '');

  const stored = await outcome(async () => problems.push((await checkStore(directory, bytes, counts)) ?? ''));
  if (!stored.ok) problems.push(`store: ${untyped(stored.error) ?? 'a typed error from append'}`);

  for (const argv of [['pack', file, '--budget', '16k'], ['episodes', file, '--json']]) {
    const run = await outcome(async () => {
      const result = await runCli(argv);
      count(counts, `${argv[0]}: exit ${result.code}`);
      problems.push(badExit(result) ?? '');
    });
    if (!run.ok) problems.push(`${argv[0]}: ${(run.error as Error).message}`);
  }

  const repaired = join(directory, 'repaired.jsonl');
  await copyFile(file, repaired);
  const repair = await outcome(async () => {
    const result = await runCli(['repair', repaired]);
    count(counts, `repair: exit ${result.code}`);
    if (result.code !== 0) problems.push(`repair exit ${result.code}: ${result.stderr}`);
    await readTranscript(repaired);
  });
  if (!repair.ok) problems.push(`a repaired file does not load: ${(repair.error as Error).message}`);
  await rm(directory, { recursive: true, force: true });
  return problems.filter((problem) => problem !== '');
}

/** Files for one command line, by placeholder name. */
async function commandFiles(directory: string, mutated: Buffer): Promise<Record<string, string>> {
  const write = async (name: string, text: string | Buffer) => {
    await writeFile(join(directory, name), text);
    return join(directory, name);
  };
  const price = { pattern: 'claude-.*', input: 3, cachedInput: 0.3, output: 15 };
  return {
    good: await write('good.jsonl', baseTranscript),
    mutated: await write('mutated.jsonl', mutated),
    missing: join(directory, 'missing.jsonl'),
    directory,
    empty: await write('empty.jsonl', ''),
    'dev-zero': '/dev/zero',
    stdin: '-',
    'pricing-good': await write('pricing.json', JSON.stringify({ models: [price] })),
    'pricing-bad-json': await write('pricing-bad.json', '{"models":['),
    'pricing-bad-field': await write('pricing-field.json', JSON.stringify({ models: [{ ...price, input: 'cheap' }] })),
    'pricing-evil': await write('pricing-evil.json', JSON.stringify({ models: [{ ...price, pattern: '(.*a){12}$' }] })),
    tools: await write('tools.json', JSON.stringify([{ name: 'get_ci_log', description: 'Log.', inputSchema: {} }])),
    report: join(directory, 'report.html'),
  };
}

describe('fuzz: transcripts and command lines', () => {
  it(`${TRANSCRIPT_CASES} mutated transcripts: reader, store, pack, episodes and repair end in success or a typed error`, async () => {
    const cases = fc.sample(mutatedTranscript, { seed: SEED, numRuns: TRANSCRIPT_CASES });
    const counts: Counts = {};
    const failures: string[] = [];
    for (const [index, sample] of cases.entries()) {
      for (const problem of await transcriptCase(index, sample.bytes, counts)) {
        failures.push(`case ${index} (seed ${SEED}, ${JSON.stringify(sample.mutations).slice(0, 300)}): ${problem}`);
      }
    }
    console.log(`fuzz transcripts (seed ${SEED}, ${cases.length} cases):`, JSON.stringify(sortedCounts(counts)));
    expect(failures).toEqual([]);
  }, 300_000);

  it(`${COMMAND_CASES} command lines end in success or a typed one-line error`, async () => {
    const lines = fc.sample(commandLine, { seed: SEED, numRuns: COMMAND_CASES });
    const inputs = fc.sample(mutatedTranscript, { seed: SEED + 1, numRuns: COMMAND_CASES });
    const counts: Counts = {};
    const failures: string[] = [];
    for (const [index, line] of lines.entries()) {
      const directory = join(root, `c${index}`);
      await mkdir(directory);
      const files = await commandFiles(directory, inputs[index]!.bytes);
      const argv = line.map((argument) => argument.replace(/@([a-z-]+)/g, (_match, name: string) => files[name] ?? name));
      const stdin = index % 2 === 0 ? baseTranscript : inputs[index]!.bytes.toString('latin1');
      const run = await outcome(async () => {
        const result = await runCli(argv, { stdin });
        count(counts, `exit ${result.code}`);
        const problem = badExit(result);
        if (problem) failures.push(`case ${index} (seed ${SEED}) ${JSON.stringify(line)}: ${problem}`);
      });
      if (!run.ok) failures.push(`case ${index} (seed ${SEED}) ${JSON.stringify(line)}: ${(run.error as Error).message}`);
      await rm(directory, { recursive: true, force: true });
    }
    console.log(`fuzz command lines (seed ${SEED}, ${lines.length} cases):`, JSON.stringify(sortedCounts(counts)));
    expect(failures).toEqual([]);
  }, 300_000);
});

function sortedCounts(counts: Counts): Counts {
  return Object.fromEntries(Object.entries(counts).sort(([a], [b]) => a.localeCompare(b)));
}
