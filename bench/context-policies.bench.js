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

/** Profiles from the provider tables (prices USD per million tokens; budget: context window less max output). */
const profiles = [
  {
    name: 'anthropic claude-sonnet-4-6',
    model: { provider: 'anthropic', id: 'claude-sonnet-4-6' },
    budget: 136_000,
    cache: 'anthropic',
    minCacheableTokens: 2048,
    pricing: { input: 3, cachedInput: 0.3, cacheWrite: 3.75, output: 15 },
    pastReasoning: resolveProfile('anthropic', 'claude-sonnet-4-6').pastReasoning,
    // What an agent takes from the profile by default: the cache lifetime.
    packing: defaultPackingForProfile(resolveProfile('anthropic', 'claude-sonnet-4-6')),
  },
  // One row per OpenAI generation, each billed as its API bills earlier turns' reasoning:
  // gpt-5.5 strips it; gpt-5.6 renders it (`reasoning.context` defaults to `all_turns`), unless
  // the request sends `current_turn`, which hides it as before (modelled as stripped).
  openaiRow('gpt-5.5', 'openai gpt-5.5'),
  openaiRow('gpt-5.6', 'openai gpt-5.6 (nothing sent: all_turns)'),
  { ...openaiRow('gpt-5.6', 'openai gpt-5.6 (current_turn sent)'), pastReasoning: 'stripped' },
];

/** An OpenAI row from its profile: prices, packing and how it bills earlier turns' reasoning. */
function openaiRow(id, name) {
  const profile = resolveProfile('openai', id);
  return {
    name,
    model: { provider: 'openai', id },
    budget: profile.contextWindow - profile.maxOutputTokens,
    cache: 'openai',
    minCacheableTokens: profile.minCacheableTokens,
    pricing: profile.pricing,
    pastReasoning: profile.pastReasoning,
    packing: defaultPackingForProfile(profile),
  };
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
        const line = { session: session.name, profile: profile.name };
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
        });
      }
    }
  }
  return format(rows, perSession, { load, seconds: (Date.now() - started) / 1000, real: families[1].sessions.length });
}

function format(rows, perSession, { load, seconds, real }) {
  const table = rows.map((row) => {
    const base = rows.find((other) => other.family === row.family && other.profile === row.profile && other.policy === 'packer');
    const ratio = base && base.cost > 0 ? (row.cost / base.cost).toFixed(2) : '-';
    const cells = [row.family, row.profile, row.policy, row.calls, (row.input / 1e6).toFixed(2), `${(row.reuse * 100).toFixed(1)}%`];
    return `| ${cells.join(' | ')} | $${row.cost.toFixed(2)} | ${ratio} | ${row.compactions} | ${(row.compacted / 1e6).toFixed(2)} | ${row.evictions} |`;
  });
  const wins = perSession.map((line) => {
    const best = policies.reduce((chosen, policy) => (line[policy] < line[chosen] ? policy : chosen), 'packer');
    return `| ${line.session} | ${line.profile} | ${policies.map((policy) => `$${line[policy].toFixed(3)}`).join(' | ')} | ${best} |`;
  });
  return `## Context policies (packer, native, hybrid)

\`npm run bench -- context-policies\`; ${real} real sessions; load ${load}; ${seconds.toFixed(0)} s.
Model of the providers' native management: packages/cli/src/budget/context-policies.ts (compaction at 80% of the
budget, summary 1% of the compacted input, 500 to 4,000 tokens; prompt cache at message granularity; answers' output
tokens left out). Episodic and hybrid pack with what an agent takes from the profile by default (TTL-aware
eviction; past reasoning dropped at the user boundary, the priced deferral being opt-in); a call more than the profile's cache lifetime (Sonnet 5 minutes, OpenAI 1 hour) after the previous one, by
the real sessions' recorded times, reads nothing from the cache. Ratio: cost against \`packer\` on the same sessions and profile. Compacted: input tokens replaced by
summaries (what the model lost to compaction; eviction loses whole episodes instead).

| sessions | profile | policy | calls | input Mtok | cached | cost | ratio | compactions | compacted Mtok | evicting calls |
| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |
${table.join('\n')}

Per session (cost packer | native | hybrid, cheapest last):

| session | profile | packer | native | hybrid | cheapest |
| --- | --- | ---: | ---: | ---: | --- |
${wins.join('\n')}
`;
}
