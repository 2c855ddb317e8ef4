/**
 * Applying a unified diff (`--- a/x` / `+++ b/x` / `@@ -l,n +l,n @@` hunks), the
 * form models most often write patches in. Hunks are located by their content,
 * starting at the line the header names and moving outward, so a diff whose line
 * numbers are slightly off still applies; one whose context does not match is
 * refused with the hunk named. Format: https://www.gnu.org/software/diffutils/manual/html_node/Unified-Format.html
 */
import { ToolUsageError } from '@episodic/tools';

/** One hunk: the lines it expects and the lines it leaves. */
export interface Hunk {
  /** 1-based line the header names in the old file. */
  oldStart: number;
  before: string[];
  after: string[];
}

/** The hunks for one file. `path` is the new path; `created` when the old side is /dev/null. */
export interface FilePatch {
  path: string;
  created: boolean;
  hunks: Hunk[];
}

const HUNK_HEADER = /^@@ -(\d+)(?:,\d+)? \+\d+(?:,\d+)? @@/;

/** Parses a unified diff into per-file hunks. */
export function parseUnifiedDiff(diff: string): FilePatch[] {
  const lines = diff.replace(/\r\n/g, '\n').split('\n');
  const patches: FilePatch[] = [];
  let current: FilePatch | undefined;
  let hunk: Hunk | undefined;
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index] ?? '';
    if (line.startsWith('--- ') && (lines[index + 1] ?? '').startsWith('+++ ')) {
      const target = stripPrefix((lines[index + 1] ?? '').slice(4));
      current = { path: target, created: stripPrefix(line.slice(4)) === '/dev/null', hunks: [] };
      patches.push(current);
      hunk = undefined;
      index += 1;
      continue;
    }
    const header = HUNK_HEADER.exec(line);
    if (header) {
      if (!current)
        throw new ToolUsageError('invalid_diff', 'The diff has a hunk before any "--- a/file" / "+++ b/file" header.');
      hunk = { oldStart: Number(header[1]), before: [], after: [] };
      current.hunks.push(hunk);
      continue;
    }
    if (!hunk || line.startsWith('\\')) continue;
    const kind = line[0];
    // Models often drop the single space of an empty context line.
    const text = line === '' ? '' : line.slice(1);
    if (kind === '-' || kind === ' ' || line === '') hunk.before.push(text);
    if (kind === '+' || kind === ' ' || line === '') hunk.after.push(text);
  }
  for (const patch of patches) trimTrailingBlankContext(patch);
  if (patches.length === 0 || patches.every((patch) => patch.hunks.length === 0)) {
    throw new ToolUsageError(
      'invalid_diff',
      'No hunks found: give a unified diff with "--- a/file", "+++ b/file" and "@@ ... @@" lines.',
    );
  }
  return patches;
}

/** Applies one file's hunks to its text (empty text for a created file). */
export function applyHunks(text: string, patch: FilePatch): string {
  const lines = text === '' ? [] : text.split('\n');
  let offset = 0;
  for (const [position, hunk] of patch.hunks.entries()) {
    const at = locate(lines, hunk.before, hunk.oldStart - 1 + offset);
    if (at === undefined) {
      throw new ToolUsageError(
        'hunk_mismatch',
        `Hunk ${position + 1} of ${patch.path} (at line ${hunk.oldStart}) does not match the file. ` +
          'Read the file again and copy the context lines exactly.',
      );
    }
    lines.splice(at, hunk.before.length, ...hunk.after);
    offset = at - (hunk.oldStart - 1) + hunk.after.length - hunk.before.length;
  }
  return lines.join('\n');
}

/** Where `block` occurs in `lines`, searching outward from `hint`; trailing whitespace is ignored on a second pass. */
function locate(lines: readonly string[], block: readonly string[], hint: number): number | undefined {
  if (block.length === 0) return Math.min(Math.max(hint, 0), lines.length);
  hint = Math.min(Math.max(hint, 0), Math.max(lines.length - block.length, 0));
  for (const normalize of [(line: string) => line, (line: string) => line.trimEnd()]) {
    for (let distance = 0; distance <= lines.length; distance += 1) {
      for (const start of distance === 0 ? [hint] : [hint - distance, hint + distance]) {
        if (start < 0 || start + block.length > lines.length) continue;
        if (block.every((line, index) => normalize(lines[start + index] ?? '') === normalize(line))) return start;
      }
    }
  }
  return undefined;
}

/** A diff ending with a newline leaves an empty "context" line that is not part of the file. */
function trimTrailingBlankContext(patch: FilePatch): void {
  const last = patch.hunks.at(-1);
  while (last && last.before.at(-1) === '' && last.after.at(-1) === '' && last.before.length > 0) {
    last.before.pop();
    last.after.pop();
  }
}

function stripPrefix(path: string): string {
  const clean = path.split('\t')[0]?.trim() ?? '';
  return clean === '/dev/null' ? clean : clean.replace(/^[ab]\//, '');
}
