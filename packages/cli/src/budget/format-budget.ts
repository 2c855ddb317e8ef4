/**
 * Human output of `episodic budget`: what was priced and how, what every call starts
 * with (given or inferred), the replay against the recorded usage, a table per
 * retention, and the recommendation with its saving against what was billed.
 */
import { toolResultCaps } from '@episodic/core/internal';
import { type Column, formatCount, formatTable, plural } from '../text-table.js';
import type { BudgetAnalysis, BudgetRun, InfeasibleBudget } from './analyze-budgets.js';
import { type CallComparison, type Fidelity, gapTolerance, type PrefixInference } from './prefix-inference.js';
import type { Recommendation, RunChoice } from './recommend.js';

/** Flagged calls listed in the terminal; the rest are in --json and --html. */
const listedFlaggedCalls = 10;

const runColumns: readonly Column[] = [
  { header: 'budget', align: 'right' },
  { header: 'calls', align: 'right' },
  { header: 'input tokens', align: 'right' },
  { header: 'cached share', align: 'right' },
  { header: 'cost (USD)', align: 'right' },
  { header: 'shortened calls', align: 'right' },
  { header: 'evicted episodes', align: 'right' },
  { header: 'reasoning kept/dropped', align: 'right' },
  { header: 'largest call', align: 'right' },
];

/** The whole human report. */
export function formatBudgetReport(analysis: BudgetAnalysis): string {
  const sections = [formatHeading(analysis), formatPrefix(analysis)];
  if (analysis.fidelity) sections.push(formatFidelity(analysis.fidelity));
  for (const retention of analysis.retentions) {
    sections.push(formatRuns(retention, analysis.runs.filter((run) => run.retention === retention), analysis.infeasible));
  }
  sections.push(formatRecommendation(analysis));
  return sections.join('\n\n');
}

/** The heading: the session, the model and its prices, cache and reasoning billing, notes. */
export function formatHeading(analysis: BudgetAnalysis): string {
  const { model } = analysis;
  const name = model.provider ? `${model.provider}/${model.id}` : model.id;
  const from = { option: 'from --model', transcript: 'from the transcript', unknown: 'not recorded: pass --model' }[model.from];
  const { pricing } = model;
  const prices = pricing
    ? `input ${usd(pricing.input)}, cached ${usd(pricing.cachedInput)}` +
      (model.cache.style === 'anthropic-breakpoints' ? `, cache write ${usd(pricing.cacheWrite ?? pricing.input)}` : '') +
      `, output ${usd(pricing.output)} per million tokens (` +
      (model.pricingSource.startsWith('built-in')
        ? `built-in prices collected ${model.pricesCollected}; prices change, override with --pricing`
        : `prices from ${model.pricingSource}`) +
      ')'
    : 'no price known, so costs are n/a (tokens and cache shares are still right): pass --pricing FILE, or --model to price it as another model';
  const cache =
    model.cache.style === 'none'
      ? 'no prompt cache known for this model, so nothing is predicted cached'
      : `${model.cache.style} cache from ${formatCount(model.cache.minCacheableTokens)} tokens` +
        (model.cache.source === 'assumed' ? ' (assumed for the provider: the model has no profile)' : '');
  const reasoning =
    (model.pastReasoning === 'stripped'
      ? 'the provider drops reasoning of earlier turns before counting (not billed)'
      : 'the provider bills reasoning of earlier turns that is sent back as input') +
    (model.reasoningBound ? '; thinking is bound to its prefix: a block sent after a changed prefix is left out (not billed)' : '');
  const lines = [
    `${analysis.source === '-' ? 'standard input' : analysis.source}: ${plural(analysis.calls, 'model call')} replayed`,
    `Model ${name} (${from}): ${prices}`,
    `Cache: ${cache}; ${reasoning}`,
  ];
  if (model.otherModels.length > 0) lines.push(`Note: the transcript also has calls by ${model.otherModels.join(', ')}`);
  if (analysis.compactionsLeftOut > 0) {
    lines.push(
      `Note: the recording agent's compaction summaries (${analysis.compactionsLeftOut}) are left out of the ` +
        'budget replays: Episodic evicts whole episodes instead',
    );
  }
  return lines.join('\n');
}

/** What every call starts with: given, inferred (and how), or missing. */
export function formatPrefix(analysis: BudgetAnalysis): string {
  const { prefix } = analysis;
  const inference = prefix.inference;
  const given = prefix.totalTokens;
  if (inference?.inferred && inference.main) return formatInference(inference, given);
  const scale = inference ? ` Local counts are scaled by ${inference.factor.toFixed(2)} to the provider's tokenizer, fitted on the recorded usage.` : '';
  if (prefix.systemTokens + prefix.toolTokens === 0) {
    return (
      'What every call starts with: nothing the transcript holds (no system prompt, no tools) and no recorded usage ' +
      `to infer it from: pass --system FILE and --tools FILE to send what the agent sent.${scale}`
    );
  }
  return (
    `What every call starts with: ${formatCount(given)} tokens (system prompt ${formatCount(prefix.systemTokens)}, ` +
    `tools ${formatCount(prefix.toolTokens)}, reply priming ${formatCount(given - prefix.systemTokens - prefix.toolTokens)}).${scale}`
  );
}

function formatInference(inference: PrefixInference, total: number): string {
  const main = inference.main!;
  const lines = [
    `What every call starts with: the recording holds no system prompt or tool definitions, so their size is inferred ` +
      `from the first call's reported input: ${formatCount(main.prefixTokens)} tokens (line ${main.firstLine}, ` +
      `${main.model}). The budget replays send a stand-in of that size (${formatCount(total)} tokens with reply priming).`,
    `Local token counts are scaled by ${main.factor.toFixed(2)} to the provider's tokenizer ` +
      `(${main.factorSource === 'fitted' ? 'fitted on the recorded usage' : main.factorSource === 'session' ? 'fitted on the whole session' : "the profile's factor"}).`,
  ];
  const others = inference.groups.filter((group) => group !== main);
  if (others.length > 0) {
    const listed = others
      .slice(0, 6)
      .map((group) => `${formatCount(group.prefixTokens)} from line ${group.firstLine} (${group.segment > 0 ? `after compaction ${group.segment}, ` : ''}${group.model})`);
    lines.push(
      `Other parts of the session start differently (after a compaction the agent adds context; another model has ` +
        `its own tokenizer): ${listed.join('; ')}${others.length > 6 ? '; ...' : ''}.`,
    );
  }
  return lines.join('\n');
}

const flaggedColumns: readonly Column[] = [
  { header: 'call', align: 'right' },
  { header: 'line', align: 'right' },
  { header: 'replayed', align: 'right', group: 'input' },
  { header: 'reported', align: 'right', group: 'input' },
  { header: 'gap', align: 'right' },
  { header: 'predicted', align: 'right', group: 'cached' },
  { header: 'reported', align: 'right', group: 'cached' },
];

/** The replay against the recording in two sentences, then why flagged calls are off. */
export function fidelitySummary(fidelity: Fidelity): string[] {
  const calls = fidelity.calls;
  const within = calls.filter((call) => Math.abs(call.gap) <= gapTolerance).length;
  const sum = (pick: (call: CallComparison) => number) => calls.reduce((total, call) => total + pick(call), 0);
  const worst = fidelity.worst;
  return [
    `Replayed against recorded input, call by call (${plural(calls.length, 'call')} with usage): ` +
      `${formatCount(within)} within ${gapTolerance * 100}% (${percent(fidelity.withinShare)})` +
      (worst ? `; the largest gap is ${signedPercent(worst.gap)} at line ${worst.line}.` : '.'),
    `Input in all: replayed ${formatCount(sum((call) => call.replayedInput))}, reported ${formatCount(sum((call) => call.reportedInput))}. ` +
      `Read from the cache: predicted ${formatCount(sum((call) => call.predictedCached))}, reported ${formatCount(sum((call) => call.reportedCached))}.`,
    ...fidelity.notes.map((note) => `Why: ${note}.`),
  ];
}

function formatFidelity(fidelity: Fidelity): string {
  const lines = fidelitySummary(fidelity);
  const calls = fidelity.calls;
  const flagged = calls.filter((call) => Math.abs(call.gap) > gapTolerance);
  if (flagged.length > 0) {
    const listed = [...flagged].sort((a, b) => Math.abs(b.gap) - Math.abs(a.gap)).slice(0, listedFlaggedCalls);
    lines.push(`Calls more than ${gapTolerance * 100}% off (${formatCount(flagged.length)}, largest first):`, formatTable(flaggedColumns, listed.map(flaggedRow)));
    if (flagged.length > listed.length) lines.push(`... and ${plural(flagged.length - listed.length, 'more call')}: see --json or --html.`);
  }
  return lines.join('\n');
}

function flaggedRow(call: CallComparison): string[] {
  return [
    String(call.call + 1),
    String(call.line),
    formatCount(call.replayedInput),
    formatCount(call.reportedInput),
    signedPercent(call.gap),
    formatCount(call.predictedCached),
    formatCount(call.reportedCached),
  ];
}

/**
 * One run's figures as table cells: budget, calls, input tokens, cached share, cost,
 * shortened calls, evicted episodes, reasoning kept, reasoning dropped, largest call.
 * The terminal table and the HTML report show the same cells.
 */
export function runCells(run: BudgetRun): string[] {
  return [
    formatCount(run.budget),
    formatCount(run.calls),
    formatCount(run.inputTokens),
    percent(run.cachedShare),
    run.cost ? money(run.cost.total) : 'n/a',
    formatCount(run.shortenedCalls),
    formatCount(run.evictedEpisodes),
    formatCount(run.reasoningKeptTokens),
    formatCount(run.reasoningDroppedTokens),
    run.largestCall ? formatCount(run.largestCall.tokens) : '-',
  ];
}

function formatRuns(retention: string, runs: readonly BudgetRun[], infeasible: readonly InfeasibleBudget[]): string {
  const rows = runs.map((run) => {
    const cells = runCells(run);
    // Reasoning kept and dropped share one terminal column.
    return [...cells.slice(0, 7), `${cells[7]} / ${cells[8]}`, ...cells.slice(9)];
  });
  // Infeasible budgets are rows too, in budget order, marked so; the reason follows the table.
  for (const entry of infeasible) rows.push([formatCount(entry.budget), 'infeasible', ...runColumns.slice(2).map(() => '-')]);
  rows.sort((a, b) => Number(a[0]!.replace(/,/g, '')) - Number(b[0]!.replace(/,/g, '')));
  const lines = [`Retention ${retention}`, formatTable(runColumns, rows)];
  for (const entry of infeasible) {
    lines.push(`${formatCount(entry.budget)} tokens is infeasible: ${entry.reason}; the smallest feasible budget is ${formatCount(entry.smallestFeasible)} tokens.`);
  }
  for (const run of runs) {
    if (run.overflowCalls > 0) {
      lines.push(
        `At ${formatCount(run.budget)} tokens ${plural(run.overflowCalls, 'call')} did not fit at all ` +
          '(counted as shortened, not in the token and cost sums).',
      );
    }
  }
  return lines.join('\n');
}

/** The recommendation, per retention and over all, with the saving against what was billed. */
export function formatRecommendation(analysis: BudgetAnalysis): string {
  const recommendation = analysis.recommendation;
  const bar = percent(recommendation.bar);
  const best = recommendation.best;
  const lines: string[] = [];
  if (recommendation.noRoom !== undefined) return `Recommendation: none: ${recommendation.noRoom}.`;
  if (!best) {
    const closest = [...recommendation.byRetention].sort((a, b) => b.closest.wholeShare - a.closest.wholeShare)[0]!.closest;
    lines.push(
      `Recommendation: no budget here keeps the current episode whole in ${bar} of calls; the closest is ` +
        `${formatCount(closest.budget)} tokens with retention ${closest.retention} (${percent(closest.wholeShare)}). ` +
        'Try larger budgets, or set a lower bar with --quality.',
    );
  } else {
    lines.push(
      `Recommendation: ${formatCount(best.budget)} tokens with retention ${best.retention}, the cheapest run that keeps ` +
        `the current episode whole in at least ${bar} of calls (${percent(best.wholeShare)}; ` +
        `${plural(best.evictedEpisodes, 'episode')} evicted, ${formatCount(best.reasoningDroppedTokens)} reasoning tokens dropped): ` +
        `${priceOf(best, recommendation)}.`,
    );
    const { currentCap } = toolResultCaps({ budget: best.budget });
    lines.push(
      `At that budget the current episode's tool results are cut to ${formatCount(currentCap)} tokens each (head and ` +
        'tail kept; such cuts do not count as shortening): set currentToolResultCap in your agent if it needs more.',
    );
    lines.push(formatSaving(analysis));
  }
  lines.push(`By retention: ${recommendation.byRetention.map((entry) => retentionLine(entry, recommendation)).join('; ')}.`);
  if (analysis.infeasible.length > 0) {
    lines.push(
      `Left out: ${analysis.infeasible.map((entry) => formatCount(entry.budget)).join(', ')} tokens (infeasible: the fixed ` +
        `prefix leaves no room; the smallest feasible budget is ${formatCount(analysis.infeasible[0]!.smallestFeasible)} tokens).`,
    );
  }
  return lines.join('\n');
}

function retentionLine(entry: Recommendation['byRetention'][number], recommendation: Recommendation): string {
  if (!entry.choice) return `${entry.retention}: none meets the bar (best ${percent(entry.closest.wholeShare)} at ${formatCount(entry.closest.budget)})`;
  return `${entry.retention} ${formatCount(entry.choice.budget)} (${priceOf(entry.choice, recommendation)})`;
}

function priceOf(choice: RunChoice, recommendation: Recommendation): string {
  if (recommendation.rankedBy === 'cost' && choice.cost !== null) return `${money(choice.cost)} of input`;
  return `${formatCount(choice.uncachedTokens)} input tokens not read from the cache, cost n/a`;
}

function formatSaving(analysis: BudgetAnalysis): string {
  const { saving, bill } = analysis;
  if (!saving) {
    if (bill.calls === 0) return 'No usage is recorded, so there is no bill to compare with.';
    return 'Saving: n/a (no price known for the recorded calls).';
  }
  const source = bill.source === 'recorded-costs' ? 'the costs the agent recorded' : 'the recorded usage at these prices';
  const direction = saving.amount >= 0 ? `saves ${money(saving.amount)} (${percent(saving.share)})` : `costs ${money(-saving.amount)} more (${percent(-saving.share)})`;
  const replayed = analysis.replayedBill;
  const check =
    replayed === null
      ? ''
      : ` Priced the same way, the replay of what the recording sent comes to ${money(replayed)} ` +
        `(${signedPercent(saving.billed > 0 ? (replayed - saving.billed) / saving.billed : 0)} against the bill: the recording ` +
        `agent cached differently, or the estimate is off by that much); against that replay the recommendation ` +
        `${replayed >= saving.predicted ? 'saves' : 'costs'} ${percent(Math.abs(replayed - saving.predicted) / Math.max(replayed, 1e-9))}` +
        `${replayed >= saving.predicted ? '' : ' more'}.`;
  return (
    `Against what the session was billed: ${money(saving.predicted)} predicted (replayed input plus the recorded output) ` +
    `against ${money(saving.billed)} billed (${source}): ${direction}.${check}`
  );
}

/** A share as a percentage with one decimal. */
export function percent(share: number): string {
  return `${(share * 100).toFixed(1)}%`;
}

function signedPercent(share: number): string {
  return `${share > 0 ? '+' : ''}${(share * 100).toFixed(1)}%`;
}

/**
 * USD, one format for the whole report: cents from ten cents up ($1.65, $0.40), two
 * significant digits below ($0.012, $0.0012), where cents would read as nothing.
 */
export function money(value: number): string {
  const size = Math.abs(value);
  if (size >= 0.1 || size === 0) return `${value < 0 ? '-' : ''}$${size.toFixed(2)}`;
  return `${value < 0 ? '-' : ''}$${Number(size.toPrecision(2)).toString()}`;
}

function usd(perMillion: number): string {
  return `$${perMillion}`;
}
