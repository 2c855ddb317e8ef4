/**
 * A unified diff of two versions of a small text file (longest common subsequence
 * over lines, three lines of context), to show the model and the user exactly what
 * a patch changed. Quadratic in the number of lines: meant for source files, not logs.
 */

type Operation = { kind: ' ' | '-' | '+'; text: string };

const CONTEXT = 3;

/** `--- a/<path>` / `+++ b/<path>` and its hunks; empty when nothing changed. */
export function unifiedDiff(file: string, before: string, after: string): string {
  if (before === after) return '';
  const operations = diffLines(before.split('\n'), after.split('\n'));
  const hunks: string[] = [];
  let index = 0;
  while (index < operations.length) {
    const change = operations.findIndex((operation, at) => at >= index && operation.kind !== ' ');
    if (change === -1) break;
    const start = Math.max(0, change - CONTEXT);
    let end = change;
    // Extend the hunk while the next change is within two contexts of the last one.
    for (let at = change; at < operations.length; at += 1) {
      if (operations[at]?.kind !== ' ') end = at;
      else if (at - end > CONTEXT * 2) break;
    }
    const stop = Math.min(operations.length, end + CONTEXT + 1);
    hunks.push(hunk(operations, start, stop));
    index = stop;
  }
  return [`--- a/${file}`, `+++ b/${file}`, ...hunks].join('\n');
}

function hunk(operations: readonly Operation[], start: number, stop: number): string {
  let oldLine = 1;
  let newLine = 1;
  for (const operation of operations.slice(0, start)) {
    if (operation.kind !== '+') oldLine += 1;
    if (operation.kind !== '-') newLine += 1;
  }
  const body = operations.slice(start, stop);
  const oldCount = body.filter((operation) => operation.kind !== '+').length;
  const newCount = body.filter((operation) => operation.kind !== '-').length;
  const lines = body.map((operation) => `${operation.kind}${operation.text}`);
  return [`@@ -${oldLine},${oldCount} +${newLine},${newCount} @@`, ...lines].join('\n');
}

function diffLines(before: readonly string[], after: readonly string[]): Operation[] {
  const rows = before.length + 1;
  const columns = after.length + 1;
  // lengths[i * columns + j]: LCS length of before[i..] and after[j..].
  const lengths = new Uint32Array(rows * columns);
  for (let i = before.length - 1; i >= 0; i -= 1) {
    for (let j = after.length - 1; j >= 0; j -= 1) {
      lengths[i * columns + j] =
        before[i] === after[j]
          ? (lengths[(i + 1) * columns + j + 1] ?? 0) + 1
          : Math.max(lengths[(i + 1) * columns + j] ?? 0, lengths[i * columns + j + 1] ?? 0);
    }
  }
  const down = (i: number, j: number) => lengths[(i + 1) * columns + j] ?? 0;
  const right = (i: number, j: number) => lengths[i * columns + j + 1] ?? 0;
  const operations: Operation[] = [];
  let i = 0;
  let j = 0;
  while (i < before.length || j < after.length) {
    if (i < before.length && j < after.length && before[i] === after[j]) {
      operations.push({ kind: ' ', text: before[i++] ?? '' });
      j += 1;
    } else if (i < before.length && (j === after.length || down(i, j) >= right(i, j))) {
      operations.push({ kind: '-', text: before[i++] ?? '' });
    } else {
      operations.push({ kind: '+', text: after[j++] ?? '' });
    }
  }
  return operations;
}
