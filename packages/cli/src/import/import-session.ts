/**
 * `--from`: reads a recording written by another agent or an API log and returns
 * it as transcript v1.1, with what was dropped and why. One importer per source.
 */
import type { Readable } from 'node:stream';
import { importAnthropicMessages } from './anthropic-messages.js';
import { importClaudeCode } from './claude-code.js';
import { importCodex } from './codex.js';
import { detectRecording, sourceNames } from './detect-source.js';
import { ImportError, type ImportResult, type ImportSource, importSources, LossyImportError } from './import-result.js';
import { importOpenAIChat } from './openai-chat.js';
import { importPi } from './pi.js';
import { importAider } from './aider.js';
import { importGeminiCli } from './gemini-cli.js';
import { type RecordingLine, readRecordingText, recordingLines } from './recording-lines.js';
import { IncompleteImportError, incompleteSummary, reconcileImport } from './reconcile.js';
import { withUniqueCallIds } from './unique-call-ids.js';
import { UsageError } from '../command.js';

type Importer = (text: string, file: string) => ImportResult;

/** An importer of JSON Lines: the text is cut into its objects first. */
const jsonLines =
  (read: (records: readonly RecordingLine[], file: string) => ImportResult): Importer =>
    (text, file) =>
      read(recordingLines(text, file), file);

const importers: Readonly<Record<ImportSource, Importer>> = {
  'claude-code': jsonLines(importClaudeCode),
  codex: jsonLines(importCodex),
  pi: jsonLines(importPi),
  'openai-chat': jsonLines(importOpenAIChat),
  'anthropic-messages': jsonLines(importAnthropicMessages),
  // One JSON document and a Markdown log: each reads the whole text.
  'gemini-cli': importGeminiCli,
  aider: importAider,
};

/** The `--from` value as a source, or a usage error listing the sources. */
export function parseImportSource(value: string): ImportSource {
  const found = importSources.find((source) => source === value);
  if (!found) throw new UsageError(`unknown --from "${value}": use one of ${importSources.join(', ')}`);
  return found;
}

/** How to import. */
export interface ImportOptions {
  /** Accept leaving out conversation content (reported, not an error). */
  lossy?: boolean;
}

/**
 * Imports `file` (or standard input for `-`) recorded by `source`. Throws
 * `ImportError` naming file and line; unless `options.lossy` is set,
 * `LossyImportError` when conversation content would be left out and
 * `IncompleteImportError` when the recorded usage shows history the transcript
 * does not hold.
 */
export async function importSession(
  source: ImportSource,
  file: string,
  stdin: Readable,
  options: ImportOptions = {},
): Promise<ImportResult> {
  const name = file === '-' ? '<stdin>' : file;
  const text = await readRecordingText(file, stdin);
  const result = withSourceHint(() => importers[source](text, name), source, text);
  const lost = result.dropped.filter((item) => item.lossy === true);
  if (lost.length > 0 && options.lossy !== true) throw new LossyImportError(name, lost);
  return withReconciliation(withUniqueIds(result), options);
}

/** Runs the import; when it fails on a recording of another source, the error names that source. */
function withSourceHint(read: () => ImportResult, source: ImportSource, text: string): ImportResult {
  try {
    return read();
  } catch (error) {
    if (!(error instanceof ImportError)) throw error;
    const found = detectRecording(text.slice(0, 256 * 1024));
    if (!found || found === source) throw error;
    const where = `${error.file}${error.line === undefined ? '' : `, line ${error.line}`}: `;
    const detail = error.message.startsWith(where) ? error.message.slice(where.length) : error.message;
    throw new ImportError(error.file, error.line, `${detail} (this is ${sourceNames[found]}: use --from ${found})`);
  }
}

/** The result with its reconciliation against the recorded usage; throws when history is missing (unless lossy). */
function withReconciliation(result: ImportResult, options: ImportOptions): ImportResult {
  const reconciliation = reconcileImport(result);
  if (!reconciliation) return result;
  if (reconciliation.incomplete.length > 0 && options.lossy !== true) throw new IncompleteImportError(result.file, reconciliation);
  const note =
    reconciliation.incomplete.length > 0
      ? incompleteSummary(reconciliation)
      : `reconciled with the recorded usage: ${reconciliation.calls} calls, ${Math.round(reconciliation.withinShare * 100)}% within 10% once a fixed prefix of ${reconciliation.prefixTokens} tokens is added`;
  return { ...result, reconciliation, notes: [...result.notes, note] };
}

/** The result with tool-call ids made unique. */
function withUniqueIds(result: ImportResult): ImportResult {
  const unique = withUniqueCallIds(result.messages);
  if (unique.renamed === 0) return result;
  const note = `${unique.renamed} tool calls reused an id an earlier call had (the provider numbers calls per response); renamed <id>-2, <id>-3, ... on the call and its result`;
  return { ...result, messages: unique.messages, notes: [...result.notes, note] };
}

/** One line for stderr: what was imported and what was left out. */
export function importSummary(result: ImportResult): string {
  const messages = result.messages.length;
  const dropped = result.dropped.reduce((sum, item) => sum + item.count, 0);
  const head = `Imported ${messages} messages from ${result.file} (${result.source})`;
  const incomplete = result.reconciliation?.incomplete.length ? ` ${incompleteSummary(result.reconciliation)}.` : '';
  if (dropped === 0) return `${head}; nothing dropped.${incomplete}`;
  const top = result.dropped
    .slice(0, 3)
    .map((item) => `${item.count} ${item.what}`)
    .join(', ');
  const more = result.dropped.length > 3 ? `, and ${result.dropped.length - 3} more kinds` : '';
  return `${head}; dropped ${dropped} items: ${top}${more} (--json says why).${incomplete}`;
}
