/**
 * `list_files`: lists files and directories under a path inside the root, to a
 * depth and up to an entry cap and a byte cap (long paths make a few hundred
 * entries a large result), skipping `node_modules` and `.git` by default.
 */
import { stat } from 'node:fs/promises';
import { z } from 'zod/v4';
import { type DefinedTool, defineTool } from './define-tool.js';
import { resolveInsideRoot } from './root-path.js';
import { ToolUsageError } from './tool-errors.js';
import { DEFAULT_SKIPPED_DIRECTORIES, type WalkEntry, walkDirectory } from './walk-directory.js';

/** Options of {@link listFilesTool}. */
export interface ListFilesToolOptions {
  /** The directory the tool may list inside. */
  root: string;
  /** Most entries per call (default 500). */
  maxEntries?: number;
  /** Most bytes of listing per call (default 50,000). */
  maxBytes?: number;
  /** Deepest level the model may ask for (default 8); it asks for 3 unless it says otherwise. */
  maxDepth?: number;
  /** Directory names listed but not entered (default `node_modules`, `.git`). */
  skip?: readonly string[];
  /** Tool timeout in milliseconds. */
  timeoutMs?: number;
}

const DEFAULT_MAX_ENTRIES = 500;
const DEFAULT_MAX_BYTES = 50_000;
const DEFAULT_MAX_DEPTH = 8;
const DEFAULT_DEPTH = 3;

function listFilesInput(maxDepth: number) {
  return z.object({
    path: z.string().default('.').describe('Directory relative to the project root. Default: the root.'),
    depth: z
      .int()
      .min(1)
      .max(maxDepth)
      .optional()
      .describe(
        `How many levels to descend (1 = direct children only). Default: ${Math.min(DEFAULT_DEPTH, maxDepth)}.`,
      ),
    includeHidden: z.boolean().optional().describe('Include names starting with ".". Default: false.'),
  });
}

/** A `list_files` tool confined to `options.root`. */
export function listFilesTool(options: ListFilesToolOptions): DefinedTool {
  const maxEntries = options.maxEntries ?? DEFAULT_MAX_ENTRIES;
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
  const skip = new Set(options.skip ?? DEFAULT_SKIPPED_DIRECTORIES);
  return defineTool({
    name: 'list_files',
    description:
      'List files and directories in the project, recursively to a depth, as paths from the project root. ' +
      `Directories end with "/", symbolic links with "@". ${[...skip].join(', ')} are shown but not entered. ` +
      `At most ${maxEntries} entries (${maxBytes} bytes) per call.`,
    input: listFilesInput(maxDepth),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    execute: async (input, { signal }) => {
      const directory = await resolveInsideRoot(options.root, input.path);
      const stats = await stat(directory.absolute).catch(() => undefined);
      if (!stats)
        throw new ToolUsageError('not_found', `No directory "${directory.relative}". List "." to see what exists.`);
      if (!stats.isDirectory()) {
        throw new ToolUsageError('not_a_directory', `"${directory.relative}" is a file. Use read_file to read it.`);
      }
      const walk = walkDirectory(directory.absolute, {
        maxDepth: input.depth ?? Math.min(DEFAULT_DEPTH, maxDepth),
        skip,
        includeHidden: input.includeHidden ?? false,
        signal,
      });
      const lines: string[] = [];
      let bytes = 0;
      let capped: string | undefined;
      for await (const entry of walk) {
        const line = formatEntry(entry, directory.relative);
        if (lines.length === maxEntries) capped = `${maxEntries} entries`;
        else if (bytes + Buffer.byteLength(line) + 1 > maxBytes) capped = `${maxBytes} bytes`;
        if (capped) break;
        lines.push(line);
        bytes += Buffer.byteLength(line) + 1;
      }
      const where = directory.relative;
      if (lines.length === 0 && !capped) return `${where}: empty directory.`;
      const footer = capped
        ? `\n[stopped at ${capped} (${lines.length} listed); list a subdirectory or a smaller depth to see more]`
        : '';
      return `${where}:\n${lines.join('\n')}${footer}`;
    },
  });
}

/** An entry as a path from the root (what read_file takes), marked by kind. */
function formatEntry(entry: WalkEntry, directory: string): string {
  const relative = directory === '.' ? entry.relative : `${directory}/${entry.relative}`;
  if (entry.kind === 'directory') return `${relative}/`;
  if (entry.kind === 'symlink') return `${relative}@`;
  return relative;
}
