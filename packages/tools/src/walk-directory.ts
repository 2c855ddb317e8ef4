/**
 * A bounded, deterministic directory walk shared by `list_files` and `search_text`.
 * Symbolic links are reported but never followed: following them could leave the
 * root or loop forever, and a link inside the root that points inside the root is
 * reachable by its real path anyway.
 */
import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';

/** Directory names skipped by default: dependencies and VCS data are noise for a model. */
export const DEFAULT_SKIPPED_DIRECTORIES: readonly string[] = ['node_modules', '.git'];

/** One entry found by {@link walkDirectory}. */
export interface WalkEntry {
  /** Absolute path. */
  absolute: string;
  /** Path relative to the walk's start, with `/` separators. */
  relative: string;
  kind: 'file' | 'directory' | 'symlink' | 'other';
  /** 1 for the start directory's children. */
  depth: number;
}

/** Options of {@link walkDirectory}. */
interface WalkOptions {
  /** Deepest level to visit (1 = only the start directory's children). */
  maxDepth: number;
  /** Directory names not to descend into (they are still yielded). */
  skip: ReadonlySet<string>;
  /** Include names starting with `.`. */
  includeHidden: boolean;
  /** Stops the walk early. */
  signal?: AbortSignal;
}

/** Yields entries under `start` in name order, depth first. */
export async function* walkDirectory(start: string, options: WalkOptions): AsyncGenerator<WalkEntry> {
  yield* walk(start, '', 1, options);
}

async function* walk(
  directory: string,
  prefix: string,
  depth: number,
  options: WalkOptions,
): AsyncGenerator<WalkEntry> {
  if (options.signal?.aborted) return;
  let entries: Dirent[];
  try {
    entries = await readdir(directory, { withFileTypes: true });
  } catch {
    return; // Unreadable directories (permissions, removed meanwhile) are skipped, not fatal.
  }
  entries.sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0));
  for (const entry of entries) {
    if (!options.includeHidden && entry.name.startsWith('.')) continue;
    const absolute = path.join(directory, entry.name);
    const relative = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
    const kind = kindOf(entry);
    yield { absolute, relative, kind, depth };
    if (kind === 'directory' && depth < options.maxDepth && !options.skip.has(entry.name)) {
      yield* walk(absolute, relative, depth + 1, options);
    }
  }
}

function kindOf(entry: Dirent): WalkEntry['kind'] {
  if (entry.isSymbolicLink()) return 'symlink';
  if (entry.isDirectory()) return 'directory';
  if (entry.isFile()) return 'file';
  return 'other';
}
