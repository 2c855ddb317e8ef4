/**
 * The fixed prefix (system prompt and tool definitions) each agent sends before the
 * conversation, which its session files do not record. Measured per agent and major
 * version from the real sessions in test/fixtures/sessions (the first call's
 * reported input less the transcript's count, scaled), with room above the largest:
 * - Claude Code 1.0.98: 14,918 tokens.
 * - Claude Code 2.0.56-2.0.58: 27,913 / 32,382 / 36,614 at the start of a session;
 *   52,884 and 54,982 after a compaction (Claude Code re-attaches the files it had
 *   read, which the session file does not hold). 2.0.76-2.1.39 (Entire's
 *   checkpoints): 26,481 to 44,144 (Opus 4.6 on 2.1.37 the largest).
 * - Claude Code 1.0.115 (Opus 4.1): 13,767 to 14,687.
 * - Codex CLI 0.34-0.58: 2,566 to 6,162.
 * - pi (v1 sessions) 1,612 to 4,736; OpenClaw on pi (v3) 4,044 to 12,714.
 * - Gemini CLI (September 2025, gemini-2.5-pro): 9,0xx on the first call.
 * - aider 0.86 (whole-file edit format, 1,024-token repository map): about 1,800 on a
 *   first "hi"; the files added to the chat come on top and are not logged.
 * - Claude Code 2.1.20x-2.1.21x (session files with tool, skill and agent listings
 *   as attachments, plugins installed): 43,700 to 64,100; the files that name an MCP
 *   server (Claude in the browser) 57,200.
 * On top of the limit per version comes what the file itself shows of the prefix
 * (`PrefixShown`): MCP servers whose tool definitions are sent with every
 * call, and installed plugins (listings of plugin skills and agents), whose tools
 * and commands are too. Desktop sessions with many MCP tools report 61,000 to
 * 64,500 on their first call.
 * A gap larger than the limit is not a prefix: the transcript is missing history.
 */
import type { ImportSource, PrefixLimit, PrefixShown } from './import-result.js';

const limits: Readonly<Record<ImportSource, (version: string | undefined) => PrefixLimit>> = {
  'claude-code': (version) =>
    version?.startsWith('1.')
      ? { start: 24_000, afterCompaction: 40_000, measuredOn: 'Claude Code 1.x (14,918 measured)' }
      : { start: 48_000, afterCompaction: 72_000, measuredOn: 'Claude Code 2.x (26,481 to 44,144 measured; 54,982 after a compaction)' },
  codex: () => ({ start: 12_000, afterCompaction: 24_000, measuredOn: 'Codex CLI 0.34 to 0.58 (2,566 to 6,162 measured)' }),
  pi: () => ({ start: 20_000, afterCompaction: 28_000, measuredOn: 'pi and OpenClaw sessions (1,612 to 12,714 measured)' }),
  'gemini-cli': () => ({ start: 16_000, afterCompaction: 24_000, measuredOn: 'Gemini CLI 0.x (about 9,000 measured)' }),
  aider: () => ({ start: 12_000, afterCompaction: 12_000, measuredOn: 'aider 0.86 (about 1,800 measured, plus the files added to the chat)' }),
  // API logs hold their prefix: anything the transcript lacks is missing history.
  'openai-chat': () => ({ start: 2_000, afterCompaction: 2_000, measuredOn: 'an API log (it records its prefix)' }),
  'anthropic-messages': () => ({ start: 2_000, afterCompaction: 2_000, measuredOn: 'an API log (it records its prefix)' }),
};

/** Tokens allowed per MCP server the file names: a server's tool definitions. */
const perMcpServer = 4_000;
/** Tokens allowed when the file shows installed plugins. */
const forPlugins = 16_000;

/**
 * The plausible prefix limit of `source` at `version` (undefined when the recording
 * names none), widened by what the file shows of the prefix.
 */
export function prefixLimit(source: ImportSource, version: string | undefined, shown?: PrefixShown): PrefixLimit {
  const limit = limits[source](version);
  const extra = shown ? shown.mcpServers * perMcpServer + (shown.plugins ? forPlugins : 0) : 0;
  if (extra === 0 || !shown) return limit;
  const parts = [
    ...(shown.mcpServers > 0 ? [`${shown.mcpServers} MCP server${shown.mcpServers > 1 ? 's' : ''}`] : []),
    ...(shown.plugins ? ['plugins'] : []),
  ];
  return {
    start: limit.start + extra,
    afterCompaction: limit.afterCompaction + extra,
    measuredOn: `${limit.measuredOn}, plus ${extra.toLocaleString('en-US')} for the ${parts.join(' and ')} the file shows`,
  };
}
