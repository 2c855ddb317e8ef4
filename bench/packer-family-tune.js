/**
 * Tuning aid for the packer's defaults on the session family (not a bench: run by hand).
 * Tunes on half of the generated shapes (a checkerboard over tool sizes x episode lengths,
 * both reasoning variants) with other seeds than the bench's, and checks on the other half
 * and on the real sessions, so a default is not fitted to the sessions it is reported on.
 *
 *   node bench/packer-family-tune.js [tune|check|real|all] [budgets, e.g. 200000,64000]
 *
 * Candidates are read from PACK_CANDIDATES (a JSON array of { name, pack, profile? }).
 * Prints per budget and candidate: median and worst reuse and cached cost against the naive
 * window, and the mean reuse lost per call by cause (first call, episode boundary, eviction,
 * current episode shortened, plain step).
 */
import { createTokenCounter } from '@episodic/core';
import { resolveProfile } from '@episodic/providers';
import { BENCH_SYSTEM, BENCH_TOOLS } from './agent-prompt.js';
import { createRecorder, READ_CAUSE, reasoningEpisodes } from './metrics.js';
import { generatedFamily, inTuneHalf, measure, realFamily, replay } from './packer-family.bench.js';
import * as episodic from './strategies/episodic.js';
import * as naive from './strategies/naive.js';

const [which = 'tune', budgetList = '16000,64000,200000'] = process.argv.slice(2);
const budgets = budgetList.split(',').map(Number);
const candidates = JSON.parse(process.env.PACK_CANDIDATES ?? '[{"name":"defaults","pack":{}}]');

async function family() {
  if (which === 'real') return realFamily();
  if (which === 'tune') return generatedFamily(500).filter((member) => inTuneHalf(member.shape));
  if (which === 'check') return generatedFamily(100).filter((member) => !inTuneHalf(member.shape));
  return generatedFamily(100);
}

/** Reuse lost per call by cause, for one Episodic replay. */
function causes(options, messages, budget) {
  const counter = createTokenCounter();
  const recorder = createRecorder({
    counter, system: BENCH_SYSTEM, tools: BENCH_TOOLS, budget,
    episodeOfReasoning: reasoningEpisodes(messages), stripsPastReasoning: resolveProfile('openai', 'gpt-5').pastReasoning === 'stripped', pack: options.pack,
  });
  const strategy = episodic.createStrategy({ budget, counter, system: BENCH_SYSTEM, tools: BENCH_TOOLS, ...options });
  const bound = [];
  replay(strategy, structuredClone(messages), recorder, {
    cause: (newEpisode) => strategy.lastEvent() ?? (newEpisode ? 'boundary' : 'step'),
    // No packer can reuse what was appended since the previous call: the last `appended` messages.
    afterCall(packed, appended) {
      const calls = recorder.perCall().filter((call) => call.cause !== READ_CAUSE);
      const call = calls[calls.length - 1];
      let fresh = 0;
      if (packed) for (const added of packed.slice(-appended)) fresh += counter.countMessage(added);
      bound.push(calls.length === 1 || !packed ? 0 : 1 - fresh / call.tokens);
    },
  });
  const byCause = recorder.summary().byCause;
  byCause.bound = bound.reduce((sum, value) => sum + value, 0) / bound.length;
  return byCause;
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

const members = await family();
const sessions = [];
for (const member of members) sessions.push({ name: member.name, messages: await member.make() });
for (const budget of budgets) {
  const bases = sessions.map((session) => measure(naive, {}, session.messages, budget));
  for (const candidate of candidates) {
    const options = { pack: candidate.pack, ...(candidate.profile ? { profile: candidate.profile } : {}) };
    const rows = sessions.map((session, index) => {
      const result = measure(episodic, options, session.messages, budget);
      return { name: session.name, reuse: result.reuse, cost: result.cached / bases[index].cached, threw: result.threw };
    });
    const lost = new Map();
    const bounds = [];
    for (const session of sessions) {
      const byCause = causes(options, session.messages, budget);
      bounds.push(byCause.bound);
      for (const group of byCause) {
        lost.set(group.cause, (lost.get(group.cause) ?? 0) + group.reuseLost / sessions.length);
      }
    }
    const worstReuse = rows.reduce((a, b) => (b.reuse < a.reuse ? b : a));
    const worstCost = rows.reduce((a, b) => (b.cost > a.cost ? b : a));
    const chose = rows.filter((row) => row.cost < 0.999);
    console.log(
      `${budget / 1000}k ${candidate.name}: reuse med ${median(rows.map((r) => r.reuse)).toFixed(3)} worst ${worstReuse.reuse.toFixed(3)} (${worstReuse.name}); ` +
        `cost med ${median(rows.map((r) => r.cost)).toFixed(3)}x (packing chose: ${chose.length ? median(chose.map((r) => r.cost)).toFixed(3) : '-'}x of ${chose.length}) worst ${worstCost.cost.toFixed(3)}x (${worstCost.name}); failed ${rows.reduce((s, r) => s + r.threw, 0)}\n` +
        `   append-only bound on reuse: median ${median(bounds).toFixed(3)}; lost by cause: ${[...lost].map(([cause, value]) => `${cause} ${value.toFixed(3)}`).join(', ')}`,
    );
    if (process.env.TUNE_VERBOSE) for (const row of rows) console.log(`     ${row.name}: reuse ${row.reuse.toFixed(3)} cost ${row.cost.toFixed(3)}x`);
  }
}
