/**
 * The context-policy section of `episodic budget`: the session replayed under each
 * policy its provider supports (see `context-policies.ts` for how the providers' own
 * management is modelled), side by side, with the cheapest named.
 */
import { createTokenCounter, type Message } from '@episodic/core';
import { defaultPackingForProfile } from '@episodic/core/packing';
import { resolveProfile } from '@episodic/providers';
import { type PolicyModel, type PolicyRun, replayPolicy, supportedPolicies } from './context-policies.js';
import type { PricedModel } from './priced-model.js';

/** The comparison as `--json` prints it. */
export interface PolicyComparison {
  model: string;
  budget: number;
  /** How the native policies were modelled, in one sentence. */
  modelled: string;
  runs: PolicyRun[];
  /** The cheapest policy (fewest input tokens when no price is known). */
  cheapest: PolicyRun['policy'];
}

const modelled =
  "native policies modelled from the providers' documented rules: server-side compaction at 80% of the budget into a " +
  'summary of 1% of the input (500 to 4,000 tokens), billed as a compaction pass plus an answer from the summary; ' +
  '`native` also sends all reasoning back and caps no tool result';

/** Replays `messages` under each supported policy at `budget`, priced as `model`. */
export function comparePolicies(
  messages: readonly Message[],
  model: PricedModel,
  budget: number,
  system: string | undefined,
): PolicyComparison {
  const style = model.cache.style;
  const policyModel: PolicyModel = {
    model: { provider: model.provider ?? 'unknown', id: model.id },
    budget,
    cache: style === 'anthropic-breakpoints' ? 'anthropic' : style === 'none' ? 'none' : 'openai',
    minCacheableTokens: model.cache.minCacheableTokens,
    pricing: model.pricing,
    pastReasoning: model.pastReasoning,
    ...(model.provider ? { packing: defaultPackingForProfile(resolveProfile(model.provider, model.id)) } : {}),
  };
  const counter = createTokenCounter();
  const session = { messages: messages.filter((message) => message.role !== 'system' && message.role !== 'summary'), system };
  const runs = supportedPolicies(model.provider).map((policy) => replayPolicy(session, policyModel, policy, counter));
  const key = (run: PolicyRun) => run.cost ?? run.inputTokens - run.cachedTokens;
  const cheapest = runs.reduce((best, run) => (key(run) < key(best) ? run : best)).policy;
  return { model: `${model.provider ?? 'unknown'}/${model.id}`, budget, modelled, runs, cheapest };
}

/** The text section. */
export function formatPolicyComparison(comparison: PolicyComparison): string {
  const lines = [`Context policies (${comparison.model}, budget ${comparison.budget}; ${comparison.modelled}):`];
  for (const run of comparison.runs) {
    const cached = run.inputTokens === 0 ? 0 : (run.cachedTokens / run.inputTokens) * 100;
    const cost = run.cost === undefined ? 'n/a' : `$${run.cost.toFixed(2)}`;
    const lost = run.compactions > 0 ? `, ${run.compactions} compactions replaced ${run.compactedTokens} tokens by summaries` : '';
    const evicted = run.evictingCalls > 0 ? `, ${run.evictingCalls} calls evicted episodes` : '';
    lines.push(`  ${run.policy.padEnd(9)} ${cost.padStart(9)}  input ${run.inputTokens} tokens, ${cached.toFixed(1)}% cached${lost}${evicted}`);
  }
  if (comparison.runs.length === 1) lines.push('  (this provider has no server-side context management: episodic only)');
  else lines.push(`Cheapest: ${comparison.cheapest}.`);
  return lines.join('\n');
}
