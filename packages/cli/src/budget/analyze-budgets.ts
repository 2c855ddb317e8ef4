/**
 * The whole `episodic budget` analysis of one session: a replay per budget and
 * retention, the predicted cache use and cost of each call, per-run sums, the
 * recommended budget per retention, and predicted against reported cache reads.
 */
import { EpisodicError, type Message, type Retention, type TokenCounter, type ToolSpec } from '@episodic/core';
import { countContext, FRAMING } from '@episodic/core/internal';
import { type EstimatedCall, estimateCalls } from './cache-estimate.js';
import type { PricedModel } from './priced-model.js';
import { type Recommendation, recommend } from './recommend.js';
import { countCalls, type ReplaySettings, replaySession, unlimitedBudget } from './replay.js';
import { compareReported, type ReportedComparison } from './reported-usage.js';
import { type RunSummary, summarizeRun } from './run-summary.js';

/** What to analyse. */
export interface BudgetAnalysisInput {
  /** The transcript's name as the user gave it. */
  source: string;
  messages: readonly Message[];
  /** Ascending, without duplicates. */
  budgets: readonly number[];
  retentions: readonly Retention[];
  /** A system prompt put in front of the transcript's own system lines. */
  system?: string | undefined;
  tools?: readonly ToolSpec[] | undefined;
  model: PricedModel;
  /** When the built-in prices were collected. */
  pricesCollected: string;
  counter: TokenCounter;
  /** Called after every replayed call with the calls done and the calls in all. */
  onProgress?: (done: number, total: number) => void;
}

/** One budget under one retention: its sums and every call. */
export interface BudgetRun extends RunSummary {
  perCall: EstimatedCall[];
}

/** Everything `episodic budget` prints, as `--json` prints it. */
export interface BudgetAnalysis {
  source: string;
  model: PricedModel & { pricesCollected: string };
  /** The stable prefix every call starts with. */
  prefix: { systemTokens: number; toolTokens: number; totalTokens: number };
  calls: number;
  budgets: number[];
  retentions: Retention[];
  runs: BudgetRun[];
  recommendations: Recommendation[];
  /** Null when no assistant message carries usage. */
  reported: ReportedComparison | null;
}

/** A budget cannot hold even the system prompt and tools. */
export class BudgetBelowPrefixError extends EpisodicError {
  constructor(budget: number, prefix: BudgetAnalysis['prefix']) {
    super(
      'budget_below_prefix',
      `budget ${budget} tokens is below what every call starts with: ${prefix.totalTokens} tokens ` +
        `(system prompt ${prefix.systemTokens}, tools ${prefix.toolTokens}, reply priming ` +
        `${prefix.totalTokens - prefix.systemTokens - prefix.toolTokens}). ` +
        'Ask for larger budgets, or shorten the system prompt or tools.',
    );
  }
}

/** A transcript with no assistant message has no call to replay. */
export class NoCallsError extends EpisodicError {
  constructor(source: string) {
    super('no_calls', `${source} has no assistant messages, so there is no model call to replay`);
  }
}

/** Runs the analysis. Throws {@link BudgetBelowPrefixError} or {@link NoCallsError} for input it cannot use. */
export function analyzeBudgets(input: BudgetAnalysisInput): BudgetAnalysis {
  const { messages, counter } = input;
  const calls = countCalls(messages);
  if (calls === 0) throw new NoCallsError(input.source);
  const prefix = measurePrefix(messages, input.system, input.tools, counter);
  for (const budget of input.budgets)
    if (budget <= prefix.totalTokens) throw new BudgetBelowPrefixError(budget, prefix);

  const replyTokens = counter.calibration.apply(FRAMING.reply);
  const total = calls * (input.budgets.length * input.retentions.length + 1);
  let done = 0;
  const onCall = () => input.onProgress?.(++done, total);
  // Tool results are capped even at an unlimited budget: only cuts beyond that count.
  const reference = replaySession({ ...replayBase(input), budget: unlimitedBudget, retention: 'all', onCall });
  const runs: BudgetRun[] = [];
  for (const retention of input.retentions) {
    for (const budget of input.budgets) {
      const replayed = replaySession({ ...replayBase(input), budget, retention, onCall, reference });
      const perCall = estimateCalls(replayed, input.model.cache, input.model.pricing, replyTokens);
      runs.push({ ...summarizeRun(budget, retention, perCall), perCall });
    }
  }
  const recommendations = input.retentions
    .map((retention) => recommend(runs.filter((run) => run.retention === retention)))
    .filter((found): found is Recommendation => found !== undefined);
  const reported = compareReported(
    messages,
    runs.map((run) => ({ budget: run.budget, retention: run.retention, calls: run.perCall })),
  );
  return {
    source: input.source,
    model: { ...input.model, pricesCollected: input.pricesCollected },
    prefix,
    calls,
    budgets: [...input.budgets],
    retentions: [...input.retentions],
    runs,
    recommendations,
    reported: reported ?? null,
  };
}

function replayBase(input: BudgetAnalysisInput): Pick<ReplaySettings, 'messages' | 'system' | 'tools' | 'counter'> {
  return { messages: input.messages, system: input.system, tools: input.tools, counter: input.counter };
}

/** System prompt (the option's, then the transcript's leading system lines, as the packer folds them) and tools. */
function measurePrefix(
  messages: readonly Message[],
  system: string | undefined,
  tools: readonly ToolSpec[] | undefined,
  counter: TokenCounter,
): BudgetAnalysis['prefix'] {
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
