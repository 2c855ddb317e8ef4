/**
 * `npm run bench -- context-policies`: cost and cache reuse of each context policy
 * (`packer`, `native`, `hybrid`) per provider profile, on a small generated session
 * family and on the real recorded sessions beside the clone (../shared/fixtures/sessions,
 * or EPISODIC_SHARED_FIXTURES), in one run. The replay is the one `episodic budget`
 * runs (packages/cli/src/budget/context-policies.ts, which states how the providers'
 * native management is modelled).
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

const policies = ['packer', 'native', 'hybrid'];

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
  // Anthropic: Sonnet 4.6 keeps earlier turns' thinking and bills it, unbound; Sonnet 5.5 also
  // binds each block to its prefix (a block after a changed prefix is left out, and the packer
  // plans its evictions around bound steps). Its 1M window rarely fills, so it is also measured
  // at Sonnet 4.6's budget, where evictions and compactions happen.
  anthropicRow('claude-sonnet-4-6', 'anthropic claude-sonnet-4-6'),
  anthropicRow('claude-sonnet-5-5', 'anthropic claude-sonnet-5-5 (bound)'),
  { ...anthropicRow('claude-sonnet-5-5', 'anthropic claude-sonnet-5-5 (bound), budget 136k'), budget: 136_000 },
];

/** The generation each row belongs to: one table each. */
function generationOf(row) {
  return row.model.provider === 'openai' ? 'OpenAI: gpt-5.5 against gpt-5.6' : 'Anthropic: Sonnet 4.6 against Sonnet 5.5 (bound thinking)';
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

export default async function contextPolicies() {
  const started = Date.now();
  const load = (await import('node:os')).loadavg().map((value) => value.toFixed(2)).join(' ');
  const families = [
    { name: 'generated family (4 sessions)', sessions: generatedFamily() },
    { name: 'real sessions', sessions: await realSessions() },
  ];
  const rows = [];
  const perSession = [];
  for (const family of families) {
    for (const profile of profiles) {
      const counter = createTokenCounter();
      const results = Object.fromEntries(policies.map((policy) => [policy, []]));
      for (const session of family.sessions) {
        const line = { session: session.name, profile: profile.name, generation: generationOf(profile) };
        for (const policy of policies) {
          const totals = replayPolicy(session, profile, policy, counter);
          results[policy].push(totals);
          line[policy] = totals.cost ?? 0;
        }
        perSession.push(line);
      }
      for (const policy of policies) {
        const list = results[policy];
        const input = sum(list, 'inputTokens');
        rows.push({
          family: family.name,
          generation: generationOf(profile),
          profile: profile.name,
          policy,
          calls: sum(list, 'calls'),
          input,
          reuse: input === 0 ? 0 : sum(list, 'cachedTokens') / input,
          cost: sum(list, 'cost'),
          compactions: sum(list, 'compactions'),
          compacted: sum(list, 'compactedTokens'),
          evictions: sum(list, 'evictingCalls'),
          skipped: sum(list, 'skipped'),
          dropped: sum(list, 'boundDropped'),
        });
      }
    }
  }
  const date = new Date().toISOString().slice(0, 10);
  return format(rows, perSession, { load, date, seconds: (Date.now() - started) / 1000, real: families[1].sessions.length });
}

function generationTable(rows) {
  const lines = rows.map((row) => {
    const base = rows.find((other) => other.family === row.family && other.profile === row.profile && other.policy === 'packer');
    const ratio = base && base.cost > 0 ? (row.cost / base.cost).toFixed(2) : '-';
    const cells = [row.family, row.profile, row.policy, row.calls, (row.input / 1e6).toFixed(2), `${(row.reuse * 100).toFixed(1)}%`];
    return `| ${cells.join(' | ')} | $${row.cost.toFixed(2)} | ${ratio} | ${row.compactions} | ${(row.compacted / 1e6).toFixed(2)} | ${row.evictions} | ${row.dropped} |`;
  });
  return `| sessions | profile | policy | calls | input Mtok | cached | cost | ratio | compactions | compacted Mtok | evicting calls | bound blocks dropped |
| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |
${lines.join('\n')}`;
}

function format(rows, perSession, { load, date, seconds, real }) {
  const generations = [...new Set(rows.map((row) => row.generation))];
  const tables = generations.map((generation) => `### ${generation}\n\n${generationTable(rows.filter((row) => row.generation === generation))}`);
  const wins = perSession.map((line) => {
    const best = policies.reduce((chosen, policy) => (line[policy] < line[chosen] ? policy : chosen), 'packer');
    return `| ${line.session} | ${line.profile} | ${policies.map((policy) => `$${line[policy].toFixed(3)}`).join(' | ')} | ${best} |`;
  });
  return `## Context policies (packer, native, hybrid)

\`npm run bench -- context-policies\`; ${date}; ${real} real sessions; load ${load}; ${seconds.toFixed(0)} s.
Model of the providers' native management: packages/cli/src/budget/context-policies.ts (compaction at 80% of the
budget, summary 1% of the compacted input, 500 to 4,000 tokens; prompt cache at message granularity; answers' output
tokens left out). Each model is billed as its API bills earlier turns' reasoning (profile \`pastReasoning\`: stripped
before GPT-5.6, rendered and billed from it; kept and billed on Sonnet 4.6 and 5.5), and where thinking is bound to its
prefix (Sonnet 5.5) a block after a changed prefix is left out and not billed (bound blocks dropped). Packer and hybrid
pack with what an agent takes from the profile by default (TTL-aware eviction, evictions planned around bound steps;
past reasoning dropped at the user boundary, the priced deferral being opt-in); a call more than the profile's cache
lifetime (Anthropic 5 minutes, OpenAI 1 hour) after the previous one, by the real sessions' recorded times, reads
nothing from the cache. Native and hybrid on Sonnet 5.5 assume server-side compaction as on Sonnet 4.6 (its support is
not documented; docs/providers.md). Ratio: cost against \`packer\` on the same sessions and profile. Compacted: input
tokens replaced by summaries (what the model lost to compaction; eviction loses whole episodes instead). All rows count
tokens with one counter (no per-model tokenizer factor), so the generations differ by their rules and prices only.

${tables.join('\n\n')}

Per session (cost packer | native | hybrid, cheapest last):

| session | profile | packer | native | hybrid | cheapest |
| --- | --- | ---: | ---: | ---: | --- |
${wins.join('\n')}
`;
}
