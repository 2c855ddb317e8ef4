/**
 * The HTML report of `episodic budget --html`: what every call starts with (given or
 * inferred), the replay against the recorded input, the budget sweep as a chart of
 * cost against quality with the recommendation, the tables, and per-call charts
 * (tokens by section, cache reuse, cumulative cost).
 */
import type { BudgetAnalysis, BudgetRun } from '../budget/analyze-budgets.js';
import {
  fidelitySummary,
  formatHeading,
  formatPrefix,
  formatRecommendation,
  runCells,
} from '../budget/format-budget.js';
import { type Fidelity, gapTolerance } from '../budget/prefix-inference.js';
import { formatCount } from '../text-table.js';
import { budgetReportScript } from './budget-report-script.js';
import { escapeHtml, renderPage } from './html-page.js';

/** Per-call series of one run, as the page script reads them. */
export interface RunSeries {
  budget: number;
  budgetLabel: string;
  retention: string;
  calls: {
    line: number[];
    system: number[];
    tools: number[];
    summary: number[];
    history: number[];
    currentEpisode: number[];
    total: number[];
    reused: number[];
    cached: number[];
    cost: number[];
  };
}

/** One retention's sweep: a point per budget. */
export interface SweepSeries {
  retention: string;
  budgets: number[];
  /** Predicted input cost in USD, or null without a price. */
  cost: (number | null)[];
  /** Billed input not read from the cache. */
  uncached: number[];
  /** Share of calls that kept the current episode whole. */
  whole: number[];
}

/** The data embedded in the budget report. */
export interface BudgetReportData {
  /** The run the per-call charts show first: the recommended one, else the first. */
  initialRun: number;
  runs: RunSeries[];
  /** Reported cached tokens by transcript line, or null without usage. */
  reported: Record<string, number> | null;
  sweep: {
    /** `cost` (USD) when every run is priced, else `uncached` (tokens). */
    measure: 'cost' | 'uncached';
    bar: number;
    series: SweepSeries[];
    recommended: { retention: string; budget: number } | null;
  };
  /** Replayed against reported input per recorded call, or null without usage. */
  fidelity: { line: number[]; replayed: number[]; reported: number[] } | null;
}

/** The data the page script draws. */
export function budgetReportData(analysis: BudgetAnalysis): BudgetReportData {
  const best = analysis.recommendation.best;
  const initial = analysis.runs.findIndex((run) => run.retention === best?.retention && run.budget === best?.budget);
  const fidelity = analysis.fidelity;
  return {
    initialRun: Math.max(0, initial),
    runs: analysis.runs.map(runSeries),
    reported: fidelity ? Object.fromEntries(fidelity.calls.map((call) => [String(call.line), call.reportedCached])) : null,
    sweep: {
      measure: analysis.recommendation.rankedBy === 'cost' ? 'cost' : 'uncached',
      bar: analysis.recommendation.bar,
      series: analysis.retentions.map((retention) => sweepSeries(analysis.runs.filter((run) => run.retention === retention))),
      recommended: best ? { retention: best.retention, budget: best.budget } : null,
    },
    fidelity: fidelity
      ? {
          line: fidelity.calls.map((call) => call.line),
          replayed: fidelity.calls.map((call) => call.replayedInput),
          reported: fidelity.calls.map((call) => call.reportedInput),
        }
      : null,
  };
}

function sweepSeries(runs: readonly BudgetRun[]): SweepSeries {
  return {
    retention: runs[0]?.retention ?? '',
    budgets: runs.map((run) => run.budget),
    cost: runs.map((run) => run.cost?.total ?? null),
    uncached: runs.map((run) => run.uncachedTokens),
    whole: runs.map((run) => run.wholeShare),
  };
}

function runSeries(run: BudgetRun): RunSeries {
  const pick = (value: (call: BudgetRun['perCall'][number]) => number) => run.perCall.map(value);
  return {
    budget: run.budget,
    budgetLabel: formatCount(run.budget),
    retention: run.retention,
    calls: {
      line: pick((call) => call.line),
      system: pick((call) => call.tokens.system),
      tools: pick((call) => call.tokens.tools),
      summary: pick((call) => call.tokens.summary),
      history: pick((call) => call.tokens.history),
      currentEpisode: pick((call) => call.tokens.currentEpisode),
      total: pick((call) => call.tokens.total),
      reused: pick((call) => call.reusedTokens),
      cached: pick((call) => call.cachedTokens),
      cost: pick((call) => call.cost?.total ?? 0),
    },
  };
}

/** The whole self-contained HTML page. */
export function renderBudgetReport(analysis: BudgetAnalysis): string {
  return renderPage({
    title: `episodic budget: ${analysis.source}`,
    body: budgetBody(analysis),
    data: budgetReportData(analysis),
    script: budgetReportScript,
  });
}

const tableHeaders = [
  'budget',
  'calls',
  'input tokens',
  'cached share',
  'cost (USD)',
  'shortened calls',
  'evicted episodes',
  'reasoning kept',
  'reasoning dropped',
  'largest call',
];

function budgetBody(analysis: BudgetAnalysis): string {
  const parts = [
    `<h1>Token budgets for ${escapeHtml(analysis.source)}</h1>`,
    ...formatHeading(analysis).split('\n').slice(1).map((line) => `<p class="meta">${escapeHtml(line)}</p>`),
    '<h2>What every call starts with</h2>',
    ...formatPrefix(analysis).split('\n').map((line) => `<p class="prefix">${escapeHtml(line)}</p>`),
  ];
  if (analysis.fidelity) parts.push(fidelitySection(analysis.fidelity));
  parts.push(
    '<h2>Budget sweep: cost against quality</h2>',
    `<p class="meta">${escapeHtml(sweepCaption(analysis))}</p>`,
    '<div class="chart"><canvas id="chart-sweep" aria-label="Cost and quality per budget"></canvas></div>',
    ...formatRecommendation(analysis)
      .split('\n')
      .map((line) => `<p class="recommendation">${escapeHtml(line)}</p>`),
  );
  const best = analysis.recommendation.best;
  for (const retention of analysis.retentions) {
    const runs = analysis.runs.filter((run) => run.retention === retention);
    const marked = best?.retention === retention ? best.budget : null;
    parts.push(`<h2>Retention ${escapeHtml(retention)}</h2>`, runTable(runs, marked));
  }
  parts.push(
    '<h2>Per-call charts</h2>',
    '<p><label for="run-select">Per-call charts for</label><select id="run-select"></select></p>',
    '<div class="chart"><canvas id="chart-sections" aria-label="Tokens per call by section"></canvas></div>',
    '<div class="chart"><canvas id="chart-cache" aria-label="Cache reuse per call"></canvas></div>',
    '<div class="chart"><canvas id="chart-cost" aria-label="Cumulative cost per budget"></canvas></div>',
  );
  return parts.join('\n');
}

function sweepCaption(analysis: BudgetAnalysis): string {
  const measure =
    analysis.recommendation.rankedBy === 'cost'
      ? 'predicted input cost (USD)'
      : 'input tokens not read from the cache (no price known, so costs are n/a)';
  const budgets = analysis.swept
    ? `${analysis.budgets.length} budgets from the smallest at which every call fits to the model's window`
    : 'the budgets asked';
  return (
    `Lines: ${measure} per retention over ${budgets}. Dashed: the share of calls that keep the current episode ` +
    `whole (right axis); the bar is ${(analysis.recommendation.bar * 100).toFixed(1)}%.`
  );
}

function fidelitySection(fidelity: Fidelity): string {
  const flagged = fidelity.calls
    .filter((call) => Math.abs(call.gap) > gapTolerance)
    .sort((a, b) => Math.abs(b.gap) - Math.abs(a.gap));
  const rows = flagged.map((call) => {
    const cells = [call.call + 1, call.line, call.replayedInput, call.reportedInput]
      .map((value) => `<td>${escapeHtml(formatCount(value))}</td>`)
      .join('');
    return `<tr>${cells}<td>${escapeHtml(`${(call.gap * 100).toFixed(1)}%`)}</td></tr>`;
  });
  return [
    '<h2>Replayed against recorded input</h2>',
    ...fidelitySummary(fidelity).map((line) => `<p class="meta">${escapeHtml(line)}</p>`),
    '<div class="chart"><canvas id="chart-fidelity" aria-label="Replayed and reported input per call"></canvas></div>',
    flagged.length === 0
      ? ''
      : '<table class="flagged"><tr><th>call</th><th>line</th><th>replayed</th><th>reported</th><th>gap</th></tr>\n' +
        `${rows.join('\n')}\n</table>`,
  ].join('\n');
}

function runTable(runs: readonly BudgetRun[], recommended: number | null): string {
  const head = `<tr>${tableHeaders.map((header) => `<th>${header}</th>`).join('')}</tr>`;
  const rows = runs.map((run) => {
    const cells = runCells(run);
    const marker = run.budget === recommended ? ' class="recommended"' : '';
    return (
      `<tr${marker} data-budget="${run.budget}" data-retention="${escapeHtml(run.retention)}">` +
      `${cells.map((cell) => `<td>${escapeHtml(cell)}</td>`).join('')}</tr>`
    );
  });
  return `<table class="runs">\n${head}\n${rows.join('\n')}\n</table>`;
}
