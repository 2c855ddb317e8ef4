/**
 * `episodic pack FILE|- --budget N`: packs a transcript the way the next model call
 * would see it and prints the packed messages and the packer's stats.
 */
import { createTokenCounter, type Message, type Retention } from '@episodic/core';
import { type PackResult, packContext } from '@episodic/core/packing';
import { type Command, ExitCode, onePositional, parseCommandArgs, UsageError } from '../command.js';
import { describeMessage } from '../describe-message.js';
import { parseBudget } from '../parse-budget.js';
import { importSummary } from '../import/import-session.js';
import { readSessionSource } from '../store-source.js';
import { formatCount, formatTable, plural } from '../text-table.js';

/** Every retention policy, in the order the help lists them; the first is the default. */
const retentions = ['episode', 'tool-episodes', 'all', 'none'] as const satisfies readonly Retention[];

const options = {
  budget: { type: 'string', short: 'b' },
  retention: { type: 'string', short: 'r' },
  json: { type: 'boolean' },
  from: { type: 'string', short: 'f' },
  lossy: { type: 'boolean' },
} as const;

/** `episodic pack`. */
export const packCommand: Command = {
  name: 'pack',
  summary: 'Pack a transcript into a token budget and print what would be sent',
  usage: 'episodic pack FILE|- --budget N [--retention POLICY] [--from SOURCE [--lossy]] [--json]',
  help: `Packs the transcript (a JSON Lines file, or - for standard input) into the budget
as the next model call would send it, and prints the packed messages and stats.

Options:
  -b, --budget N           Max input tokens: 16000, 16k or 1.5m (required)
  -r, --retention POLICY   Which reasoning to keep: ${retentions.join(', ')}
                           (default ${retentions[0]})
      --json               Print one JSON object { messages, system, stats }
                           (system is null when there is no system prompt)
  -f, --from SOURCE        Read another agent's recording: claude-code, codex, pi,
                           gemini-cli, aider, openai-chat, anthropic-messages
      --lossy              With --from: read it even when conversation content is left out`,

  async run(argv, io) {
    const { values, positionals } = parseCommandArgs(argv, options);
    onePositional(positionals, 'transcript file (or - for standard input)');
    if (values.budget === undefined) throw new UsageError('missing --budget');
    const budget = parseBudget(values.budget);
    const retention = parseRetention(values.retention);

    const { messages, imported } = await readSessionSource(values, positionals, io.stdin, 'pack');
    if (imported) io.stderr.write(`${importSummary(imported)}\n`);
    const tokenizer = createTokenCounter();
    const result = packContext({ messages, budget, retention, tokenizer });

    if (values.json) {
      const { messages: packed, system, stats } = result;
      // `system: null` rather than a missing key, so the object always has the same shape.
      io.stdout.write(`${JSON.stringify({ messages: packed, system: system ?? null, stats }, null, 2)}\n`);
    } else {
      const transcriptMessages = messages.filter((message) => message.role !== 'system').length;
      io.stdout.write(
        `${formatPack(result, { transcriptMessages, retention, count: (message) => tokenizer.countMessage(message) })}\n`,
      );
    }
    return ExitCode.ok;
  },
};

function parseRetention(value: string | undefined): Retention {
  if (value === undefined) return retentions[0];
  const found = retentions.find((retention) => retention === value);
  if (!found) throw new UsageError(`unknown retention "${value}": use one of ${retentions.join(', ')}`);
  return found;
}

interface FormatContext {
  transcriptMessages: number;
  retention: Retention;
  count: (message: Message) => number;
}

/** The human summary: a heading, one line per packed message, then the stats. */
function formatPack(result: PackResult, context: FormatContext): string {
  const { stats } = result;
  const { tokens, reasoning } = stats;
  const heading =
    `Packed ${formatCount(result.messages.length)} of ${plural(context.transcriptMessages, 'message')} ` +
    `into ${formatCount(tokens.total)} of ${formatCount(stats.budget)} tokens (retention ${context.retention})`;
  const rows = result.messages.map((message, index) => [
    String(index),
    message.role,
    describeMessage(message),
    formatCount(context.count(message)),
  ]);
  const table = formatTable(
    [{ header: '#', align: 'right' }, { header: 'role' }, { header: 'parts' }, { header: 'tokens', align: 'right' }],
    rows,
  );
  const lines = [
    heading,
    '',
    table,
    '',
    `Tokens by section: system ${formatCount(tokens.system)}, tools ${formatCount(tokens.tools)}, ` +
      `summary ${formatCount(tokens.summary)}, history ${formatCount(tokens.history)}, ` +
      `current episode ${formatCount(tokens.currentEpisode)}, total ${formatCount(tokens.total)}`,
    `Reasoning: kept ${plural(reasoning.keptParts, 'part')} (${formatCount(reasoning.keptTokens)} tokens), ` +
      `dropped ${plural(reasoning.droppedParts, 'part')} (${formatCount(reasoning.droppedTokens)} tokens)`,
    `Evicted episodes: ${formatCount(stats.evictedEpisodes)}`,
    `Truncated tool results: ${formatCount(stats.truncatedToolResults)}`,
    `Predicted cache reuse: ${formatCount(stats.prefixReuseTokens)} tokens`,
    `Cache breakpoints: ${describeBreakpoints(stats.cacheBreakpoints)}`,
  ];
  if (stats.currentEpisodeShortened) lines.push('Note: the current episode itself was shortened to fit the budget.');
  if (stats.unpairedDropped > 0) {
    lines.push(`Note: ${plural(stats.unpairedDropped, 'message')} dropped to keep tool calls and results paired.`);
  }
  return lines.join('\n');
}

function describeBreakpoints(breakpoints: PackResult['stats']['cacheBreakpoints']): string {
  const places = breakpoints.prefix ? ['after system and tools'] : [];
  if (breakpoints.messages.length > 0) places.push(`after message ${breakpoints.messages.join(', ')}`);
  return places.length > 0 ? places.join('; ') : 'none';
}
