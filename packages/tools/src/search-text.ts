/**
 * `search_text`: searches files under a path inside the root for a regular
 * expression, like `grep -rn`, with caps on results, line length and file size.
 *
 * JavaScript regexes run synchronously and a tool timeout cannot interrupt them, so
 * the pattern runs under {@link BoundedRegex}'s time limit, on the first
 * {@link MATCH_WINDOW} characters of each line.
 */
import { constants } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { z } from 'zod/v4';
import { BoundedRegex } from './bounded-regex.js';
import { type DefinedTool, defineTool } from './define-tool.js';
import { resolveInsideRoot, toRelative } from './root-path.js';
import { DEFAULT_SECRET_FILES, refuseSecretFile, secretPatternOf, type SecretFilesOption } from './secret-files.js';
import { ToolUsageError } from './tool-errors.js';
import { DEFAULT_SKIPPED_DIRECTORIES, walkDirectory } from './walk-directory.js';

/** Options of {@link searchTextTool}. */
export interface SearchTextToolOptions {
  /** The directory the tool may search inside. */
  root: string;
  /** Most matching lines per call (default 100). */
  maxResults?: number;
  /** Matching lines longer than this many characters are cut (default 200). */
  maxLineLength?: number;
  /** Files larger than this are skipped (default 1,000,000 bytes). */
  maxFileBytes?: number;
  /** Directory names not searched (default `node_modules`, `.git`). */
  skip?: readonly string[];
  /** Most milliseconds the pattern may spend on a batch of 1,000 lines before the search stops (default 2,000). */
  regexTimeoutMs?: number;
  /** Tool timeout in milliseconds. */
  timeoutMs?: number;
  /** Secrets files that are never searched (default {@link DEFAULT_SECRET_FILES}); `false` searches them too. */
  secretFiles?: SecretFilesOption;
}

/** A file being searched. */
interface SearchedFile {
  absolute: string;
  /** As shown to the model: relative to the root. */
  relative: string;
}

const searchTextInput = z.object({
  pattern: z.string().min(1).describe('A JavaScript regular expression, such as "TODO|FIXME" or "function\\s+main".'),
  path: z
    .string()
    .default('.')
    .describe('File or directory to search, relative to the project root. Default: the root.'),
  ignoreCase: z.boolean().optional().describe('Match letters case-insensitively. Default: false.'),
});

/** Characters of each line the regex sees (see the module comment). */
const MATCH_WINDOW = 4096;
const DEFAULT_MAX_RESULTS = 100;
const DEFAULT_MAX_LINE_LENGTH = 200;
const DEFAULT_MAX_FILE_BYTES = 1_000_000;
const SEARCH_DEPTH = 64;
const DEFAULT_REGEX_TIMEOUT_MS = 2_000;
/** Lines matched per bounded run of the regex. */
const MATCH_BATCH = 1_000;

/** A `search_text` tool confined to `options.root`. */
export function searchTextTool(options: SearchTextToolOptions): DefinedTool {
  const maxResults = options.maxResults ?? DEFAULT_MAX_RESULTS;
  const regexTimeoutMs = options.regexTimeoutMs ?? DEFAULT_REGEX_TIMEOUT_MS;
  const limits = {
    maxLineLength: options.maxLineLength ?? DEFAULT_MAX_LINE_LENGTH,
    maxFileBytes: options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES,
  };
  const skip = new Set(options.skip ?? DEFAULT_SKIPPED_DIRECTORIES);
  return defineTool({
    name: 'search_text',
    description:
      'Search text files in the project for a regular expression. Returns "path:line: text" for each matching line, ' +
      `at most ${maxResults} per call. Binary files, symbolic links and ${[...skip].join(', ')} are skipped.`,
    input: searchTextInput,
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    execute: async (input, { signal }) => {
      const matcher = new BoundedRegex(compile(input.pattern, input.ignoreCase ?? false), regexTimeoutMs);
      const start = await resolveInsideRoot(options.root, input.path);
      const stats = await stat(start.absolute).catch(() => undefined);
      if (!stats) throw new ToolUsageError('not_found', `No file or directory "${start.relative}".`);
      if (stats.isFile()) refuseSecretFile(start.relative, options.secretFiles);
      if (stats.isFile() && stats.size > limits.maxFileBytes) {
        // Skipped quietly inside a directory; asked for by name, "No matches" would mislead.
        throw new ToolUsageError(
          'file_too_large',
          `"${start.relative}" is ${stats.size} bytes, over the ${limits.maxFileBytes}-byte search limit. ` +
            'Read it with read_file and line ranges.',
        );
      }
      const files = stats.isDirectory() ? listFiles(start.absolute, skip, signal) : oneFile(start.absolute);
      const matches: string[] = [];
      for await (const file of files) {
        if (signal.aborted) break;
        const remaining = maxResults + 1 - matches.length;
        const relative = toRelative(start.root, file);
        if (secretPatternOf(relative, options.secretFiles ?? DEFAULT_SECRET_FILES) !== undefined) continue;
        const found = await searchFile({ absolute: file, relative }, matcher, remaining, limits, signal);
        matches.push(...found.map((match) => `${relative}:${match}`));
        if (matches.length > maxResults) break;
      }
      if (matches.length === 0) return `No matches for /${input.pattern}/ in ${start.relative}.`;
      if (matches.length <= maxResults) return matches.join('\n');
      return `${matches.slice(0, maxResults).join('\n')}\n[stopped at ${maxResults} matches; narrow the pattern or the path to see the rest]`;
    },
  });
}

function compile(pattern: string, ignoreCase: boolean): RegExp {
  try {
    return new RegExp(pattern, ignoreCase ? 'i' : '');
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ToolUsageError(
      'invalid_regex',
      `Invalid regular expression: ${reason}. Fix the pattern (JavaScript syntax; escape ( [ { . * + ? with \\) and retry.`,
    );
  }
}

async function* listFiles(directory: string, skip: ReadonlySet<string>, signal: AbortSignal): AsyncGenerator<string> {
  const walk = walkDirectory(directory, { maxDepth: SEARCH_DEPTH, skip, includeHidden: false, signal });
  for await (const entry of walk) if (entry.kind === 'file') yield entry.absolute;
}

async function* oneFile(file: string): AsyncGenerator<string> {
  yield file;
}

/** Matching lines of one file as `line: text`; none for binary, oversized or non-regular files. */
async function searchFile(
  file: SearchedFile,
  matcher: BoundedRegex,
  limit: number,
  limits: { maxLineLength: number; maxFileBytes: number },
  signal: AbortSignal,
): Promise<string[]> {
  const text = await searchableText(file.absolute, limits.maxFileBytes, signal);
  if (text === undefined) return [];
  const lines = text.split(/\r\n|\n|\r/);
  if (lines.at(-1) === '') lines.pop();
  const found: string[] = [];
  for (let first = 0; first < lines.length && found.length < limit; first += MATCH_BATCH) {
    const batch = lines.slice(first, first + MATCH_BATCH);
    const matches = matcher.matchingLines(batch.map((line) => line.slice(0, MATCH_WINDOW)));
    if (matches === undefined) {
      throw new ToolUsageError(
        'regex_timeout',
        `The pattern took longer than ${matcher.timeoutMs} ms in ${file.relative} (catastrophic backtracking, ` +
          'as in (a+)+). Simplify it: avoid nested quantifiers and alternatives that overlap.',
      );
    }
    for (const index of matches.slice(0, limit - found.length)) {
      const line = batch[index]!;
      const shown = line.length > limits.maxLineLength ? `${line.slice(0, limits.maxLineLength)}[...]` : line;
      found.push(`${first + index + 1}: ${shown}`);
    }
  }
  return found;
}

// O_NOFOLLOW: a link swapped in at the end of the path since it was checked is refused.
// O_NONBLOCK: a FIFO opens at once (then is skipped) instead of waiting for a writer.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/** The text of a regular, small, non-binary file, read from the one handle that was checked. */
async function searchableText(file: string, maxFileBytes: number, signal: AbortSignal): Promise<string | undefined> {
  const handle = await open(file, OPEN_FLAGS).catch(() => undefined);
  if (!handle) return undefined;
  try {
    const stats = await handle.stat();
    if (!stats.isFile() || stats.size > maxFileBytes) return undefined;
    const bytes = await handle.readFile({ signal });
    if (bytes.subarray(0, 8192).includes(0)) return undefined;
    return bytes.toString('utf8');
  } finally {
    await handle.close();
  }
}
