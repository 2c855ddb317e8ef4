/**
 * Views of a big CI log that fit in a tool result: an outline (step groups and
 * error lines), a line range, or the lines matching a regular expression with
 * context. Pure functions over the log text, so they are easy to test.
 */
import { BoundedRegex, ToolUsageError } from '@episodic/tools';

/** How much of a log one view may return. */
export interface LogViewLimits {
  /** Most log lines in one result. */
  maxLines: number;
  /** Most characters per log line (longer lines are cut). */
  maxLineLength: number;
  /** Most milliseconds a grep pattern may run over the log before it is stopped. Default 2,000. */
  regexTimeoutMs?: number;
}

/** What to show of a log. */
export interface LogViewRequest {
  /** A JavaScript regular expression; lines matching it are shown with `context`. */
  grep?: string;
  /** First line (1-based). */
  from?: number;
  /** Last line (inclusive). */
  to?: number;
  /** Lines shown before and after each grep match. */
  context?: number;
  /** Keep the runner's timestamp at the start of each line. */
  timestamps?: boolean;
}

const DEFAULT_REGEX_TIMEOUT_MS = 2_000;

/** Default caps: about 10k tokens of log per call at most. */
export const DEFAULT_LOG_LIMITS: LogViewLimits = { maxLines: 200, maxLineLength: 240 };

// GitHub Actions prefixes every line with an ISO timestamp with 7 fractional digits.
const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z ?/;

/** Splits a log into lines (a trailing newline does not make an empty last line). */
export function logLines(text: string): string[] {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

/**
 * One view of the log: with `grep`, the matches (inside `from`/`to` when given);
 * with only `from`/`to`, that range; with neither, the outline.
 * @throws {SyntaxError} when `grep` is not a valid regular expression
 * @throws {ToolUsageError} (`regex_timeout`) when `grep` runs past the time limit
 */
export function viewLog(
  name: string,
  lines: readonly string[],
  request: LogViewRequest,
  limits: LogViewLimits = DEFAULT_LOG_LIMITS,
): string {
  const from = Math.max(1, request.from ?? 1);
  const to = Math.min(lines.length, request.to ?? lines.length);
  if (from > lines.length) return `${name} has ${lines.length} lines; line ${from} is past the end.`;
  if (request.grep !== undefined) return grepView(name, lines, request, from, to, limits);
  if (request.from !== undefined || request.to !== undefined) return rangeView(name, lines, request, from, to, limits);
  return outlineView(name, lines, limits);
}

function format(lines: readonly string[], number: number, request: LogViewRequest, limits: LogViewLimits): string {
  let line = lines[number - 1] ?? '';
  if (!request.timestamps) line = line.replace(TIMESTAMP, '');
  if (line.length > limits.maxLineLength) line = `${line.slice(0, limits.maxLineLength)}…[cut]`;
  return `${number}: ${line}`;
}

function rangeView(
  name: string,
  lines: readonly string[],
  request: LogViewRequest,
  from: number,
  to: number,
  limits: LogViewLimits,
): string {
  const last = Math.min(to, from + limits.maxLines - 1);
  const shown: string[] = [];
  for (let number = from; number <= last; number += 1) shown.push(format(lines, number, request, limits));
  const more = last < to ? `\n[stopped at ${limits.maxLines} lines; ask for from=${last + 1} to continue]` : '';
  return `${name}: lines ${from}-${last} of ${lines.length}\n${shown.join('\n')}${more}`;
}

function grepView(
  name: string,
  lines: readonly string[],
  request: LogViewRequest,
  from: number,
  to: number,
  limits: LogViewLimits,
): string {
  const context = Math.max(0, Math.min(request.context ?? 0, 20));
  const matches = grepLines(name, lines.slice(from - 1, to), request.grep ?? '', limits).map((index) => index + from);
  if (matches.length === 0) return `${name}: no line matches /${request.grep}/ in lines ${from}-${to}.`;
  const shown: string[] = [];
  let previous = 0;
  let shownMatches = 0;
  for (const match of matches) {
    const start = Math.max(from, match - context, previous + 1);
    const end = Math.min(to, match + context);
    if (shown.length + (end - start + 1) > limits.maxLines) break;
    if (previous !== 0 && start > previous + 1 && context > 0) shown.push('--');
    for (let number = start; number <= end; number += 1) shown.push(format(lines, number, request, limits));
    previous = end;
    shownMatches += 1;
  }
  const header = `${name}: ${matches.length} matching line${matches.length === 1 ? '' : 's'} for /${request.grep}/ (of ${lines.length} lines)`;
  const rest = matches.length - shownMatches;
  const more =
    rest > 0
      ? `\n[${rest} more match${rest === 1 ? '' : 'es'} not shown (from line ${matches[shownMatches]}); narrow the pattern or pass from/to]`
      : '';
  return `${header}\n${shown.join('\n')}${more}`;
}

/**
 * Indexes of the lines that match, under a time limit: a regex that backtracks without
 * bound would otherwise block the whole process (no tool timeout can interrupt it).
 */
function grepLines(name: string, lines: readonly string[], grep: string, limits: LogViewLimits): number[] {
  const timeoutMs = limits.regexTimeoutMs ?? DEFAULT_REGEX_TIMEOUT_MS;
  const matches = new BoundedRegex(new RegExp(grep), timeoutMs).matchingLines(
    lines.map((line) => line.replace(TIMESTAMP, '')),
  );
  if (matches === undefined) {
    throw new ToolUsageError(
      'regex_timeout',
      `grep took longer than ${timeoutMs} ms on ${name} (catastrophic backtracking, as in (a+)+). Simplify the ` +
        'pattern: avoid nested quantifiers and alternatives that overlap.',
    );
  }
  return matches;
}

function outlineView(name: string, lines: readonly string[], limits: LogViewLimits): string {
  const outline: string[] = [];
  let errors = 0;
  for (const [index, raw] of lines.entries()) {
    const line = raw.replace(TIMESTAMP, '');
    if (line.startsWith('##[group]')) outline.push(`${index + 1}: ${line.slice('##[group]'.length)}`);
    if (line.startsWith('##[error]')) {
      errors += 1;
      outline.push(`${index + 1}: ERROR ${line.slice('##[error]'.length)}`);
    }
  }
  const shown = outline.slice(0, limits.maxLines);
  return [
    `${name}: ${lines.length} lines, ${errors} error line${errors === 1 ? '' : 's'}. Step groups and errors:`,
    ...shown,
    'Use grep (a regular expression, with context) or from/to to read parts of the log.',
  ].join('\n');
}
