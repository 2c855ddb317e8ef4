/**
 * Human output of `episodic budget`: a heading, a table per retention with the
 * recommendation under it, and predicted against reported cache reads when the
 * transcript carries usage.
 */
import { type Column, formatCount, formatTable, plural } from '../text-table.js';
import type { BudgetAnalysis, BudgetRun } from './analyze-budgets.js';
import { missLabels } from './cache-estimate.js';
import type { Recommendation } from './recommend.js';
import type { ReportedCall, ReportedComparison } from './reported-usage.js';

/** Calls listed in the predicted-against-reported section; the rest are in --json and --html. */
const listedReportedCalls = 20;

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
  const sections = [formatHeading(analysis)];
  for (const retention of analysis.retentions) {
    const runs = analysis.runs.filter((run) => run.retention === retention);
    const recommendation = analysis.recommendations.find((found) => found.retention === retention);
    sections.push(formatRuns(retention, runs, recommendation));
  }
  if (analysis.reported) sections.push(formatReported(analysis.reported));
  return sections.join('\n\n');
}

function formatHeading(analysis: BudgetAnalysis): string {
  const { model, prefix } = analysis;
  const name = model.provider ? `${model.provider}/${model.id}` : model.id;
  const { pricing } = model;
  const prices =
    `input ${usd(pricing.input)}, cached ${usd(pricing.cachedInput)}` +
    (model.cache.style === 'anthropic-breakpoints' ? `, cache write ${usd(pricing.cacheWrite ?? pricing.input)}` : '');
  const source = model.pricingSource.startsWith('built-in')
    ? `built-in prices collected ${model.pricesCollected}; prices change, override with --pricing`
    : `prices from ${model.pricingSource}`;
  const cache =
    model.cache.style === 'none'
      ? 'no prompt cache known for this model, so nothing is predicted cached'
      : `${model.cache.style} cache from ${formatCount(model.cache.minCacheableTokens)} tokens` +
        (model.cache.source === 'assumed' ? ' (assumed for the provider: the model has no profile)' : '');
  const prefixLine =
    prefix.systemTokens + prefix.toolTokens === 0
      ? 'No system prompt or tools: pass --system FILE and --tools FILE to send what the agent sent'
      : `Every call starts with ${formatCount(prefix.totalTokens)} tokens of system prompt, tools and reply priming`;
  const lines = [
    `${analysis.source === '-' ? 'standard input' : analysis.source}: ${plural(analysis.calls, 'model call')} replayed`,
    `Priced as ${name} (${model.from === 'option' ? 'from --model' : 'from the transcript'}): ${prices} per million tokens (${source})`,
    `Cache: ${cache}`,
    prefixLine,
  ];
  if (model.otherModels.length > 0)
    lines.push(`Note: the transcript also has calls by ${model.otherModels.join(', ')}`);
  return lines.join('\n');
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
    money(run.cost.total),
    formatCount(run.shortenedCalls),
    formatCount(run.evictedEpisodes),
    formatCount(run.reasoningKeptTokens),
    formatCount(run.reasoningDroppedTokens),
    run.largestCall ? formatCount(run.largestCall.tokens) : '-',
  ];
}

function formatRuns(retention: string, runs: readonly BudgetRun[], recommendation?: Recommendation): string {
  const rows = runs.map((run) => {
    const cells = runCells(run);
    // Reasoning kept and dropped share one terminal column.
    return [...cells.slice(0, 7), `${cells[7]} / ${cells[8]}`, ...cells.slice(9)];
  });
  const lines = [`Retention ${retention}`, formatTable(runColumns, rows)];
  for (const run of runs) {
    if (run.overflowCalls > 0) {
      lines.push(
        `At ${formatCount(run.budget)} tokens ${plural(run.overflowCalls, 'call')} did not fit at all ` +
          '(counted as shortened, not in the token and cost sums).',
      );
    }
  }
  if (recommendation) lines.push(formatRecommendation(recommendation));
  return lines.join('\n');
}

/** The recommendation line under a table. */
export function formatRecommendation(recommendation: Recommendation): string {
  const { largest } = recommendation;
  if (recommendation.budget === null || recommendation.cost === null) {
    const best = recommendation.best!;
    return (
      `Recommendation: none of these budgets keeps the current episode whole in 99% of calls; ` +
      `the best, ${formatCount(best.budget)} tokens, does in ${percent(best.wholeShare)}. Try larger budgets.`
    );
  }
  const head =
    `Recommendation: ${formatCount(recommendation.budget)} tokens, the smallest that keeps the current episode ` +
    `whole in at least 99% of calls (${percent(recommendation.wholeShare)})`;
  if (recommendation.budget === largest.budget) {
    return `${head}; it is the largest budget asked, so smaller ones may not be worth it (${money(largest.cost)}).`;
  }
  const change = largest.cost > 0 ? (recommendation.cost - largest.cost) / largest.cost : 0;
  return (
    `${head}: ${money(recommendation.cost)} against ${money(largest.cost)} at ${formatCount(largest.budget)} ` +
    `(${change <= 0 ? '' : '+'}${(change * 100).toFixed(1)}%).`
  );
}

const reportedColumns: readonly Column[] = [
  { header: 'call', align: 'right' },
  { header: 'line', align: 'right' },
  { header: 'predicted', align: 'right', group: 'input' },
  { header: 'reported', align: 'right', group: 'input' },
  { header: 'predicted', align: 'right', group: 'cached' },
  { header: 'reported', align: 'right', group: 'cached' },
  { header: 'why the cache missed' },
];

function formatReported(reported: ReportedComparison): string {
  const { totals } = reported;
  const share = (cached: number, input: number) => percent(input > 0 ? cached / input : 0);
  const missed = reported.calls.filter((call) => call.misses.length > 0);
  const listed = missed.slice(0, listedReportedCalls);
  const lines = [
    `Predicted against reported cache reads (${plural(reported.callsWithUsage, 'call')} with usage; compared with ` +
      `the replay at ${formatCount(reported.budget)} tokens, retention ${reported.retention}, the closest to the reported input)`,
    `Total: predicted ${formatCount(totals.predictedCached)} cached of ${formatCount(totals.predictedInput)} input ` +
      `(${share(totals.predictedCached, totals.predictedInput)}); reported ${formatCount(totals.reportedCached)} of ` +
      `${formatCount(totals.reportedInput)} (${share(totals.reportedCached, totals.reportedInput)})`,
  ];
  if (!reported.cacheReported) {
    lines.push('Note: the recorded usage has no cached-token counts (its model did not report cache reads).');
  }
  if (reported.recordedBy.length > 0) lines.push(`Usage recorded by ${reported.recordedBy.join(', ')}`);
  if (listed.length === 0) {
    lines.push('Every call with usage reused the whole previous prompt as predicted.');
    return lines.join('\n');
  }
  lines.push(
    `Calls where the cache missed (${formatCount(missed.length)}):`,
    formatTable(reportedColumns, listed.map(reportedRow)),
  );
  if (missed.length > listed.length) {
    lines.push(`... and ${plural(missed.length - listed.length, 'more call')}: see --json or --html.`);
  }
  return lines.join('\n');
}

function reportedRow(call: ReportedCall): string[] {
  const why = call.misses.map((miss) =>
    miss === 'unexplained'
      ? 'provider cached less than predicted (expired entry, routing or tokenizer)'
      : missLabels[miss],
  );
  return [
    String(call.call + 1),
    String(call.line),
    formatCount(call.predictedInput),
    formatCount(call.reportedInput),
    formatCount(call.predictedCached),
    formatCount(call.reportedCached),
    why.join('; '),
  ];
}

/** A share as a percentage with one decimal. */
export function percent(share: number): string {
  return `${(share * 100).toFixed(1)}%`;
}

/** USD: cents for amounts from a dollar up, four decimals below. */
export function money(value: number): string {
  return `$${value >= 1 ? value.toFixed(2) : value.toFixed(4)}`;
}

function usd(perMillion: number): string {
  return `$${perMillion}`;
}
