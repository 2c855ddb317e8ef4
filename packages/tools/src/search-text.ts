/**
 * `search_text`: searches files under a path inside the root for a regular
 * expression, like `grep -rn`, with caps on results, line length and file size.
 *
 * JavaScript regexes run synchronously and cannot be interrupted, so a pattern with
 * catastrophic backtracking could stall the process; matching only the first
 * {@link MATCH_WINDOW} characters of each line keeps that bounded in practice.
 */
import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { z } from 'zod';
import { type DefinedTool, defineTool } from './define-tool.js';
import { resolveInsideRoot, toRelative } from './root-path.js';
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
  /** Tool timeout in milliseconds. */
  timeoutMs?: number;
}

const searchTextInput = z.object({
  pattern: z.string().min(1).describe('A JavaScript regular expression, such as "TODO|FIXME" or "function\\s+main".'),
  path: z
    .string()
    .default('.')
    .describe('File or directory to search, relative to the project root. Default: the root.'),
  ignoreCase: z.boolean().optional().describe('Match letters case-insensitively. Default: false.'),
});

/** The arguments of `search_text`. */
export type SearchTextInput = z.infer<typeof searchTextInput>;

/** Characters of each line the regex sees (see the module comment). */
export const MATCH_WINDOW = 4096;
const DEFAULT_MAX_RESULTS = 100;
const DEFAULT_MAX_LINE_LENGTH = 200;
const DEFAULT_MAX_FILE_BYTES = 1_000_000;
const SEARCH_DEPTH = 64;

/** A `search_text` tool confined to `options.root`. */
export function searchTextTool(options: SearchTextToolOptions): DefinedTool<typeof searchTextInput> {
  const maxResults = options.maxResults ?? DEFAULT_MAX_RESULTS;
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
      const regex = compile(input.pattern, input.ignoreCase ?? false);
      const start = await resolveInsideRoot(options.root, input.path);
      const stats = await stat(start.absolute).catch(() => undefined);
      if (!stats) throw new ToolUsageError('not_found', `No file or directory "${start.relative}".`);
      const files = stats.isDirectory() ? listFiles(start.absolute, skip, signal) : oneFile(start.absolute);
      const matches: string[] = [];
      for await (const file of files) {
        if (signal.aborted) break;
        const remaining = maxResults + 1 - matches.length;
        const found = await searchFile(file, regex, remaining, limits, signal);
        const relative = toRelative(start.root, file);
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

/** Matching lines of one file as `line: text`; none for binary or oversized files. */
async function searchFile(
  file: string,
  regex: RegExp,
  limit: number,
  limits: { maxLineLength: number; maxFileBytes: number },
  signal: AbortSignal,
): Promise<string[]> {
  if (!(await isSearchable(file, limits.maxFileBytes))) return [];
  const reader = createInterface({
    input: createReadStream(file, { encoding: 'utf8', signal }),
    crlfDelay: Number.POSITIVE_INFINITY,
  });
  const found: string[] = [];
  let lineNumber = 0;
  for await (const line of reader) {
    lineNumber += 1;
    if (!regex.test(line.length > MATCH_WINDOW ? line.slice(0, MATCH_WINDOW) : line)) continue;
    const shown = line.length > limits.maxLineLength ? `${line.slice(0, limits.maxLineLength)}[...]` : line;
    found.push(`${lineNumber}: ${shown}`);
    if (found.length >= limit) {
      reader.close();
      break;
    }
  }
  return found;
}

async function isSearchable(file: string, maxFileBytes: number): Promise<boolean> {
  const handle = await open(file, 'r').catch(() => undefined);
  if (!handle) return false;
  try {
    const { size } = await handle.stat();
    if (size > maxFileBytes) return false;
    const sniff = Buffer.alloc(Math.min(size, 8192));
    const { bytesRead } = await handle.read(sniff, 0, sniff.length, 0);
    return !sniff.subarray(0, bytesRead).includes(0);
  } finally {
    await handle.close();
  }
}
