/**
 * `episodic budget FILE`: replays a recorded session call by call under many budgets
 * and each retention, as the provider bills it, and recommends the cheapest budget
 * that meets a quality bar; checks the replay against the recorded usage first,
 * inferring the system prompt and tools the recording lacks.
 */
import type { Retention } from '@episodic/core';
import { analyzeBudgets, NoCallsError, policySession } from '../budget/analyze-budgets.js';
import { formatBudgetReport } from '../budget/format-budget.js';
import { readSystemFile, readToolsFile } from '../budget/input-files.js';
import { choosePricedModel } from '../budget/priced-model.js';
import { comparePolicies, formatPolicyComparison } from '../budget/policy-comparison.js';
import { loadPrices } from '../budget/pricing.js';
import { createProgressBar, type ProgressBar, silentProgress } from '../budget/progress-bar.js';
import { defaultQualityBar } from '../budget/recommend.js';
import { countCalls } from '../budget/replay.js';
import { type CliIo, type Command, ExitCode, parseCommandArgs, UsageError } from '../command.js';
import { importSummary } from '../import/import-session.js';
import { parseBudget } from '../parse-budget.js';
import { readSessionSource, storeHelp, storeOptions } from '../store-source.js';
import { renderBudgetReport } from '../report/budget-report.js';
import { assertNotInput, writeReport } from '../report/write-report.js';
import { prefixLimit } from '../import/known-prefixes.js';

/** Every retention policy. */
const retentions = ['episode', 'tool-episodes', 'all', 'none'] as const satisfies readonly Retention[];
/** Compared when --retention is not given: what differs in cost on real sessions. */
const defaultRetentions: readonly Retention[] = ['episode', 'tool-episodes', 'all'];

const options = {
  budgets: { type: 'string', short: 'b' },
  retention: { type: 'string', short: 'r' },
  quality: { type: 'string', short: 'q' },
  model: { type: 'string', short: 'm' },
  pricing: { type: 'string' },
  system: { type: 'string' },
  tools: { type: 'string' },
  json: { type: 'boolean' },
  html: { type: 'string' },
  progress: { type: 'boolean' },
  ...storeOptions,
} as const;

/** `episodic budget`. */
export const budgetCommand: Command = {
  name: 'budget',
  summary: 'Replay a recorded session under many budgets: tokens, cache, cost, a recommendation',
  usage:
    'episodic budget FILE|-|--store SPEC --session ID [--from SOURCE] [--budgets LIST] [--retention LIST] ' +
    '[--quality SHARE] [--model ID] [--pricing FILE] [--system FILE] [--tools FILE] [--json] [--html FILE] [--progress]',
  help: `Replays a recorded session (a transcript, - for standard input, a stored session, or
another agent's recording with --from) call by call, one call per assistant message,
each packing the transcript before it as a live session would, under every budget and
retention, and counts each call as the provider bills it (whether it bills reasoning of
earlier turns comes from the model's profile).

First the session is replayed as it was recorded and set beside the usage it recorded,
call by call. A recording without the system prompt and tool definitions (agent
sessions) gets their size inferred from the first call's reported input, and the local
token counts scaled to the provider's tokenizer; calls more than 10% off are listed.

Per budget: input tokens, the predicted cached share, the cost (n/a when no price is
known), calls whose current episode was shortened, evicted episodes, reasoning kept and
dropped, and the largest call. Then the recommendation: the cheapest budget and
retention that keeps the current episode whole in at least the --quality share of
calls, and its predicted saving against what the recorded session was billed.

Last, the context policies the provider supports (packer; native and hybrid where it
compacts server-side) replayed at the largest budget, side by side: cost, cache reuse,
and what compaction replaced by summaries. The providers' own management is modelled
from their documented rules (the report says how), not measured. Where the provider
compacts, hybrid is replayed twice more: the calls after each compaction continuing from
the provider's native item, or from Episodic's text summary of it (what a fallback model
or another provider reads): tokens per request, cached share, cost, and what keeping a
text summary beside every native item costs.

Options:
  -b, --budgets LIST     Budgets to try, comma-separated: 16k,32k,64k,128k (default: a
                         sweep from the smallest at which every call fits to the window)
  -r, --retention LIST   Retention policies, comma-separated: ${retentions.join(', ')}
                         (default ${defaultRetentions.join(',')})
  -q, --quality SHARE    Share of calls that must keep the current episode whole
                         (default ${defaultQualityBar}; 0.95 or 95%)
  -m, --model ID         Price as this model: provider/id or id (default: the model
                         on the transcript's latest assistant message)
      --pricing FILE     JSON prices put in front of the built-in table:
                         {"models":[{"provider":"openai","pattern":"gpt-5",
                         "input":1.25,"cachedInput":0.125,"output":10}]} (USD per million)
      --system FILE      System prompt sent before the transcript's own (a text file)
      --tools FILE       Tool definitions sent with every call (JSON array of
                         {name, description, inputSchema}); a transcript does not hold them
      --json             Print one JSON object with every run and call
      --html FILE        Also write a self-contained HTML report with charts
      --progress         Draw the progress bar even when stderr is not a terminal
${storeHelp}`,

  async run(argv, io) {
    const { values, positionals } = parseCommandArgs(argv, options);
    const budgets = values.budgets === undefined ? undefined : parseBudgetList(values.budgets);
    const retentionList = parseRetentions(values.retention);
    const quality = parseQuality(values.quality);

    const { source, messages, imported } = await readSessionSource(values, positionals, io.stdin, 'budget');
    if (values.html !== undefined && values.store === undefined) await assertNotInput(values.html, source);
    if (imported) io.stderr.write(`${importSummary(imported)}\n`);
    // Before pricing: with no call at all, asking for --model would send the user the wrong way.
    if (countCalls(messages) === 0) throw new NoCallsError(source);
    const system = values.system === undefined ? undefined : await readSystemFile(values.system);
    const tools = values.tools === undefined ? imported?.tools : await readToolsFile(values.tools);
    const prices = await loadPrices(values.pricing);
    const model = choosePricedModel(values.model, messages, prices, imported?.provider);

    const progress = progressFor(io, values);
    let analysis: ReturnType<typeof analyzeBudgets>;
    try {
      analysis = analyzeBudgets({
        source,
        messages,
        budgets,
        retentions: retentionList,
        system,
        tools,
        prefixRecorded: imported?.prefixRecorded === true || system !== undefined || tools !== undefined,
        prefixLimit: imported ? prefixLimit(imported.source, imported.agentVersion, imported.prefixShown) : undefined,
        model,
        pricesCollected: prices.collected,
        quality,
        onProgress: (done, total) => progress.update(done, total),
      });
    } finally {
      progress.done();
    }

    if (values.html !== undefined) await writeReport(values.html, renderBudgetReport(analysis));
    // At the largest budget tried (the model's window when swept), as an agent runs by default.
    const largest = Math.max(...analysis.budgets);
    const row = analysis.runs.find((run) => run.budget === largest && run.retention === 'episode');
    const tableRun = row && { budget: largest, inputTokens: row.inputTokens, cost: row.cost?.total ?? null, cachedShare: row.cachedShare };
    const policies = comparePolicies(policySession({ messages, system, tools }, analysis), model, largest, tableRun ?? null);
    if (values.json) {
      io.stdout.write(`${JSON.stringify({ ...analysis, contextPolicies: policies }, jsonNumbers, 2)}\n`);
    } else {
      io.stdout.write(`${formatBudgetReport(analysis)}\n\n${formatPolicyComparison(policies)}\n`);
    }
    if (values.html !== undefined) io.stderr.write(`Wrote the HTML report to ${values.html}\n`);
    return ExitCode.ok;
  },
};

/** Budgets from `16k,32k,64k`, ascending and without repeats. */
function parseBudgetList(text: string): number[] {
  const items = text.split(',').map((item) => item.trim());
  if (items.some((item) => item === ''))
    throw new UsageError(`bad --budgets "${text}": use a list such as 16k,32k,64k`);
  return [...new Set(items.map(parseBudget))].sort((a, b) => a - b);
}

function parseRetentions(text: string | undefined): Retention[] {
  if (text === undefined) return [...defaultRetentions];
  const found = text.split(',').map((item) => {
    const name = item.trim();
    const retention = retentions.find((candidate) => candidate === name);
    if (!retention) throw new UsageError(`unknown retention "${name}": use one of ${retentions.join(', ')}`);
    return retention;
  });
  return [...new Set(found)];
}

/** `0.99`, `99%` or `99`: a share between 0 and 1. */
function parseQuality(text: string | undefined): number {
  if (text === undefined) return defaultQualityBar;
  const trimmed = text.trim();
  const number = Number(trimmed.endsWith('%') ? trimmed.slice(0, -1) : trimmed);
  const share = trimmed.endsWith('%') || number > 1 ? number / 100 : number;
  if (!Number.isFinite(share) || share < 0 || share > 1 || trimmed === '') {
    throw new UsageError(`bad --quality "${text}": give a share of calls such as 0.99 or 99%`);
  }
  return share;
}

/** A bar on stderr when it is a terminal (or --progress), never mixed into --json on stdout. */
function progressFor(io: CliIo, values: { progress?: boolean }): ProgressBar {
  const terminal = (io.stderr as { isTTY?: boolean }).isTTY === true;
  return values.progress || terminal ? createProgressBar(io.stderr, 'Replaying') : silentProgress;
}

/** JSON has no Infinity: a model without a cache minimum prints null. */
function jsonNumbers(_key: string, value: unknown): unknown {
  return typeof value === 'number' && !Number.isFinite(value) ? null : value;
}
