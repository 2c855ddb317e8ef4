/**
 * A scratch copy of the fixture project in a temporary directory. Patches are
 * applied here and only here: the original is copied, never written. Every patch
 * starts from a fresh copy, so a patch is judged on its own.
 */
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { resolveInsideRoot, ToolUsageError } from '@episodic/tools';
import { unifiedDiff } from './line-diff.js';
import { applyHunks, parseUnifiedDiff } from './unified-patch.js';

/** One search/replace edit of a file. */
export interface FileEdit {
  /** Path relative to the project root. */
  path: string;
  /** Exact text to find; it must occur exactly once in the file. */
  search: string;
  replace: string;
}

/** The result of applying a patch to a fresh copy. */
export interface AppliedPatch {
  /** The scratch directory holding the patched copy. */
  root: string;
  /** Unified diff of every changed file against the original. */
  diff: string;
  files: string[];
}

/** Owns at most one scratch copy at a time; call {@link dispose} when done. */
export class ScratchWorkspace {
  readonly original: string;
  private current: string | undefined;

  constructor(original: string) {
    this.original = path.resolve(original);
  }

  /** The patched copy, if a patch was applied. */
  get root(): string | undefined {
    return this.current;
  }

  /** Copies the original afresh and applies `edits` in order. */
  apply(edits: readonly FileEdit[]): Promise<AppliedPatch> {
    return this.patchFreshCopy(async (root, remember) => {
      for (const edit of edits) {
        const file = await resolveInsideRoot(root, edit.path);
        const text = await remember(file.relative, file.absolute);
        if (text === undefined) throw missingFile(file.relative);
        await writeFile(file.absolute, replaceOnce(file.relative, text, edit));
      }
    });
  }

  /** Copies the original afresh and applies a unified diff to it. */
  applyDiff(diff: string): Promise<AppliedPatch> {
    const patches = parseUnifiedDiff(diff);
    return this.patchFreshCopy(async (root, remember) => {
      for (const patch of patches) {
        const file = await resolveInsideRoot(root, patch.path);
        const text = await remember(file.relative, file.absolute);
        if (text === undefined && !patch.created) throw missingFile(file.relative);
        await mkdir(path.dirname(file.absolute), { recursive: true });
        await writeFile(file.absolute, applyHunks(text ?? '', patch));
      }
    });
  }

  /** Makes a fresh copy, lets `change` edit it, and diffs every file it touched against the original. */
  private async patchFreshCopy(
    change: (
      root: string,
      remember: (relative: string, absolute: string) => Promise<string | undefined>,
    ) => Promise<void>,
  ): Promise<AppliedPatch> {
    await this.dispose();
    const root = await mkdtemp(path.join(tmpdir(), 'ci-debugger-scratch-'));
    await cp(this.original, root, { recursive: true, filter: (source) => !source.includes(`${path.sep}node_modules`) });
    this.current = root;
    const originals = new Map<string, string>();
    await change(root, async (relative, absolute) => {
      const text = await readFile(absolute, 'utf8').catch(() => undefined);
      if (!originals.has(relative)) originals.set(relative, text ?? '');
      return text;
    });
    const diffs: string[] = [];
    for (const [relative, before] of originals) {
      diffs.push(unifiedDiff(relative, before, await readFile(path.join(root, relative), 'utf8')));
    }
    return { root, diff: diffs.filter((diff) => diff !== '').join('\n'), files: [...originals.keys()] };
  }

  /** Removes the scratch copy. */
  async dispose(): Promise<void> {
    if (this.current === undefined) return;
    const root = this.current;
    this.current = undefined;
    await rm(root, { recursive: true, force: true });
  }
}

function missingFile(relative: string): ToolUsageError {
  return new ToolUsageError(
    'not_found',
    `No file "${relative}" in the project; create files with a diff from /dev/null.`,
  );
}

function replaceOnce(file: string, text: string, edit: FileEdit): string {
  if (edit.search === '') throw new ToolUsageError('empty_search', `Edit of ${file}: search must not be empty.`);
  const first = text.indexOf(edit.search);
  if (first === -1) {
    throw new ToolUsageError(
      'search_not_found',
      `Edit of ${file}: the search text was not found. Copy it exactly from read_file output (without line numbers).`,
    );
  }
  if (text.indexOf(edit.search, first + 1) !== -1) {
    throw new ToolUsageError(
      'search_ambiguous',
      `Edit of ${file}: the search text occurs more than once. Include more surrounding lines to make it unique.`,
    );
  }
  return text.slice(0, first) + edit.replace + text.slice(first + edit.search.length);
}
