/**
 * `episodic episodes FILE|-`: lists the episodes of a transcript with their size and
 * token counts by section, to see where a context budget goes.
 */
import {
  createTokenCounter,
  type TokenCounter,
  toolCallsOf,
  userText,
} from '@episodic/core';
import { type Episode, splitEpisodes } from '@episodic/core/transcript';
import { type Command, ExitCode, parseCommandArgs } from '../command.js';
import { importSummary } from '../import/import-session.js';
import { readSessionSource, storeHelp, storeOptions } from '../store-source.js';
import { type EpisodeSummary, renderEpisodesReport } from '../report/episodes-report.js';
import { assertNotInput, writeReport } from '../report/write-report.js';
import { addSections, countSections, emptySections, type SectionTokens } from '../section-tokens.js';
import { type Column, formatCount, formatTable, plural, preview } from '../text-table.js';

/** Characters of the first user message shown in the table. */
const firstTextWidth = 40;

export type { EpisodeSummary } from '../report/episodes-report.js';

const options = { json: { type: 'boolean' }, html: { type: 'string' }, ...storeOptions } as const;

/** `episodic episodes`. */
export const episodesCommand: Command = {
  name: 'episodes',
  summary: 'List the episodes of a transcript with token counts by section',
  usage: 'episodic episodes FILE|-|--store SPEC --session ID [--from SOURCE] [--json] [--html FILE]',
  help: `Lists each episode (a user message and everything that answers it) of the
transcript (a JSON Lines file, - for standard input, or a stored session): its first user message,
messages, steps (assistant messages), tool calls, and tokens by section (o200k_base).
Episodes are numbered from 1 in the table and from 0 in --json output. Injected
context (reminders, hook output, notices no person typed) does not start an episode.

Options:
      --json        Print one JSON object { source, systemTokens, episodes, total }
      --html FILE   Also write a self-contained HTML report with charts (works offline)
${storeHelp}`,

  async run(argv, io) {
    const { values, positionals } = parseCommandArgs(argv, options);
    const { source, messages, imported } = await readSessionSource(values, positionals, io.stdin, 'episodes');
    if (imported) io.stderr.write(`${importSummary(imported)}\n`);
    if (values.html !== undefined && values.store === undefined) await assertNotInput(values.html, source);
    const counter = createTokenCounter();

    // Leading system lines are the system prompt; later ones belong to their episode.
    const leading = messages.findIndex((message) => message.role !== 'system');
    const systemTokens = messages
      .slice(0, leading === -1 ? messages.length : leading)
      .reduce((sum, message) => sum + counter.countMessage(message), 0);
    const episodes = splitEpisodes(messages).map((episode) => summarize(episode, counter));
    const total = episodes.reduce((sum, episode) => addSections(sum, episode.tokens), emptySections());

    if (values.html !== undefined) {
      await writeReport(values.html, renderEpisodesReport({ source, systemTokens, episodes, total }));
      io.stderr.write(`Wrote the HTML report to ${values.html}\n`);
    }
    if (values.json) {
      io.stdout.write(`${JSON.stringify({ source, systemTokens, episodes, total }, null, 2)}\n`);
    } else {
      io.stdout.write(`${formatEpisodes(source, systemTokens, episodes, total)}\n`);
    }
    return ExitCode.ok;
  },
};

function summarize(episode: Episode, counter: TokenCounter): EpisodeSummary {
  const first = episode.messages[0];
  let steps = 0;
  let toolCalls = 0;
  for (const message of episode.messages) {
    if (message.role !== 'assistant') continue;
    steps += 1;
    toolCalls += toolCallsOf(message).length;
  }
  return {
    index: episode.index,
    preamble: episode.preamble,
    firstUserText: first?.role === 'user' ? userText(first) : '',
    messages: episode.messages.length,
    steps,
    toolCalls,
    tokens: countSections(episode.messages, counter),
  };
}

const columns: readonly Column[] = [
  { header: '#', align: 'right' },
  { header: 'first user message' },
  { header: 'messages', align: 'right' },
  { header: 'steps', align: 'right' },
  { header: 'tool calls', align: 'right' },
  { header: 'user', align: 'right', group: 'tokens' },
  { header: 'text', align: 'right', group: 'tokens' },
  { header: 'reasoning', align: 'right', group: 'tokens' },
  { header: 'tool calls', align: 'right', group: 'tokens' },
  { header: 'tool results', align: 'right', group: 'tokens' },
  { header: 'total', align: 'right', group: 'tokens' },
];

function formatEpisodes(
  source: string,
  systemTokens: number,
  episodes: readonly EpisodeSummary[],
  total: SectionTokens,
): string {
  const messageCount = episodes.reduce((sum, episode) => sum + episode.messages, 0);
  const heading =
    `${source === '-' ? 'standard input' : source}: ${plural(episodes.length, 'episode')}, ` +
    `${plural(messageCount, 'message')}, ${formatCount(total.total + systemTokens)} tokens` +
    (systemTokens > 0 ? ` (system prompt ${formatCount(systemTokens)})` : '');
  if (episodes.length === 0) return heading;
  const rows = episodes.map((episode) => [
    String(episode.index + 1),
    episode.preamble
      ? '(before the first user message)'
      : JSON.stringify(preview(episode.firstUserText, firstTextWidth)),
    formatCount(episode.messages),
    formatCount(episode.steps),
    formatCount(episode.toolCalls),
    ...tokenCells(episode.tokens),
  ]);
  const sum = (pick: (episode: EpisodeSummary) => number) =>
    formatCount(episodes.reduce((count, episode) => count + pick(episode), 0));
  rows.push([
    '',
    'all episodes',
    formatCount(messageCount),
    sum((episode) => episode.steps),
    sum((episode) => episode.toolCalls),
    ...tokenCells(total),
  ]);
  return `${heading}\n\n${formatTable(columns, rows)}`;
}

function tokenCells(tokens: SectionTokens): string[] {
  return [tokens.user, tokens.assistantText, tokens.reasoning, tokens.toolCalls, tokens.toolResults, tokens.total].map(
    formatCount,
  );
}
