/**
 * The whole `episodic budget` analysis of one session:
 * 1. the session replayed as recorded, against the usage it recorded: the missing
 *    prefix (system prompt and tools) and the tokenizer scale are inferred from it,
 *    and every call's replayed input is set beside the reported one;
 * 2. a replay per budget and retention with that prefix, as the provider bills it
 *    (profile rules for reasoning of earlier turns), with its predicted cache use and
 *    cost, budgets swept from the smallest useful one to the model's window unless
 *    asked;
 * 3. the cheapest run meeting the quality bar, and its predicted saving against what
 *    the recorded session was billed.
 */
import {
  Calibration,
  createTokenCounter,
  EpisodicError,
  type Message,
  type Retention,
  type TokenCounter,
  type ToolSpec,
} from '@episodic/core';
import { countContext, FRAMING, toolResultCaps } from '@episodic/core/internal';
import { BilledView } from './billed-view.js';
import { type EstimatedCall, estimateCalls } from './cache-estimate.js';
import { compareWithRecording, type Fidelity, type FitGroup, inferPrefix, type PrefixInference } from './prefix-inference.js';
import type { PricedModel } from './priced-model.js';
import { type Recommendation, recommend } from './recommend.js';
import { type RecordedBill, recordedBill, replayedBill } from './recorded-bill.js';
import { replayAsRecorded } from './recorded-replay.js';
import { countCalls, type ReplayedCall, type ReplaySettings, replaySession, unlimitedBudget } from './replay.js';
import { type RunSummary, summarizeRun } from './run-summary.js';
import { smallestUsefulBudget, sweepBudgets, sweepPoints } from './sweep.js';
import { formatCount } from '../text-table.js';

/** What to analyse. */
export interface BudgetAnalysisInput {
  /** The transcript's name as the user gave it. */
  source: string;
  messages: readonly Message[];
  /** Ascending, without duplicates; undefined to sweep. */
  budgets?: readonly number[] | undefined;
  retentions: readonly Retention[];
  /** A system prompt put in front of the transcript's own system lines. */
  system?: string | undefined;
  tools?: readonly ToolSpec[] | undefined;
  /** True when the recording holds the system prompt and tools every call sent (nothing to infer). */
  prefixRecorded: boolean;
  model: PricedModel;
  /** When the built-in prices were collected. */
  pricesCollected: string;
  /** Share of calls that must keep the current episode whole for a run to be recommended. */
  quality: number;
  /**
   * The largest fixed prefix the recording's agent plausibly sends (from the
   * importer); an inferred prefix above it is refused, naming the call.
   */
  prefixLimit?: { start: number; afterCompaction: number; measuredOn: string } | undefined;
  /** Called after every replayed call with the calls done and the calls in all (an estimate while sweeping). */
  onProgress?: (done: number, total: number) => void;
}

/** One budget under one retention: its sums and every call. */
export interface BudgetRun extends RunSummary {
  perCall: EstimatedCall[];
}

/** The saving of the recommended run against what was billed. */
export interface Saving {
  /** Predicted USD of the session at the recommendation: replayed input plus the recorded output. */
  predicted: number;
  /** What the recorded session cost. */
  billed: number;
  /** `billed - predicted`, and as a share of `billed`. */
  amount: number;
  share: number;
}

/** Everything `episodic budget` prints, as `--json` prints it. */
export interface BudgetAnalysis {
  source: string;
  model: PricedModel & { pricesCollected: string };
  /** What every call starts with: the system prompt and tools given or inferred. */
  prefix: {
    systemTokens: number;
    toolTokens: number;
    totalTokens: number;
    /** Null when nothing was inferred (no usage, or the recording holds its prefix). */
    inference: PrefixInference | null;
  };
  calls: number;
  /** The budgets replayed (those that hold the fixed prefix). */
  budgets: number[];
  /** Budgets asked for that cannot hold the fixed prefix: rows of their own, not replayed. */
  infeasible: InfeasibleBudget[];
  /** True when the budgets were swept rather than asked. */
  swept: boolean;
  retentions: Retention[];
  runs: BudgetRun[];
  recommendation: Recommendation;
  /** The replay against the recorded usage; null when no call carries usage. */
  fidelity: Fidelity | null;
  bill: RecordedBill;
  /** The replay of what was sent, priced like the runs (null without usage or price): the estimate's error against `bill`. */
  replayedBill: number | null;
  /** Null when the recommended run or the bill has no price. */
  saving: Saving | null;
  /** Recorded compaction summaries left out of the budget replays (Episodic evicts instead). */
  compactionsLeftOut: number;
}

/** A budget asked for that cannot hold even the system prompt and tools. */
export interface InfeasibleBudget {
  budget: number;
  /** Why, in plain words, with the prefix's parts. */
  reason: string;
  /** The smallest budget at which every call of the session fits. */
  smallestFeasible: number;
}

/** The prefix inferred from a call is larger than any the agent sends: history is missing, not a system prompt. */
export class ImplausiblePrefixError extends EpisodicError {
  constructor(source: string, group: FitGroup, limit: number, measuredOn: string) {
    super(
      'implausible_prefix',
      `${source}: the call at transcript line ${group.firstLine} reported ${formatCount(group.prefixTokens)} tokens more than the ` +
        `transcript holds before it, more than any fixed prefix of ${measuredOn} (at most ${formatCount(limit)}): the transcript is ` +
        'missing history, so no system prompt is inferred from it. Import the whole session (episodic import says what is missing).',
    );
  }
}

/** A transcript with no assistant message has no call to replay. */
export class NoCallsError extends EpisodicError {
  constructor(source: string) {
    super('no_calls', `${source} has no assistant messages, so there is no model call to replay`);
  }
}

/**
 * Runs the analysis. Budgets below the fixed prefix are reported as infeasible rows,
 * never an abort. Throws {@link NoCallsError} for a session without calls.
 */
export function analyzeBudgets(input: BudgetAnalysisInput): BudgetAnalysis {
  const { messages, model } = input;
  const calls = countCalls(messages);
  if (calls === 0) throw new NoCallsError(input.source);

  const { inference, fidelity } = checkAgainstRecording(input);
  const counter = createTokenCounter({ calibration: new Calibration({ initial: inference?.factor ?? 1 }) });
  const system = withInferredPrefix(input.system, inference, messages);
  const prefix = measurePrefix(messages, system, input.tools, counter);
  const sweep = sweepInput(messages);
  const billing = new BilledView(counter, model.pastReasoning, model.reasoningBound);
  const base = { ...sweep, system, tools: input.tools, counter, billing };

  let done = 0;
  const perReplay = countCalls(sweep.messages);
  // A reference replay per budget and one per run, plus the replay that finds where a sweep starts.
  const replays = (budgetCount: number) => budgetCount + input.retentions.length * budgetCount;
  let total = perReplay * (replays(input.budgets?.length ?? sweepPoints) + (input.budgets ? 0 : 1));
  const onCall = () => input.onProgress?.(++done, total);
  const budgets = input.budgets
    ? [...input.budgets]
    : sweepBudgets(
        smallestUsefulBudget(replaySession({ ...base, budget: prefix.totalTokens + 1, retention: 'none', onCall })),
        model.contextWindow,
      );
  const infeasible = infeasibleBudgets(budgets, prefix, () =>
    smallestUsefulBudget(replaySession({ ...base, budget: prefix.totalTokens + 1, retention: 'none' })),
  );
  budgets.splice(0, budgets.length, ...budgets.filter((budget) => budget > prefix.totalTokens));
  total = done + perReplay * replays(budgets.length);

  const replyTokens = counter.calibration.apply(FRAMING.reply);
  // The recording's first call read this much from the cache: the prefix was warm when it began.
  const warm = Math.min(fidelity?.calls[0]?.reportedCached ?? 0, prefix.totalTokens - replyTokens);
  // Tool results have a cap at every budget (a share of it): only cuts beyond the cap
  // count, so each budget is set beside a replay with unlimited room at its own caps.
  const references = new Map<number, ReplayedCall[]>();
  const referenceAt = (budget: number) => {
    let reference = references.get(budget);
    if (!reference) {
      const { pastCap, currentCap } = toolResultCaps({ budget });
      const caps = { toolResultCap: pastCap, currentToolResultCap: currentCap };
      reference = replaySession({ ...base, budget: unlimitedBudget, retention: 'all', caps, onCall, reads: false });
      references.set(budget, reference);
    }
    return reference;
  };
  const runs: BudgetRun[] = [];
  for (const retention of input.retentions) {
    for (const budget of budgets) {
      const replayed = replaySession({ ...base, budget, retention, onCall, reference: referenceAt(budget) });
      const perCall = estimateCalls(replayed, model.cache, model.pricing, replyTokens, warm);
      runs.push({ ...summarizeRun(budget, retention, perCall), perCall });
    }
  }
  const recommendation = recommend(runs, input.quality) ?? noRoom(input.quality, prefix, infeasible);
  const bill = recordedBill(messages, model.pricing);
  return {
    source: input.source,
    model: { ...model, pricesCollected: input.pricesCollected },
    prefix: { ...prefix, inference },
    calls,
    budgets,
    infeasible,
    swept: input.budgets === undefined,
    retentions: [...input.retentions],
    runs,
    recommendation,
    fidelity,
    bill,
    replayedBill: fidelity ? replayedBill(fidelity, model.cache, model.pricing, bill) : null,
    saving: savingOf(recommendation, bill),
    compactionsLeftOut: messages.length - sweep.messages.length,
  };
}

/**
 * The session as the budget runs replay it (recorded compaction summaries left out),
 * with the same system prompt (the inferred prefix's stand-in included), tools and
 * token scale: what the context-policy comparison must replay to be comparable.
 */
export function policySession(
  input: Pick<BudgetAnalysisInput, 'messages' | 'system' | 'tools'>,
  analysis: Pick<BudgetAnalysis, 'prefix'>,
): { messages: readonly Message[]; system: string | undefined; tools: readonly ToolSpec[] | undefined; factor: number } {
  const inference = analysis.prefix.inference;
  return {
    messages: sweepInput(input.messages).messages,
    system: withInferredPrefix(input.system, inference, input.messages),
    tools: input.tools,
    factor: inference?.factor ?? 1,
  };
}

/** The budgets at or below the prefix, each with why and the smallest feasible budget (measured once, when needed). */
function infeasibleBudgets(
  budgets: readonly number[],
  prefix: { systemTokens: number; toolTokens: number; totalTokens: number },
  smallest: () => number,
): InfeasibleBudget[] {
  const below = budgets.filter((budget) => budget <= prefix.totalTokens);
  if (below.length === 0) return [];
  const smallestFeasible = Math.max(smallest(), prefix.totalTokens + 1);
  const reason =
    `below what every call starts with: ${formatCount(prefix.totalTokens)} tokens (system prompt ${formatCount(prefix.systemTokens)}, ` +
    `tools ${formatCount(prefix.toolTokens)}, reply priming ${formatCount(prefix.totalTokens - prefix.systemTokens - prefix.toolTokens)})`;
  return below.map((budget) => ({ budget, reason, smallestFeasible }));
}

/** The recommendation when no budget asked holds the fixed prefix. */
function noRoom(
  bar: number,
  prefix: { totalTokens: number },
  infeasible: readonly InfeasibleBudget[],
): Recommendation {
  const smallest = infeasible[0]?.smallestFeasible ?? prefix.totalTokens + 1;
  return {
    bar,
    rankedBy: 'uncached-tokens',
    best: null,
    byRetention: [],
    noRoom:
      `the fixed prefix (system prompt and tools, ${formatCount(prefix.totalTokens)} tokens) leaves no room in any budget asked; ` +
      `the smallest budget at which every call fits is ${formatCount(smallest)} tokens`,
  };
}

/** The recorded replay, the inferred prefix and scale, and the per-call comparison. */
function checkAgainstRecording(input: BudgetAnalysisInput): {
  inference: PrefixInference | null;
  fidelity: Fidelity | null;
} {
  const raw = createTokenCounter();
  const recorded = replayAsRecorded({
    messages: input.messages,
    system: input.system,
    tools: input.tools,
    counter: raw,
    billing: new BilledView(raw, input.model.pastReasoning),
  });
  if (recorded.length === 0) return { inference: null, fidelity: null };
  const name = input.model.provider ? `${input.model.provider}/${input.model.id}` : input.model.id;
  const inference = inferPrefix(recorded, {
    fallbackFactor: input.model.tokenizerFactor,
    prefixRecorded: input.prefixRecorded,
    mainModel: name,
  });
  const limit = input.prefixLimit;
  for (const group of limit && inference.inferred ? inference.groups : []) {
    const room = group.segment > 0 ? limit!.afterCompaction : limit!.start;
    if (group.prefixTokens > room) throw new ImplausiblePrefixError(input.source, group, room, limit!.measuredOn);
  }
  return { inference, fidelity: compareWithRecording(recorded, inference, input.model.cache) };
}

/**
 * The system prompt the budget replays send: the given one, then, when the prefix was
 * inferred, a stand-in of the inferred size (its text never leaves this process; only
 * its length matters to the packer and the cost).
 */
function withInferredPrefix(
  system: string | undefined,
  inference: PrefixInference | null,
  messages: readonly Message[],
): string | undefined {
  if (!inference?.inferred || inference.prefixTokens === 0) return system;
  // A system prompt of its own brings its framing; joined to another it does not.
  const framing = system === undefined && messages[0]?.role !== 'system' ? FRAMING.message : 0;
  const missing = Math.round(inference.prefixTokens / inference.factor) - framing;
  if (missing <= 0) return system;
  // One o200k token per " x": the stand-in is exactly `missing` tokens long.
  const standIn = `x${' x'.repeat(missing - 1)}`;
  return system ? `${system}\n\n${standIn}` : standIn;
}

/** The messages the budget replays pack: recorded compaction summaries left out, lines kept. */
function sweepInput(messages: readonly Message[]): Pick<ReplaySettings, 'messages' | 'lines'> {
  const kept: Message[] = [];
  const lines: number[] = [];
  messages.forEach((message, index) => {
    if (message.role === 'user' && message.compaction) return;
    kept.push(message);
    lines.push(index + 1);
  });
  return { messages: kept, lines };
}

function savingOf(recommendation: Recommendation, bill: RecordedBill): Saving | null {
  const cost = recommendation.best?.cost;
  if (cost === null || cost === undefined || bill.total === null || bill.outputCost === null) return null;
  const predicted = cost + bill.outputCost;
  const amount = bill.total - predicted;
  return { predicted, billed: bill.total, amount, share: bill.total > 0 ? amount / bill.total : 0 };
}

/** System prompt (given, then the transcript's leading system lines, as the packer folds them) and tools. */
function measurePrefix(
  messages: readonly Message[],
  system: string | undefined,
  tools: readonly ToolSpec[] | undefined,
  counter: TokenCounter,
): { systemTokens: number; toolTokens: number; totalTokens: number } {
  const parts = system ? [system] : [];
  for (const message of messages) {
    if (message.role !== 'system') break;
    parts.push(message.content);
  }
  const folded = parts.length > 0 ? parts.join('\n\n') : undefined;
  const systemTokens = folded ? counter.countSystem(folded) : 0;
  const toolTokens = tools && tools.length > 0 ? counter.countTools(tools) : 0;
  return { systemTokens, toolTokens, totalTokens: countContext(counter, { system: folded, tools, messages: [] }) };
}
