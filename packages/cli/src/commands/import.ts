/**
 * `episodic import --from SOURCE FILE`: converts a session recorded by another agent
 * (Claude Code, Codex CLI, pi, Gemini CLI, aider) or a log of raw API calls to transcript v1.1, and says
 * what was left out and why.
 */
import { writeFile } from 'node:fs/promises';
import { formatTranscript } from '@episodic/core/transcript';
import { readTranscript, writeTranscript } from '@episodic/core/node';
import { Readable } from 'node:stream';
import { assertWritableFile } from '../checked-file.js';
import { type Command, ExitCode, onePositional, parseCommandArgs, UsageError } from '../command.js';
import { importSources } from '../import/import-result.js';
import { importSession, importSummary, parseImportSource } from '../import/import-session.js';

const options = {
  from: { type: 'string', short: 'f' },
  output: { type: 'string', short: 'o' },
  'tools-out': { type: 'string' },
  json: { type: 'boolean' },
  lossy: { type: 'boolean' },
} as const;

/** `episodic import`. */
export const importCommand: Command = {
  name: 'import',
  summary: "Convert another agent's session or an API log to a transcript",
  usage: `episodic import --from ${importSources.join('|')} FILE|- [-o FILE] [--tools-out FILE] [--json] [--lossy]`,
  help: `Reads a session recorded by another agent, or a log of raw API calls, and writes it
as a transcript (format v1.1) to standard output or -o FILE. Reasoning and its
signatures, usage, recorded costs, models and tool results are kept; what is left
out (bookkeeping lines, sub-agent turns, UI echoes) is counted, with the reason, in
one line on stderr.

Sources:
  claude-code          ~/.claude/projects/<project>/<session>.jsonl (or agent-*.jsonl)
  codex                ~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl
  pi                   ~/.pi/agent/sessions/<project>/<session>.jsonl (formats v1 to v3)
  gemini-cli           ~/.gemini/tmp/<project>/chats/session-*.json (the JSON document chats)
  aider                .aider.chat.history.md in the repository aider ran in
  openai-chat          JSON Lines of logged Chat Completions calls: {"request","response"}
                       per line, or a request body and its response on two lines
  anthropic-messages   the same for Messages API calls

Options:
  -f, --from SOURCE      What wrote the file (required)
  -o, --output FILE      Write the transcript here instead of standard output
      --tools-out FILE   Write the tool definitions a log holds (for budget --tools)
      --lossy            Import even when conversation content (a message with a
                         role and text) would be left out; without it that is an
                         error naming what and where
      --json             Print the import report (counts, dropped items with reasons
                         and lines, notes) as JSON on standard output; needs -o`,

  async run(argv, io) {
    const { values, positionals } = parseCommandArgs(argv, options);
    const file = onePositional(positionals, 'recording file (or - for standard input)');
    if (values.from === undefined) throw new UsageError(`missing --from: use one of ${importSources.join(', ')}`);
    if (values.json && values.output === undefined) {
      throw new UsageError('--json prints the report on standard output: write the transcript with -o FILE');
    }
    if (values.output !== undefined) await assertWritableFile(values.output, '-o');
    if (values['tools-out'] !== undefined) await assertWritableFile(values['tools-out'], '--tools-out');
    const result = await importSession(parseImportSource(values.from), file, io.stdin, { lossy: values.lossy === true });
    if (values['tools-out'] !== undefined && !result.tools) {
      throw new UsageError(`--tools-out: a ${result.source} recording holds no tool definitions`);
    }
    const text = formatTranscript(result.messages);
    // What is written must read back: the readers' checks are the contract.
    await readTranscript(Readable.from([text]), { file: `the transcript imported from ${result.file}` });
    if (values.output === undefined) io.stdout.write(text);
    else await writeTranscript(values.output, result.messages);
    if (values['tools-out'] !== undefined) {
      await writeFile(values['tools-out'], `${JSON.stringify(result.tools, null, 2)}\n`, 'utf8');
    }
    if (values.json) {
      const { messages, tools, ...report } = result;
      io.stdout.write(`${JSON.stringify({ ...report, messages: messages.length, tools: tools?.length ?? null }, null, 2)}\n`);
    }
    io.stderr.write(`${importSummary(result)}\n`);
    return ExitCode.ok;
  },
};
