/**
 * `npm run bench -- context-policies`: cost and cache reuse of each context policy
 * (`packer`, `native`, `hybrid`) per provider profile, on a small generated session
 * family and on the real recorded sessions beside the clone (../shared/fixtures/sessions,
 * or EPISODIC_SHARED_FIXTURES), in one run. The replay is the one `episodic budget`
 * runs (packages/cli/src/budget/context-policies.ts, which states how the providers'
 * native management is modelled; on-demand-replay.ts for Anthropic's on-demand compaction).
 *
 * `native` and `hybrid` compact past the threshold (`compact_20260112`, OpenAI's
 * `compact_threshold`); where the model also compacts on demand (Sonnet 4.6, Opus 4.6 to
 * 4.8), `native, on-demand` and `hybrid, on-demand` are measured beside them.
 *
 * To iterate on a subset (the written results are then partial: do not commit them):
 * CONTEXT_POLICIES_ROWS=<text> keeps the rows whose name contains it, CONTEXT_POLICIES_SESSIONS=generated
 * or =real keeps one family; CONTEXT_POLICIES_ON_DEMAND_SETTINGS=1 adds on-demand rows with other settings.
 */
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { createTokenCounter } from '@episodic/core';
import { defaultPackingForProfile } from '@episodic/core/packing';
import { resolveProfile } from '@episodic/providers';
import { importSession } from '../packages/cli/dist/import/import-session.js';
import { replayPolicy } from '../packages/cli/dist/budget/context-policies.js';
import { generateSession } from './session-generator.js';

/** The policies of a row (`native` and `hybrid` with the threshold kind), and where the model also compacts on demand, those two with it. */
function variantsOf(row) {
  const own = ['packer', 'native', 'hybrid'].map((policy) => ({ label: policy, policy, compaction: 'threshold' }));
  if (!row.onDemand) return own;
  const onDemand = ['native', 'hybrid'].map((policy) => ({ label: `${policy}, on-demand`, policy, compaction: 'on-demand' }));
  // CONTEXT_POLICIES_ON_DEMAND_SETTINGS=1: hybrid on demand with 1 and 0 kept episodes, and waiting at the boundary.
  const settings = process.env.CONTEXT_POLICIES_ON_DEMAND_SETTINGS
    ? [
        { label: 'hybrid, on-demand, keep 1', policy: 'hybrid', compaction: 'on-demand', onDemand: { keepTurns: 1 } },
        { label: 'hybrid, on-demand, keep 0', policy: 'hybrid', compaction: 'on-demand', onDemand: { keepTurns: 0 } },
        { label: 'hybrid, on-demand, waiting', policy: 'hybrid', compaction: 'on-demand', onDemand: { background: false } },
      ]
    : [];
  return [...own, ...onDemand, ...settings];
}

/**
 * Rows per model generation, each billed as its API bills earlier turns' reasoning (prices USD
 * per million tokens; budget: context window less max output unless a row says otherwise).
 */
const profiles = [
  // OpenAI: gpt-5.5 strips earlier turns' reasoning; gpt-5.6 renders it (`reasoning.context`
  // defaults to `all_turns`), unless the request sends `current_turn`, which hides it as before
  // (modelled as stripped).
  openaiRow('gpt-5.5', 'openai gpt-5.5'),
  openaiRow('gpt-5.6', 'openai gpt-5.6 (nothing sent: all_turns)'),
  { ...openaiRow('gpt-5.6', 'openai gpt-5.6 (current_turn sent)'), pastReasoning: 'stripped' },
  // Anthropic: Sonnet 4.6 and Opus 4.6 to 4.8 (one profile row: same window, prices and rules) keep
  // earlier turns' thinking and bill it, unbound, and compact on demand; Sonnet 5.5 also
  // binds each block to its prefix (a block after a changed prefix is left out, and the packer
  // plans its evictions around bound steps). Its 1M window rarely fills, so it is also measured
  // at Sonnet 4.6's budget, where evictions and compactions happen.
  anthropicRow('claude-sonnet-4-6', 'anthropic claude-sonnet-4-6'),
  anthropicRow('claude-opus-4-6', 'anthropic claude-opus-4-6 (4.6 to 4.8)'),
  anthropicRow('claude-sonnet-5-5', 'anthropic claude-sonnet-5-5 (bound)'),
  { ...anthropicRow('claude-sonnet-5-5', 'anthropic claude-sonnet-5-5 (bound), budget 136k'), budget: 136_000 },
];

/** The generation each row belongs to: one table each. */
function generationOf(row) {
  return row.model.provider === 'openai'
    ? 'OpenAI: gpt-5.5 against gpt-5.6'
    : 'Anthropic: Sonnet 4.6 and Opus 4.6 to 4.8 (on-demand compaction) against Sonnet 5.5 (bound thinking)';
}

/** A row from the model's profile: prices, cache, packing and how it bills earlier turns' reasoning. */
function profileRow(provider, id, name, cache) {
  const profile = resolveProfile(provider, id);
  return {
    name,
    model: { provider, id },
    budget: profile.contextWindow - profile.maxOutputTokens,
    cache,
    minCacheableTokens: profile.minCacheableTokens,
    pricing: profile.pricing,
    pastReasoning: profile.pastReasoning,
    boundReasoning: profile.signatureBoundToPrefix === true,
    // What an agent takes from the profile by default: the cache lifetime, bound-reasoning planning.
    packing: defaultPackingForProfile(profile),
    // The model also compacts on demand (Anthropic `compact-2026-09-04`): measured both ways.
    onDemand: profile.nativeContext?.compaction?.onDemand === true,
  };
}

function openaiRow(id, name) {
  return profileRow('openai', id, name, 'openai');
}

function anthropicRow(id, name) {
  return profileRow('anthropic', id, name, 'anthropic');
}

async function realSessions() {
  const shared = process.env.EPISODIC_SHARED_FIXTURES;
  const root = shared ? join(shared, 'sessions') : resolve(import.meta.dirname, '../../shared/fixtures/sessions');
  if (!existsSync(root)) return [];
  const sessions = [];
  for (const agent of ['claude-code', 'codex', 'pi']) {
    const folder = join(root, agent);
    if (!existsSync(folder)) continue;
    for (const file of (await readdir(folder)).filter((name) => name.endsWith('.jsonl')).sort()) {
      // Lossy: a session recorded incomplete (a result whose call is off the path) replays without what it lacks.
      const result = await importSession(agent, join(folder, file), Readable.from([]), { lossy: true });
      const system = result.messages.filter((message) => message.role === 'system').map((message) => message.content).join('\n\n');
      const messages = result.messages.filter((message) => message.role !== 'system' && message.role !== 'summary');
      sessions.push({ name: `${agent}/${file.replace(/\.jsonl$/, '')}`, messages, ...(system ? { system } : {}) });
    }
  }
  return sessions;
}

function generatedFamily() {
  // Four sizes of the bench session: 10 to 60 user turns, each with its own seed.
  return [10, 25, 40, 60].map((turns, index) => ({ name: `generated seed ${index + 1}, ${turns} turns`, messages: generateSession({ seed: index + 1, turns }) }));
}

function sum(rows, field) {
  return rows.reduce((total, row) => total + row[field], 0);
}

function median(values) {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** The rows and families this run measures (all unless the environment narrows them; see the file comment). */
function selection(families) {
  const rows = process.env.CONTEXT_POLICIES_ROWS;
  const only = process.env.CONTEXT_POLICIES_SESSIONS;
  return {
    rows: rows ? profiles.filter((row) => row.name.includes(rows)) : profiles,
    families: only ? families.filter((family) => family.name.startsWith(only)) : families,
  };
}

/** One row's policies over one family: totals per policy, and each session's cost per policy. */
function measure(family, profile, counter) {
  const variants = variantsOf(profile);
  const results = Object.fromEntries(variants.map((variant) => [variant.label, []]));
  const perSession = [];
  for (const session of family.sessions) {
    const line = { session: session.name, profile: profile.name, generation: generationOf(profile), costs: {} };
    for (const variant of variants) {
      const model = { ...profile, compaction: variant.compaction, ...(variant.onDemand ? { onDemand: variant.onDemand } : {}) };
      const totals = replayPolicy(session, model, variant.policy, counter);
      results[variant.label].push(totals);
      line.costs[variant.label] = totals.cost ?? 0;
    }
    perSession.push(line);
  }
  const rows = variants.map((variant) => {
    const list = results[variant.label];
    const input = sum(list, 'inputTokens');
    // Per session, cost against packer on the same session: the median says what a typical session sees.
    const ratios = perSession.filter((line) => line.costs.packer > 0).map((line) => line.costs[variant.label] / line.costs.packer);
    const onDemand = list.filter((run) => run.onDemand).map((run) => run.onDemand);
    return {
      family: family.name,
      generation: generationOf(profile),
      profile: profile.name,
      policy: variant.label,
      calls: sum(list, 'calls'),
      input,
      reuse: input === 0 ? 0 : sum(list, 'cachedTokens') / input,
      cost: sum(list, 'cost'),
      medianRatio: median(ratios),
      // Sessions on which this policy cost more than packer.
      costlier: perSession.filter((line) => line.costs[variant.label] > line.costs.packer * (1 + 1e-9)).length,
      compactions: sum(list, 'compactions'),
      compacted: sum(list, 'compactedTokens'),
      evictions: sum(list, 'evictingCalls'),
      skipped: sum(list, 'skipped'),
      dropped: sum(list, 'boundDropped'),
      onDemand:
        onDemand.length === 0
          ? undefined
          : {
              requestCost: onDemand.reduce((total, run) => total + (run.requestCost ?? 0), 0),
              swapWrites: sum(onDemand, 'swapWriteTokens'),
              late: sum(onDemand, 'lateSwaps'),
            },
    };
  });
  return { rows, perSession };
}

export default async function contextPolicies() {
  const started = Date.now();
  const load = (await import('node:os')).loadavg().map((value) => value.toFixed(2)).join(' ');
  const chosen = selection([
    { name: 'generated family (4 sessions)', sessions: generatedFamily() },
    { name: 'real sessions', sessions: await realSessions() },
  ]);
  const rows = [];
  const perSession = [];
  for (const family of chosen.families) {
    for (const profile of chosen.rows) {
      const measured = measure(family, profile, createTokenCounter());
      rows.push(...measured.rows);
      perSession.push(...measured.perSession);
    }
  }
  const date = new Date().toISOString().slice(0, 10);
  const real = chosen.families.find((family) => family.name === 'real sessions')?.sessions.length ?? 0;
  return format(rows, perSession, { load, date, seconds: (Date.now() - started) / 1000, real });
}

function generationTable(rows) {
  const lines = rows.map((row) => {
    const base = rows.find((other) => other.family === row.family && other.profile === row.profile && other.policy === 'packer');
    const ratio = base && base.cost > 0 ? (row.cost / base.cost).toFixed(2) : '-';
    const median = row.medianRatio === undefined ? '-' : row.medianRatio.toFixed(2);
    const onDemand = row.onDemand
      ? `$${row.onDemand.requestCost.toFixed(2)} | ${(row.onDemand.swapWrites / 1e6).toFixed(2)} | ${row.onDemand.late}`
      : '- | - | -';
    const cells = [row.family, row.profile, row.policy, row.calls, (row.input / 1e6).toFixed(2), `${(row.reuse * 100).toFixed(1)}%`];
    return `| ${cells.join(' | ')} | $${row.cost.toFixed(2)} | ${ratio} | ${median} | ${row.costlier} | ${row.compactions} | ${(row.compacted / 1e6).toFixed(2)} | ${onDemand} | ${row.evictions} | ${row.dropped} |`;
  });
  return `| sessions | profile | policy | calls | input Mtok | cached | cost | ratio | median ratio | costlier than packer | compactions | compacted Mtok | compaction requests | swap writes Mtok | late swaps | evicting calls | bound blocks dropped |
| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |
${lines.join('\n')}`;
}

function format(rows, perSession, { load, date, seconds, real }) {
  const generations = [...new Set(rows.map((row) => row.generation))];
  const tables = generations.map((generation) => `### ${generation}\n\n${generationTable(rows.filter((row) => row.generation === generation))}`);
  const labels = ['packer', 'native', 'hybrid', 'native, on-demand', 'hybrid, on-demand'];
  const wins = perSession.map((line) => {
    const measured = labels.filter((label) => line.costs[label] !== undefined);
    const best = measured.reduce((chosen, label) => (line.costs[label] < line.costs[chosen] ? label : chosen), 'packer');
    const cells = labels.map((label) => (line.costs[label] === undefined ? '-' : `$${line.costs[label].toFixed(3)}`));
    return `| ${line.session} | ${line.profile} | ${cells.join(' | ')} | ${best} |`;
  });
  return `## Context policies (packer, native, hybrid)

\`npm run bench -- context-policies\`; ${date}; ${real} real sessions; load ${load}; ${seconds.toFixed(0)} s.
Model of the providers' native management: packages/cli/src/budget/context-policies.ts (threshold compaction at 80% of
the budget, summary 1% of the compacted input, 500 to 4,000 tokens; prompt cache at message granularity; answers' output
tokens left out). Each model is billed as its API bills earlier turns' reasoning (profile \`pastReasoning\`: stripped
before GPT-5.6, rendered and billed from it; kept and billed on Sonnet 4.6, Opus 4.6 to 4.8 and Sonnet 5.5), and where
thinking is bound to its prefix (Sonnet 5.5) a block after a changed prefix is left out and not billed (bound blocks
dropped). Packer and hybrid pack with what an agent takes from the profile by default (TTL-aware eviction, evictions
planned around bound steps; past reasoning dropped at the user boundary, the priced deferral being opt-in); a call more
than the profile's cache lifetime (Anthropic 5 minutes, OpenAI 1 hour) after the previous one, by the real sessions'
recorded times, reads nothing from the cache.
On Sonnet 4.6 and Opus 4.6 to 4.8, which also compact on demand, \`native, on-demand\` and \`hybrid, on-demand\` are
the same policies compacting as an agent does on demand (packages/cli/src/budget/on-demand-replay.ts; docs/providers.md,
"On-demand compaction"): at a user boundary, once the last call's input and output passed 80% of the budget, a
compaction request of its own summarizes all but the last 2 episodes; it is billed like any request (the prefix it
shares with the call before it read from the cache, the rest written, the summary as output: "compaction requests");
in the background, the block is swapped in at the first user boundary after it arrived (a request is assumed to take
60 s; "late swaps" landed an episode later, by the recorded times); the swap changes the prefix after the system
prompt, so the next call writes the block and the kept turns to the cache again ("swap writes").
Native and hybrid on Sonnet 5.5 assume threshold compaction as on Sonnet
4.6 (its support is not documented; docs/providers.md). Ratio: cost against \`packer\` on the same sessions and
profile, summed; median ratio: the median over sessions of each session's cost against its \`packer\` cost; costlier
than packer: sessions on which the policy cost more than \`packer\`. Compacted:
input tokens replaced by summaries (what the model lost to compaction; eviction loses whole episodes instead). All rows
count tokens with one counter (no per-model tokenizer factor), so the generations differ by their rules and prices only.

${tables.join('\n\n')}

Per session (cost per policy, cheapest last):

| session | profile | packer | native | hybrid | native, on-demand | hybrid, on-demand | cheapest |
| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |
${wins.join('\n')}
`;
}
