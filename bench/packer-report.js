/**
 * Markdown for the packer benchmark: one table per budget, ratios against the
 * baselines measured in the same run, and the issue's targets checked.
 */
import os from 'node:os';
import { MIN_CACHED_PREFIX, PRICE } from './metrics.js';

const integer = (value) => Math.round(value).toLocaleString('en-US');
const milliseconds = (value) => value.toFixed(3);

const COLUMNS = [
  ['Strategy', (row) => row.name],
  ['Pack median (ms)', (row) => milliseconds(row.packMedianMs)],
  ['Pack p99 (ms)', (row) => milliseconds(row.packP99Ms)],
  ['Count on append (ms, session)', (row) => row.appendMs.toFixed(0)],
  ['Tokens sent', (row) => integer(row.tokensSent)],
  ['Mean prefix reuse', (row) => row.meanReuse.toFixed(3)],
  ['Token-weighted reuse', (row) => row.tokenWeightedReuse.toFixed(3)],
  ['Calls < 50% reuse', (row) => integer(row.callsUnderHalfReuse)],
  ['Cost (USD)', (row) => row.cost.toFixed(2)],
  ['Past-episode reasoning tokens read by the model', (row) => integer(row.pastReasoningTokens)],
  ['Past-episode reasoning tokens sent, stripped by the provider', (row) => integer(row.hiddenPastReasoningTokens)],
  ['Calls with orphans', (row) => integer(row.orphanCalls)],
  ['Over budget', (row) => integer(row.overBudget)],
  ['Empty', (row) => integer(row.empty)],
  ['No current user msg', (row) => integer(row.missingCurrentUser)],
  ['Threw', (row) => integer(row.threw)],
];

function table(rows) {
  const lines = [
    `| ${COLUMNS.map(([title]) => title).join(' | ')} |`,
    `|${COLUMNS.map((_, i) => (i === 0 ? ' --- ' : ' ---: ')).join('|')}|`,
  ];
  for (const row of rows) lines.push(`| ${COLUMNS.map(([, cell]) => cell(row)).join(' | ')} |`);
  return lines.join('\n');
}

function environment() {
  const cpus = os.cpus();
  // The load average says how far the timings can be trusted on a shared machine.
  const load = os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(', ');
  return `Node ${process.version}, ${cpus[0]?.model ?? 'unknown CPU'} (${cpus.length} cores), ${os.platform()} ${os.arch()}, load average at the end ${load}`;
}

function find(results, budget, key) {
  return results.find((row) => row.budget === budget && row.key === key);
}

function targets(results, cold) {
  const checks = [];
  const budgets = [...new Set(results.map((row) => row.budget))];
  const add = (target, measured, met) => checks.push(`| ${target} | ${measured} | ${met ? 'yes' : '**no**'} |`);
  for (const budget of budgets) {
    const own = find(results, budget, 'episodic');
    const bad = own.overBudget + own.orphanCalls + own.empty + own.threw + own.pastReasoningTokens;
    add(
      `${integer(budget)}: 0 over budget, orphans, empty, threw, past-episode reasoning`,
      `${own.overBudget}, ${own.orphanCalls}, ${own.empty}, ${own.threw}, ${own.pastReasoningTokens}`,
      bad === 0,
    );
    const langchain = find(results, budget, 'langchain');
    const speedup = langchain.packMedianMs / own.packMedianMs;
    add(`${integer(budget)}: pack median <= 1/6 of LangChain`, `1/${speedup.toFixed(1)}`, speedup >= 6);
  }
  const at = (budget) => find(results, budget, 'episodic');
  if (at(200_000)) {
    add('200,000: mean prefix reuse >= 0.93', at(200_000).meanReuse.toFixed(3), at(200_000).meanReuse >= 0.93);
    const ratio = at(200_000).cost / find(results, 200_000, 'naive').cost;
    add('200,000: cost <= 0.2x naive window', `${ratio.toFixed(3)}x`, ratio <= 0.2);
    add('200,000: pack p99 < 2 ms', `${milliseconds(at(200_000).packP99Ms)} ms`, at(200_000).packP99Ms < 2);
  }
  if (at(64_000))
    add('64,000: mean prefix reuse >= 0.88', at(64_000).meanReuse.toFixed(3), at(64_000).meanReuse >= 0.88);
  // Issue 17: reuse with eviction that keeps the cached head, counting at the tokenizer's floor.
  for (const [budget, floor] of [[16_000, 0.75], [64_000, 0.91], [200_000, 0.95]]) {
    if (at(budget)) add(`${integer(budget)}: mean prefix reuse >= ${floor}`, at(budget).meanReuse.toFixed(3), at(budget).meanReuse >= floor);
  }
  if (at(200_000)) {
    const ratio = at(200_000).cost / find(results, 200_000, 'naive').cost;
    add('200,000: cost <= 0.13x naive window', `${ratio.toFixed(3)}x`, ratio <= 0.13);
  }
  for (const budget of budgets) {
    const own = find(results, budget, 'episodic');
    const others = results.filter((row) => row.budget === budget && row.key !== 'episodic').map((row) => row.appendMs);
    const fastest = Math.min(...others);
    add(`${integer(budget)}: count on append <= fastest other strategy`, `${(own.appendMs / fastest).toFixed(2)}x`, own.appendMs <= fastest);
  }
  for (const row of cold?.rows ?? []) {
    add(`${integer(row.budget)}: cold pack <= 1.0x tokenizing once`, `${row.ratio.toFixed(2)}x`, row.ratio <= 1);
  }
  return ['| Target | Measured | Met |', '| --- | ---: | :---: |', ...checks].join('\n');
}

function ratios(results, budget) {
  const own = find(results, budget, 'episodic');
  const lines = [];
  for (const row of results.filter((other) => other.budget === budget && other.key !== 'episodic')) {
    const speed = row.packMedianMs / own.packMedianMs;
    const speedText = speed >= 1 ? `${speed.toFixed(1)} times faster` : `${(1 / speed).toFixed(1)} times slower`;
    lines.push(
      `- vs ${row.name}: pack median ${(own.packMedianMs / row.packMedianMs).toFixed(3)}x (${speedText}), ` +
        `cost ${(own.cost / row.cost).toFixed(3)}x, tokens sent ${(own.tokensSent / row.tokensSent).toFixed(3)}x`,
    );
  }
  return lines.join('\n');
}

function causes(row) {
  const lines = [
    '| Call | Calls | Mean prefix reuse | Share of mean reuse lost | Pack median (ms) | Pack max (ms) |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const group of row.byCause) {
    lines.push(
      `| ${group.cause} | ${group.calls} | ${group.meanReuse.toFixed(3)} | ${group.reuseLost.toFixed(3)} | ` +
        `${milliseconds(group.packMedianMs)} | ${milliseconds(group.packMaxMs)} |`,
    );
  }
  return lines.join('\n');
}

function prediction(row) {
  if (row.predictionError === undefined) return 'Episodic made no reuse prediction (stats.prefixReuseTokens).';
  return row.predictionError === 0
    ? "Episodic's own reuse prediction (stats.prefixReuseTokens) equals the measured reuse on every call."
    : `Episodic's own reuse prediction is off by up to ${integer(row.predictionError)} tokens on a call.`;
}

function errors(results) {
  const lines = results
    .filter((row) => row.firstError)
    .map((row) => `- ${row.name} at ${integer(row.budget)}: ${row.threw} calls threw; first: ${row.firstError}`);
  return lines.length > 0 ? `\nErrors:\n${lines.join('\n')}\n` : '';
}

/**
 * @param {{ session: Record<string, number>, results: Array<Record<string, unknown>>, seconds: number,
 *   cold?: { rows: Array<{ budget: number, ratio: number }>, markdown: string }, hostile?: string }} input
 * @returns {string}
 */
export function formatPackerReport({ session, results, cold, hostile, seconds }) {
  const budgets = [...new Set(results.map((row) => row.budget))];
  const strategies = results.filter((row) => row.budget === budgets[0]);
  const sections = budgets.map(
    (budget) =>
      `### Budget ${integer(budget)} tokens\n\n${table(results.filter((row) => row.budget === budget))}\n\n` +
      `Episodic against the baselines at this budget:\n${ratios(results, budget)}\n\n` +
      `${prediction(find(results, budget, 'episodic'))}\n\n` +
      `Episodic's calls by what the packer did (a step call only appends; a boundary call starts an episode, ` +
      `whose predecessor loses its reasoning):\n\n${causes(find(results, budget, 'episodic'))}\n`,
  );
  return (
    `## Packer

Session: seed ${session.seed}, ${session.turns} user turns, ${integer(session.messages)} messages, ` +
    `${integer(session.calls)} model calls (one per assistant message, each packing the transcript before it), ` +
    `${integer(session.tokens)} tokens in all (reasoning ${integer(session.reasoning)}, ` +
    `${integer(session.results)} tool results ${integer(session.toolResults)}, largest ${integer(session.largestResult)}).

Environment: ${environment()}. Whole benchmark ${seconds.toFixed(0)} s. Each strategy replays the session
${session.repeats} times per budget (fresh strategy, fresh copy of the session, after a warm-up on another session);
pack times are each call's fastest of those replays, count on append the fastest whole-session total.

Strategies:
${strategies.map((row) => `- **${row.name}**: ${row.settings}.`).join('\n')}

How the figures are measured: the same tiktoken o200k_base counts for everyone. Tokens = system + tools +
messages + reply priming of what is sent. Pack time covers only the packing call; each strategy counts a
message when it is appended, timed apart ("count on append", whole session). Prefix reuse = tokens of the
longest run of leading messages byte-identical (JSON) to the previous call's, plus system and tools, over the
call's tokens; the first call reuses nothing. Cost: $${(PRICE.inputPerToken * 1e6).toFixed(2)}/M input tokens,
reused prefix tokens at ${PRICE.cachedShare * 100}% when the prefix is at least ${MIN_CACHED_PREFIX} tokens.
Orphans: a tool call without its result or a result without its call in the sent messages.
"No current user msg": the call does not contain the user message of the current episode.
${sections.join('\n')}${errors(results)}
${cold ? `${cold.markdown}\n\n` : ''}${hostile ? `${hostile}\n\n` : ''}### Targets (Episodic, this run)

${targets(results, cold)}
`
  );
}
