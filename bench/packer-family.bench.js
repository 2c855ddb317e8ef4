/**
 * Packing on a family of sessions (issue 26, item 2): the packer's defaults must
 * hold on sessions of other shapes than the packer bench's one. 24 generated
 * sessions (tool output tiny / mixed / huge, episodes of 1-3 / 2-12 / 10-60 /
 * 100-200 steps, reasoning heavy or none) and the real sessions beside the clone
 * (../shared/fixtures/sessions, or $EPISODIC_SHARED_FIXTURES/sessions, read with the
 * CLI's importers) are replayed call by call at 16k, 64k and 200k through Episodic
 * (the current defaults and the settings in CANDIDATES) and the naive window.
 *
 * Per session and budget: mean prefix reuse, and cost against the naive window,
 * with a cached provider (cached input at a tenth of the price, from 1,024 tokens)
 * and an uncached one (every input token at full price: cost is tokens sent).
 * Reported as median and worst over the family.
 *
 *   node --expose-gc bench/packer-family.bench.js   (or `npm run bench -- packer-family`)
 *
 * Needs the built packages (`npx tsc -b`). `FAMILY_QUICK=1` runs a third of the sessions.
 */
import { existsSync } from 'node:fs';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { availableParallelism, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { createTokenCounter } from '@episodic/core';
import { packingForProfile } from '@episodic/core/packing';
import { resolveProfile } from '@episodic/providers';
import { importSession } from '../packages/cli/dist/import/import-session.js';
import { BENCH_SYSTEM, BENCH_TOOLS } from './agent-prompt.js';
import { createRecorder, PRICE, reasoningEpisodes } from './metrics.js';
import { generateSession, range } from './session-generator.js';
import * as episodic from './strategies/episodic.js';
import * as naive from './strategies/naive.js';

const BUDGETS = [16_000, 64_000, 200_000];

/** A 5-minute cache (Anthropic's default TTL), for the TTL-aware eviction rows. */
const FIVE_MINUTES = 300_000;

/** The tool-result caps before they were chosen on this family: 0.5% of the budget past, 3% current (at most 2,000). */
const previousCaps = (budget) => {
  const toolResultCap = Math.max(64, Math.min(2000, Math.floor(budget * 0.005)));
  return { toolResultCap, currentToolResultCap: Math.max(toolResultCap, Math.min(2000, Math.floor(budget * 0.03))) };
};

/** The defaults before issue 38: one cap for past and current episodes, 1% of the budget, 512 to 900 tokens. */
const previousDefaults = (budget) => {
  const cap = Math.max(64, Math.min(512, Math.floor(budget * 0.04)), Math.min(900, Math.floor(budget * 0.01)));
  return { toolResultCap: cap, currentToolResultCap: cap };
};

/** The gpt-5 profile's priced boundary drop (opt-in: `pack.reasoningBoundary`). */
const DEFERRED = packingForProfile(resolveProfile('openai', 'gpt-5')).reasoningBoundary;

/**
 * The packer settings compared: the defaults (what an agent takes from the gpt-5 profile:
 * its cache lifetime; past reasoning dropped at the boundary), the previous tool-result
 * caps, the priced boundary drop (opt-in), and, on the real sessions (they record the
 * time of each call), a 5-minute cache with and without TTL-aware eviction.
 */
const CANDIDATES = [
  { name: 'defaults', pack: {} },
  { name: 'previous defaults (one cap: 1%, 512 to 900)', pack: previousDefaults },
  { name: 'first caps (0.5% past, 3% current)', pack: previousCaps },
  { name: 'defaults + boundary drop deferred (opt-in)', pack: { reasoningBoundary: DEFERRED } },
  { name: '5-min cache, TTL-aware', pack: { cacheTtlMs: FIVE_MINUTES }, costTtlMs: FIVE_MINUTES, realOnly: true },
  { name: '5-min cache, not TTL-aware', pack: { cacheTtlMs: undefined }, costTtlMs: FIVE_MINUTES, realOnly: true },
];

/**
 * The generated shapes the defaults were tuned on (bench/packer-family-tune.js): a checkerboard
 * over tool sizes x episode lengths, both reasoning variants; the other half is held out.
 */
export const inTuneHalf = (shape) => (Math.floor(shape / 8) + Math.floor((shape % 8) / 2)) % 2 === 0;

const TOOL_SIZES = { tiny: range(10, 300), mixed: range(50, 20_000), huge: range(2_000, 30_000) };
const EPISODES = { '1-3': [1, 3], '2-12': [2, 12], '10-60': [10, 60], '100-200': [100, 200] };
const REASONING = { heavy: range(500, 6_000), none: null };
/** About this many messages per generated session: enough to pass 200k many times over. */
const TARGET_MESSAGES = 420;

/** The 24 generated shapes, each with its own seed. */
export function generatedFamily(seedBase = 100) {
  const family = [];
  let seed = seedBase;
  for (const [tools, toolResult] of Object.entries(TOOL_SIZES)) {
    for (const [steps, [minSteps, maxSteps]] of Object.entries(EPISODES)) {
      for (const [reasoningName, reasoning] of Object.entries(REASONING)) {
        seed += 1;
        // Steps of 1 to 3 calls: about 2.7 messages per step.
        const turns = Math.max(1, Math.round(TARGET_MESSAGES / (((minSteps + maxSteps) / 2) * 2.7 + 1)));
        family.push({
          name: `tools ${tools}, ${steps} steps, reasoning ${reasoningName}`,
          shape: family.length,
          make: () => generateSession({ seed, turns, minSteps, maxSteps, sizes: { toolResult, reasoning } }),
        });
      }
    }
  }
  return process.env.FAMILY_QUICK ? family.filter((_, index) => index % 3 === 0) : family;
}

/** The real recorded sessions, imported as the CLI imports them; none when the folder is absent. */
export async function realFamily() {
  const shared = process.env.EPISODIC_SHARED_FIXTURES;
  const root = shared ? join(shared, 'sessions') : resolve(import.meta.dirname, '../../shared/fixtures/sessions');
  if (!existsSync(root)) return [];
  const family = [];
  for (const agent of (await readdir(root)).sort()) {
    for (const file of (await readdir(join(root, agent))).sort()) {
      if (!file.endsWith('.jsonl')) continue;
      family.push({
        name: `real: ${agent}/${file.replace(/\.jsonl$/, '')}`,
        // Lossy: a session recorded incomplete (a result whose call is off the path) replays without what it lacks.
        make: async () => (await importSession(agent, join(root, agent, file), Readable.from(['']), { lossy: true })).messages,
      });
    }
  }
  return process.env.FAMILY_QUICK ? family.filter((_, index) => index % 3 === 0) : family;
}

/** When a recorded message was made (ms), if its session recorded it. */
function timeOf(message) {
  const at = typeof message.timestamp === 'number' ? message.timestamp : Date.parse(message.timestamp ?? '');
  return Number.isFinite(at) ? at : undefined;
}

/**
 * Replays `messages` through one strategy: a pack before every assistant message.
 * Returns true when some call sent less than the whole transcript (for the naive
 * window: the session outgrew the budget, so a packer had a choice to make).
 * `cause(newEpisode)` labels each call for the recorder's breakdown; `afterCall(packed,
 * appended)` sees each call's packed messages and how many were appended since the last.
 */
export function replay(strategy, messages, recorder, { cause, afterCall } = {}) {
  const transcript = [];
  let episode = -1;
  let packedEpisode = -1;
  let currentUser;
  let outgrew = false;
  let appended = 0;
  for (const message of messages) {
    if (message.role === 'assistant' && transcript.length > 0) {
      let packed;
      const now = timeOf(message);
      try {
        packed = strategy.toTranscript(strategy.pack(transcript, now));
      } catch {
        packed = undefined;
      }
      if (!packed || packed.length < transcript.length) outgrew = true;
      const label = cause?.(episode !== packedEpisode);
      packedEpisode = episode;
      const fresh = transcript.slice(transcript.length - appended);
      recorder.record({ packed, currentEpisode: episode, currentUser, packNanoseconds: 0, now, cause: label, fresh });
      afterCall?.(packed, appended);
      appended = 0;
    }
    if (message.role === 'user' && !message.compaction) {
      episode += 1;
      currentUser = message;
    }
    transcript.push(message);
    strategy.onAppend(message);
    appended += 1;
  }
  return outgrew;
}

/** Mean reuse, cost with a cached provider and tokens sent (the uncached provider's cost). */
export function measure(module, options, messages, budget, costTtlMs) {
  const counter = createTokenCounter();
  const recorder = createRecorder({
    counter,
    system: BENCH_SYSTEM,
    tools: BENCH_TOOLS,
    budget,
    episodeOfReasoning: reasoningEpisodes(messages),
    stripsPastReasoning: resolveProfile('openai', 'gpt-5').pastReasoning === 'stripped',
    cacheTtlMs: costTtlMs,
    pack: options.pack,
  });
  const strategy = module.createStrategy({ budget, counter, system: BENCH_SYSTEM, tools: BENCH_TOOLS, ...options });
  const outgrew = replay(strategy, structuredClone(messages), recorder);
  const summary = recorder.summary();
  return {
    outgrew,
    reuse: summary.meanReuse,
    cached: summary.cost,
    uncached: summary.tokensSent * PRICE.inputPerToken,
    threw: summary.threw,
    readPastReasoning: summary.pastReasoningTokens,
  };
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/** Every session at every budget: per candidate, reuse and cost ratios against the naive window. */
async function runFamily(family, real = false) {
  const rows = [];
  for (const member of family) {
    const messages = await member.make();
    for (const budget of BUDGETS) {
      const bases = new Map();
      for (const candidate of CANDIDATES) {
        if (candidate.realOnly && !real) continue;
        const ttl = candidate.costTtlMs;
        if (!bases.has(ttl)) bases.set(ttl, measure(naive, {}, messages, budget, ttl));
        const base = bases.get(ttl);
        const pack = typeof candidate.pack === 'function' ? candidate.pack(budget) : candidate.pack;
        const profile = candidate.profile ? { profile: candidate.profile } : {};
        const result = measure(episodic, { pack, ...profile }, messages, budget, ttl);
        rows.push({
          session: member.name,
          shape: member.shape,
          budget,
          candidate: candidate.name,
          reuse: result.reuse,
          cachedRatio: result.cached / base.cached,
          uncachedRatio: result.uncached / base.uncached,
          threw: result.threw,
          outgrew: base.outgrew,
          readPastReasoning: result.readPastReasoning,
        });
      }
    }
    process.stderr.write(`packer-family: ${member.name} (${messages.length} messages), load ${loadavg()[0].toFixed(1)}\n`);
  }
  return rows;
}

function summaryTable(rows, label, note = '') {
  const lines = [];
  for (const budget of BUDGETS) {
    for (const candidate of CANDIDATES) {
      const group = rows.filter((row) => row.budget === budget && row.candidate === candidate.name);
      if (group.length === 0) continue;
      const worst = (key, pick) => group.reduce((best, row) => (pick(row[key], best[key]) ? row : best));
      const lowReuse = worst('reuse', (a, b) => a < b);
      const highCost = worst('cachedRatio', (a, b) => a > b);
      lines.push(
        `| ${budget / 1000}k | ${candidate.name} | ${group.length} | ${median(group.map((row) => row.reuse)).toFixed(3)} | ${lowReuse.reuse.toFixed(3)} (${lowReuse.session}) | ` +
          `${median(group.map((row) => row.cachedRatio)).toFixed(3)}x | ${highCost.cachedRatio.toFixed(3)}x (${highCost.session}) | ` +
          `${median(group.map((row) => row.uncachedRatio)).toFixed(3)}x | ${Math.max(...group.map((row) => row.uncachedRatio)).toFixed(3)}x | ` +
          `${group.reduce((sum, row) => sum + row.threw, 0)} | ${group.reduce((sum, row) => sum + row.readPastReasoning, 0)} |`,
      );
    }
  }
  return `### ${label}
${note}
| budget | settings | sessions | median reuse | worst reuse (session) | median cost vs naive, cached | worst (session) | median cost vs naive, uncached | worst | failed packs | stale reasoning read (tokens) |
| --- | --- | ---: | --- | --- | --- | --- | --- | --- | --- | --- |
${lines.join('\n')}`;
}

/** The tables: generated, held out while tuning, real (all and those that outgrew the budget), everything. */
function sections(generated, real) {
  const count = (rows) => new Set(rows.map((row) => row.session)).size;
  const heldOut = generated.filter((row) => !inTuneHalf(row.shape));
  const out = [
    summaryTable(generated, `Generated sessions (${count(generated)})`),
    summaryTable(heldOut, `Generated sessions of the shapes held out while tuning (${count(heldOut)})`,
      '\nThe caps were compared on every generated shape with other seeds (bench/packer-family-tune.js all),\n' +
        'reads of cut results modelled: see the CHANGELOG entry of issue 38 for the candidates.\n'),
  ];
  if (real.length > 0) {
    const outgrew = real.filter((row) => row.outgrew);
    out.push(
      summaryTable(real, `Real sessions (${count(real)})`,
        '\nA session that never outgrows the budget is sent whole by both packers: its cost ratio is about 1.0 by construction.\n'),
      summaryTable(outgrew, 'Real sessions that outgrew the budget (packing had a choice)',
        '\nOnly the sessions whose transcript passed the budget at some call (the naive window left something out).\n'),
    );
  }
  out.push(summaryTable([...generated, ...real], `Generated and real sessions (${count([...generated, ...real])})`));
  return out;
}

/** Runs the family and returns a markdown section. */
export default async function run() {
  const started = Date.now();
  const loads = [loadavg()[0]];
  const generated = await runFamily(generatedFamily());
  loads.push(loadavg()[0]);
  const real = await runFamily(await realFamily(), true);
  loads.push(loadavg()[0]);
  const markdown = `## Packing on a family of sessions

Each session replayed call by call (a pack before every assistant message) through Episodic and the naive
window (newest whole messages that fit); reuse is the mean share of each call's input that repeats the
previous call's prefix; cost is against the naive window on the same session and budget, with cached input
at ${PRICE.cachedShare}x the price from 1,024 tokens ("cached") or every token at full price ("uncached").
Generated: tool output tiny (10-300 tokens) / mixed (50-20,000) / huge (2,000-30,000), episodes of 1-3 / 2-12 /
10-60 / 100-200 steps, reasoning heavy (500-6,000 tokens a step) or none, about ${TARGET_MESSAGES} messages each.
Real: the recorded sessions beside the clone, imported with the CLI's importers.
Settings: "defaults" is what an agent on gpt-5 packs with (the profile's cache lifetime, past reasoning
dropped at the boundary, current-episode tool results capped at a quarter of the budget, at most 25,000
tokens, past episodes' at 1% of the budget, 512 to 900 tokens, low-water mark 0.5, a head kept at evictions
and at cuts of an overlong current episode; a cut result names the reader tool that gives the rest);
"previous defaults" the caps before issue 38 (one cap of 1% of the budget, 512 to 900 tokens, for past and
current episodes); "first caps" the caps before this family chose any (0.5% past, 3% current, at most
2,000); "boundary drop deferred" the opt-in priced boundary drop (\`pack.reasoningBoundary\`, gpt-5 profile).
Reads of cut results are modelled (\`modelledReads\`, @episodic/core/internal): a result the model first
sees cut is read back whole with the reader, one more call per slice of at most the past-episode cap
(at the smallest budget a call may repack to), each sending the call's input again (a cached prefix) plus
the slice; the reads count as calls, in tokens and in cost. They are not added to the transcript the replay
goes on with.
Prices are gpt-5's. OpenAI removes reasoning of earlier user turns before the model reads it, does not bill
it, and its prompt cache works on what is left: such reasoning is counted neither as sent nor as cached
prefix, for every strategy (the naive window sends it, counts it against its budget, and is billed for
what OpenAI keeps; a deferred boundary drop keeps bytes OpenAI removes anyway: it buys no reuse on gpt-5,
and the bytes it keeps take budget, so it evicts sooner). Until this round the
bench billed that reasoning, which made the naive window look dearer: the previous defaults measured 0.125x
at 200k that way, 0.173x this way. The naive window counts that reasoning against its budget and then has
it removed, so it sends less than its budget: uncached, Episodic (which fills its budget with what the model
reads) can cost more than it. "Stale reasoning read" counts only what the model would read.
The 5-minute rows (real sessions, which record each call's time): a call more than
5 minutes after the previous one reads nothing from the cache, for Episodic and for the naive window alike.
Node ${process.version}, ${availableParallelism()} cores, load average ${loads.map((load) => load.toFixed(1)).join(' / ')}
(start / after generated / end), ${((Date.now() - started) / 1000).toFixed(0)} s.${process.env.FAMILY_QUICK ? '\nQuick run (FAMILY_QUICK): every third generated and real session only.' : ''}

${sections(generated, real).join('\n\n')}
`;
  await mkdir(new URL('./results/', import.meta.url), { recursive: true });
  await writeFile(new URL('./results/packer-family.md', import.meta.url), markdown);
  return markdown;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.stdout.write(await run());
}
