/**
 * The context-policy section of `episodic budget`: the session replayed under each
 * policy its provider supports (see `context-policies.ts` for how the providers' own
 * management is modelled), side by side, with the cheapest named.
 */
import { Calibration, createTokenCounter, type Message, type ToolSpec } from '@episodic/core';
import { defaultPackingForProfile } from '@episodic/core/packing';
import { resolveProfile } from '@episodic/providers';
import { type PolicyModel, type PolicyRun, replayPolicy, supportedPolicies } from './context-policies.js';
import type { PricedModel } from './priced-model.js';
import { formatCount, plural } from '../text-table.js';

/** The comparison as `--json` prints it. */
export interface PolicyComparison {
  model: string;
  budget: number;
  /** How the native policies were modelled, in one sentence. */
  modelled: string;
  runs: PolicyRun[];
  /** The cheapest policy (fewest input tokens when no price is known). */
  cheapest: PolicyRun['policy'];
  /**
   * The retention table's run that replays the same calls as the `packer` line
   * (same budget, retention `episode`), when one was run: the same input tokens,
   * priced by the table's finer cache estimate.
   */
  tableRun: TableRun | null;
  /**
   * Where the provider compacts: `hybrid` replayed twice, the calls after each compaction
   * continuing from the provider's native item or from Episodic's text summary of it (what
   * a fallback model or another provider reads); null where it does not compact.
   */
  checkpoints: CheckpointComparison | null;
}

/** Native against text compaction checkpoints (see `CheckpointKind`). */
export interface CheckpointComparison {
  native: PolicyRun;
  text: PolicyRun;
  /** Input tokens per answering request (compaction passes included; summarizer calls not). */
  tokensPerRequest: { native: number; text: number };
  /** USD of keeping a text summary beside every native item (a summarizer call per native compaction); null without a price. */
  keepingBothCost: number | null;
}

/** A run of the retention tables, as the comparison cites it. */
export interface TableRun {
  budget: number;
  inputTokens: number;
  /** USD; null without a price. */
  cost: number | null;
  cachedShare: number;
}

const modelled =
  "native policies modelled from the providers' documented rules: server-side compaction at 80% of the budget into a " +
  'summary of 1% of the input (500 to 4,000 tokens), billed as a compaction pass plus an answer from the summary; ' +
  '`native` also sends all reasoning back and caps no tool result';

/** Appended where the model compacts on demand, as an agent on it does. */
const onDemandNote =
  '; this model compacts on demand instead (a compaction request of its own at a user boundary, billed like any ' +
  'request, keeping the last 2 episodes; the block swapped in at the next boundary rewrites the cache)';

/**
 * What the policies replay: the same session, fixed prefix and token scale as the
 * budget runs (`policySession` of `analyze-budgets.ts`), so the `packer` line and
 * the retention tables count the same calls.
 */
export interface PolicySession {
  messages: readonly Message[];
  /** The system prompt, with the stand-in of the inferred prefix when one was inferred. */
  system: string | undefined;
  tools: readonly ToolSpec[] | undefined;
  /** Local tokens to the provider's, as inferred from the recording (1 when not inferred). */
  factor: number;
}

/** Replays the session under each supported policy at `budget`, priced as `model`. */
export function comparePolicies(
  input: PolicySession,
  model: PricedModel,
  budget: number,
  tableRun: TableRun | null = null,
): PolicyComparison {
  const style = model.cache.style;
  const policyModel: PolicyModel = {
    model: { provider: model.provider ?? 'unknown', id: model.id },
    budget,
    cache: style === 'anthropic-breakpoints' ? 'anthropic' : style === 'none' ? 'none' : 'openai',
    minCacheableTokens: model.cache.minCacheableTokens,
    pricing: model.pricing,
    pastReasoning: model.pastReasoning,
    boundReasoning: model.reasoningBound,
    ...(model.provider ? profileReplay(model.provider, model.id) : {}),
  };
  const counter = createTokenCounter({ calibration: new Calibration({ initial: input.factor }) });
  const messages = input.messages.filter((message) => message.role !== 'system' && message.role !== 'summary');
  const session = { messages, system: input.system, tools: input.tools };
  const runs = supportedPolicies(model.provider).map((policy) => replayPolicy(session, policyModel, policy, counter));
  const onDemand = policyModel.compaction === 'on-demand' ? onDemandNote : '';
  const key = (run: PolicyRun) => run.cost ?? run.inputTokens - run.cachedTokens;
  const cheapest = runs.reduce((best, run) => (key(run) < key(best) ? run : best)).policy;
  const native = runs.find((run) => run.policy === 'hybrid');
  const checkpoints = native ? compareCheckpoints(native, replayPolicy(session, policyModel, 'hybrid', counter, 'text')) : null;
  return { model: `${model.provider ?? 'unknown'}/${model.id}`, budget, modelled: modelled + onDemand, runs, cheapest, tableRun, checkpoints };
}

/** What the replay takes from the model's profile: the agent's packing, and how the policies compact. */
function profileReplay(provider: string, id: string): Pick<PolicyModel, 'packing' | 'compaction'> {
  const profile = resolveProfile(provider, id);
  return {
    packing: defaultPackingForProfile(profile),
    compaction: profile.nativeContext?.compaction?.onDemand ? 'on-demand' : 'threshold',
  };
}

function compareCheckpoints(native: PolicyRun, text: PolicyRun): CheckpointComparison {
  const perRequest = (run: PolicyRun) => (run.calls === 0 ? 0 : Math.round((run.inputTokens - (run.summarizerTokens ?? 0)) / run.calls));
  return {
    native,
    text,
    tokensPerRequest: { native: perRequest(native), text: perRequest(text) },
    keepingBothCost: native.checkpointCost ?? null,
  };
}

/** The text section comparing native and text checkpoints, when the provider compacts. */
export function formatCheckpointComparison(comparison: CheckpointComparison): string {
  const { native, text, tokensPerRequest } = comparison;
  if (native.compactions === 0 && text.compactions === 0)
    return 'Compaction checkpoints: no call passed the compaction threshold at this budget (nothing to compare).';
  const line = (label: string, run: PolicyRun, perRequest: number, extra: string) => {
    const cached = run.inputTokens === 0 ? 0 : (run.cachedTokens / run.inputTokens) * 100;
    return `  ${label.padEnd(13)} ${formatCost(run.cost).padStart(9)}  ${formatCount(perRequest)} tokens/request, ${cached.toFixed(1)}% cached, ${plural(run.compactions, 'compaction')}${extra}`;
  };
  const summarizer = text.summarizerTokens ? `, summarizer read ${formatCount(text.summarizerTokens)} tokens` : '';
  const both = comparison.keepingBothCost === null ? 'n/a' : formatCost(comparison.keepingBothCost);
  return [
    'Compaction checkpoints (hybrid): the calls after a compaction continue from the provider\'s item (native) or from ' +
      "Episodic's text summary of it (text, what a fallback model or another provider reads):",
    line('native item', native, tokensPerRequest.native, ''),
    line('text summary', text, tokensPerRequest.text, summarizer),
    `Keeping a text summary beside each native item, so a fallback or hand-off can continue, costs ${both} more than native alone.`,
  ].join('\n');
}

/** The text section. */
export function formatPolicyComparison(comparison: PolicyComparison): string {
  const lines = [`Context policies (${comparison.model}, budget ${formatCount(comparison.budget)}; ${comparison.modelled}):`];
  for (const run of comparison.runs) {
    const cached = run.inputTokens === 0 ? 0 : (run.cachedTokens / run.inputTokens) * 100;
    const lost = run.compactions > 0 ? `, ${plural(run.compactions, 'compaction')} replaced ${formatCount(run.compactedTokens)} tokens by summaries` : '';
    const evicted = run.evictingCalls > 0 ? `, ${plural(run.evictingCalls, 'call')} evicted episodes` : '';
    lines.push(
      `  ${run.policy.padEnd(9)} ${formatCost(run.cost).padStart(9)}  input ${formatCount(run.inputTokens)} tokens, ${cached.toFixed(1)}% cached${lost}${evicted}`,
    );
  }
  if (comparison.runs.length === 1) lines.push('  (this provider has no server-side context management: packer only)');
  else lines.push(`Cheapest: ${comparison.cheapest}.`);
  const note = tableNote(comparison);
  if (note) lines.push(note);
  if (comparison.checkpoints) lines.push('', formatCheckpointComparison(comparison.checkpoints));
  return lines.join('\n');
}

/**
 * Why the `packer` line and the retention table's row at the same budget can show
 * different costs: the same calls and input tokens, priced by two cache models.
 */
function tableNote(comparison: PolicyComparison): string | undefined {
  const table = comparison.tableRun;
  const packer = comparison.runs.find((run) => run.policy === 'packer');
  if (!table || !packer) return undefined;
  const gap = table.inputTokens === 0 ? 0 : (packer.inputTokens - table.inputTokens) / table.inputTokens;
  // The policies pack as an agent does with the model's profile (priced reasoning boundary, cache-lifetime-aware
  // eviction); the tables replay the retention alone: that alone makes the gap in tokens.
  const why = "the policies pack with the model profile's reasoning boundary and cache-lifetime-aware eviction, as an agent does";
  const same = gap === 0 ? 'the same calls' : `the same calls (input ${gap > 0 ? '+' : ''}${(gap * 100).toFixed(1)}%: ${why})`;
  return (
    `The packer line replays ${same} as the retention table's "episode" row at ${formatCount(table.budget)} ` +
    `(${formatCount(table.inputTokens)} input tokens there, ${formatCost(table.cost)}, ${(table.cachedShare * 100).toFixed(1)}% cached). ` +
    'Its cost here comes from the coarser cache model all three policies share (a prefix is reused when whole messages ' +
    'repeat; every uncached token of an Anthropic-style call is billed as a cache write), so compare the policies with ' +
    'each other, and budgets and retentions in the tables.'
  );
}

function formatCost(cost: number | null | undefined): string {
  return cost === undefined || cost === null ? 'n/a' : `$${cost.toFixed(2)}`;
}
