/**
 * `episodic budget FILE --budgets 16k,32k,...`: replays a recorded session call by
 * call under every budget and retention asked and reports tokens, predicted cache
 * reads, estimated cost and what had to be cut, with a recommended budget.
 */
import { createTokenCounter, type Retention } from '@episodic/core';
import { analyzeBudgets, NoCallsError } from '../budget/analyze-budgets.js';
import { formatBudgetReport } from '../budget/format-budget.js';
import { readSystemFile, readToolsFile } from '../budget/input-files.js';
import { choosePricedModel } from '../budget/priced-model.js';
import { loadPrices } from '../budget/pricing.js';
import { createProgressBar, type ProgressBar, silentProgress } from '../budget/progress-bar.js';
import { countCalls } from '../budget/replay.js';
import { type CliIo, type Command, ExitCode, parseCommandArgs, UsageError } from '../command.js';
import { parseBudget } from '../parse-budget.js';
import { readSessionSource, storeHelp, storeOptions } from '../store-source.js';
import { renderBudgetReport } from '../report/budget-report.js';
import { assertNotInput, writeReport } from '../report/write-report.js';

/** Every retention policy; the first is the default. */
const retentions = ['episode', 'tool-episodes', 'all', 'none'] as const satisfies readonly Retention[];

const options = {
  budgets: { type: 'string', short: 'b' },
  retention: { type: 'string', short: 'r' },
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
  summary: 'Replay a recorded session under several budgets: tokens, cache, cost',
  usage:
    'episodic budget FILE|-|--store SPEC --session ID --budgets LIST [--retention LIST] [--model ID] [--pricing FILE] ' +
    '[--system FILE] [--tools FILE] [--json] [--html FILE] [--progress]',
  help: `Replays the recorded session (a JSON Lines transcript, or - for standard input) call
by call, one call per assistant message, each packing the transcript before it with the
pack state carried as a live session carries it, under every budget and retention asked.
Per budget it reports input tokens, the predicted cached share (the prefix byte-identical
with the previous call, when at least the model's minimum cacheable length), estimated
cost, calls whose current episode was shortened, evicted episodes, reasoning tokens kept
and dropped, and the largest call. Under each table: the smallest budget that keeps the
current episode whole in at least 99% of calls. When the transcript carries usage, the
predicted cache reads are compared with the reported ones, call by call.

Options:
  -b, --budgets LIST     Budgets to try, comma-separated: 16k,32k,64k,128k (required)
  -r, --retention LIST   Retention policies, comma-separated: ${retentions.join(', ')}
                         (default ${retentions[0]})
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
    if (values.budgets === undefined) throw new UsageError('missing --budgets');
    const budgets = parseBudgetList(values.budgets);
    const retentionList = parseRetentions(values.retention);

    const { source, messages } = await readSessionSource(values, positionals, io.stdin);
    if (values.html !== undefined && values.store === undefined) await assertNotInput(values.html, source);
    // Before pricing: with no call at all, asking for --model would send the user the wrong way.
    if (countCalls(messages) === 0) throw new NoCallsError(source);
    const system = values.system === undefined ? undefined : await readSystemFile(values.system);
    const tools = values.tools === undefined ? undefined : await readToolsFile(values.tools);
    const prices = await loadPrices(values.pricing);
    const model = choosePricedModel(values.model, messages, prices);

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
        model,
        pricesCollected: prices.collected,
        counter: createTokenCounter(),
        onProgress: (done, total) => progress.update(done, total),
      });
    } finally {
      progress.done();
    }

    if (values.html !== undefined) await writeReport(values.html, renderBudgetReport(analysis));
    if (values.json) {
      io.stdout.write(`${JSON.stringify(analysis, jsonNumbers, 2)}\n`);
    } else {
      io.stdout.write(`${formatBudgetReport(analysis)}\n`);
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
  if (text === undefined) return [retentions[0]];
  const found = text.split(',').map((item) => {
    const name = item.trim();
    const retention = retentions.find((candidate) => candidate === name);
    if (!retention) throw new UsageError(`unknown retention "${name}": use one of ${retentions.join(', ')}`);
    return retention;
  });
  return [...new Set(found)];
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
