/**
 * The HTML report of `episodic budget --html`: the same table and recommendation as
 * the text output, and charts of tokens per call by section, cumulative cost per
 * budget and cache reuse per call.
 */
import type { BudgetAnalysis, BudgetRun } from '../budget/analyze-budgets.js';
import { missLabels } from '../budget/cache-estimate.js';
import { formatRecommendation, runCells } from '../budget/format-budget.js';
import type { ReportedComparison } from '../budget/reported-usage.js';
import { formatCount, plural } from '../text-table.js';
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

/** The data embedded in the budget report. */
export interface BudgetReportData {
  /** The run the per-call charts show first: the first recommendation's, else the first. */
  initialRun: number;
  runs: RunSeries[];
  /** Reported cached tokens by transcript line, or null without usage. */
  reported: Record<string, number> | null;
}

/** The data the page script draws. */
export function budgetReportData(analysis: BudgetAnalysis): BudgetReportData {
  const first = analysis.recommendations[0];
  const initial = analysis.runs.findIndex((run) => run.retention === first?.retention && run.budget === first?.budget);
  return {
    initialRun: Math.max(0, initial),
    runs: analysis.runs.map(runSeries),
    reported: analysis.reported
      ? Object.fromEntries(analysis.reported.calls.map((call) => [String(call.line), call.reportedCached]))
      : null,
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
      cost: pick((call) => call.cost.total),
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
  const { model } = analysis;
  const name = model.provider ? `${model.provider}/${model.id}` : model.id;
  const parts = [
    `<h1>Token budgets for ${escapeHtml(analysis.source)}</h1>`,
    `<p class="meta">${escapeHtml(plural(analysis.calls, 'model call'))} replayed, priced as ${escapeHtml(name)}: ` +
      `${escapeHtml(describePrices(analysis))}.</p>`,
    `<p class="meta">Cache: ${escapeHtml(model.cache.style)}, minimum ${escapeHtml(formatCount(model.cache.minCacheableTokens))} ` +
      `tokens (${escapeHtml(model.cache.source)}). Every call starts with ${escapeHtml(formatCount(analysis.prefix.totalTokens))} ` +
      'tokens of system prompt, tools and reply priming.</p>',
  ];
  for (const retention of analysis.retentions) {
    const runs = analysis.runs.filter((run) => run.retention === retention);
    const recommendation = analysis.recommendations.find((found) => found.retention === retention);
    parts.push(`<h2>Retention ${escapeHtml(retention)}</h2>`, runTable(runs, recommendation?.budget ?? null));
    if (recommendation) parts.push(`<p class="recommendation">${escapeHtml(formatRecommendation(recommendation))}</p>`);
  }
  parts.push(
    '<h2>Charts</h2>',
    '<p><label for="run-select">Per-call charts for</label><select id="run-select"></select></p>',
    '<div class="chart"><canvas id="chart-sections" aria-label="Tokens per call by section"></canvas></div>',
    '<div class="chart"><canvas id="chart-cache" aria-label="Cache reuse per call"></canvas></div>',
    '<div class="chart"><canvas id="chart-cost" aria-label="Cumulative cost per budget"></canvas></div>',
  );
  if (analysis.reported) parts.push(reportedSection(analysis.reported));
  return parts.join('\n');
}

function describePrices({ model }: BudgetAnalysis): string {
  const { pricing } = model;
  const write = pricing.cacheWrite === undefined ? '' : `, cache write $${pricing.cacheWrite}`;
  const source = model.pricingSource.startsWith('built-in')
    ? `built-in table collected ${model.pricesCollected}; prices change, override with --pricing`
    : `from ${model.pricingSource}`;
  return `input $${pricing.input}, cached $${pricing.cachedInput}${write} per million tokens (${source})`;
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

function reportedSection(reported: ReportedComparison): string {
  const { totals } = reported;
  const missed = reported.calls.filter((call) => call.misses.length > 0);
  const rows = missed.map((call) => {
    const why = call.misses
      .map((miss) => (miss === 'unexplained' ? 'provider cached less than predicted' : missLabels[miss]))
      .join('; ');
    const cells = [
      call.call + 1,
      call.line,
      call.predictedInput,
      call.reportedInput,
      call.predictedCached,
      call.reportedCached,
    ]
      .map((value) => `<td>${escapeHtml(formatCount(value))}</td>`)
      .join('');
    return `<tr>${cells}<td class="text">${escapeHtml(why)}</td></tr>`;
  });
  return [
    '<h2>Predicted against reported cache reads</h2>',
    `<p class="meta">Compared with the replay at ${escapeHtml(formatCount(reported.budget))} tokens, retention ` +
      `${escapeHtml(reported.retention)} (the closest to the reported input), over ${escapeHtml(plural(reported.callsWithUsage, 'call'))} with usage.</p>`,
    reported.cacheReported
      ? ''
      : '<p class="meta">The recorded usage has no cached-token counts (its model did not report cache reads).</p>',
    `<p>Predicted ${escapeHtml(formatCount(totals.predictedCached))} cached of ${escapeHtml(formatCount(totals.predictedInput))} input tokens; ` +
      `reported ${escapeHtml(formatCount(totals.reportedCached))} of ${escapeHtml(formatCount(totals.reportedInput))}.</p>`,
    '<table class="reported"><tr><th>call</th><th>line</th><th>input predicted</th><th>input reported</th>' +
      '<th>cached predicted</th><th>cached reported</th><th class="text">why the cache missed</th></tr>',
    ...rows,
    '</table>',
  ].join('\n');
}
