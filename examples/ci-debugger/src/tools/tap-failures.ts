/**
 * Reads the failing tests out of node:test TAP output (`--test-reporter=tap`): the
 * name, the location and the first lines of the error of each failed test (suites
 * that failed only because a test inside them failed are left out).
 * Format: https://nodejs.org/docs/latest-v20.x/api/test.html#test-reporters
 */

/** One failed test. */
export interface TapFailure {
  name: string;
  /** `file:line:column` of the test, relative paths kept as the runner printed them. */
  location: string | undefined;
  /** The first lines of the error message. */
  error: string;
}

const NOT_OK = /^(\s*)not ok \d+ - (.*?)(?: # .*)?$/;
const ERROR_LINES = 8;

/** The failed tests of a TAP stream, in the order they were reported. */
export function tapFailures(tap: string): TapFailure[] {
  const lines = tap.split('\n');
  const failures: TapFailure[] = [];
  for (let index = 0; index < lines.length; index += 1) {
    const match = NOT_OK.exec(lines[index] ?? '');
    if (!match) continue;
    const block = yamlBlock(lines, index + 1, (match[1] ?? '').length + 2);
    if (block.some((line) => /^\s*type: 'suite'/.test(line))) continue;
    failures.push({ name: match[2] ?? '', location: field(block, 'location'), error: errorText(block) });
  }
  return failures;
}

/** The `---` ... `...` diagnostics block after a test line, if any. */
function yamlBlock(lines: readonly string[], start: number, indent: number): string[] {
  if ((lines[start] ?? '').trim() !== '---') return [];
  const block: string[] = [];
  for (let index = start + 1; index < lines.length; index += 1) {
    const line = lines[index] ?? '';
    if (line.trim() === '...' && line.length - line.trimStart().length === indent) break;
    block.push(line.slice(indent));
  }
  return block;
}

function field(block: readonly string[], name: string): string | undefined {
  const line = block.find((candidate) => candidate.startsWith(`${name}: `));
  return line?.slice(name.length + 2).replace(/^'(.*)'$/, '$1');
}

function errorText(block: readonly string[]): string {
  const start = block.findIndex((line) => line.startsWith('error: '));
  if (start === -1) return 'no error message reported';
  const head = (block[start] ?? '').slice('error: '.length);
  if (head !== '|-' && head !== '|') return head.replace(/^'(.*)'$/, '$1');
  const body: string[] = [];
  for (const line of block.slice(start + 1)) {
    if (!line.startsWith('  ') && line.trim() !== '') break;
    body.push(line.slice(2));
  }
  return body.slice(0, ERROR_LINES).join('\n').trimEnd();
}
