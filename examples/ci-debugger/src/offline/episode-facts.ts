/**
 * What the offline model knows: only what is in the request it receives. These
 * helpers read the current episode of a packed request (the user question, the
 * tool calls made so far and their results) and parse the tools' text output back
 * into facts. If the packer shortened or dropped a result, the fact is simply
 * missing and the policy asks for it again.
 */
import type { Message, ModelRequest, ToolCallPart, ToolMessage } from '@episodic/core';
import { toolResultText, userText } from '@episodic/core';

/** A tool call of the current episode and its result, if it is in the request. */
export interface Observation {
  name: string;
  args: Record<string, unknown>;
  content: string | undefined;
  isError: boolean;
}

/** The current episode as the model sees it. */
export interface EpisodeView {
  question: string;
  /** Index of the current episode (0 for the first user message in the request). */
  userMessages: number;
  observations: Observation[];
  /** Every earlier message still in the request (past episodes, possibly packed). */
  history: readonly Message[];
}

/** Splits a request at its last user message. */
export function viewEpisode(request: ModelRequest): EpisodeView {
  const messages = request.messages;
  let start = messages.length - 1;
  while (start >= 0 && messages[start]?.role !== 'user') start -= 1;
  const user = messages[start];
  const results = new Map<string, ToolMessage>();
  for (const message of messages.slice(start + 1))
    if (message.role === 'tool') results.set(message.toolCallId, message);
  const observations: Observation[] = [];
  for (const message of messages.slice(start + 1)) {
    if (message.role !== 'assistant') continue;
    for (const part of message.content) {
      if (part.type !== 'tool-call') continue;
      const result = results.get(part.id);
      observations.push(observe(part, result));
    }
  }
  return {
    question: user?.role === 'user' ? userText(user) : '',
    userMessages: messages.filter((message) => message.role === 'user').length,
    observations,
    history: messages.slice(0, Math.max(0, start)),
  };
}

function observe(call: ToolCallPart, result: ToolMessage | undefined): Observation {
  const args = call.args !== null && typeof call.args === 'object' ? (call.args as Record<string, unknown>) : {};
  return { name: call.name, args, content: result ? toolResultText(result) : undefined, isError: result?.isError === true };
}

/** Successful results of one tool, oldest first. */
export function resultsOf(view: EpisodeView, name: string): Observation[] {
  return view.observations.filter(
    (observation) => observation.name === name && !observation.isError && observation.content,
  );
}

/** A CI run as listed by `list_ci_runs`. */
export interface RunFact {
  id: number;
  number: number;
  status: string;
  branch: string;
  commit: string;
  failingTest: string | undefined;
}

const RUN_ROW = /^(\d+) #(\d+) (\w+)\s+(\S+) ([0-9a-f]{7}) \S+ started .*?(?: failing: "(.*)")?$/;

/** Runs parsed from the latest `list_ci_runs` result. */
export function parseRuns(content: string): RunFact[] {
  const runs: RunFact[] = [];
  for (const line of content.split('\n')) {
    const match = RUN_ROW.exec(line);
    if (!match) continue;
    runs.push({
      id: Number(match[1]),
      number: Number(match[2]),
      status: match[3] ?? '',
      branch: match[4] ?? '',
      commit: match[5] ?? '',
      failingTest: match[6],
    });
  }
  return runs;
}

/** A failed test as a CI log reports it. */
export interface LogFailure {
  run: number;
  test: string;
  /** `test/queue.test.js:96:3`, from the "failing tests" summary. */
  location: string | undefined;
}

/**
 * Failed tests named by a `get_ci_log` grep result. The "failing tests" summary at
 * the end of a node:test spec run pairs `test at <file:line:col>` with the `✖ name`
 * line below it; suites never appear there, so only real tests are picked up.
 */
export function parseLogFailures(run: number, content: string): LogFailure[] {
  const lines = content.split('\n').map((line) => line.replace(/^\d+: /, ''));
  const failures: LogFailure[] = [];
  for (const [index, line] of lines.entries()) {
    const location = /^test at (\S+)$/.exec(line)?.[1];
    const test = location && /^\s*✖ (.+?) \([\d.]+ms\)$/.exec(lines[index + 1] ?? '')?.[1];
    if (test) failures.push({ run, test, location });
  }
  return failures;
}

/** The `file:line` of the first stack frame in the test file (`at TestContext.<anonymous> (file:///…/x.test.js:121:12)`). */
export function parseAssertionFrame(content: string): { file: string; line: number } | undefined {
  const match = /at TestContext\.<anonymous> \(file:\/\/\S*?\/((?:test|src)\/[\w./-]+):(\d+):\d+\)/.exec(content);
  return match ? { file: match[1] ?? '', line: Number(match[2]) } : undefined;
}

/** Retry delays the queue logged (`retry in 47ms`) for a named job. */
export function parseRetryDelays(content: string, job: string): number[] {
  const pattern = new RegExp(`\\(${escapeRegExp(job)}\\) failed attempt=1: .*; retry in (\\d+)ms`, 'g');
  return [...content.matchAll(pattern)].map((match) => Number(match[1]));
}

/** Lines of a `read_file` result keyed by line number, and the file's path. */
export function parseFileLines(content: string): { path: string; lines: Map<number, string> } {
  const [header = '', ...rest] = content.split('\n');
  const lines = new Map<number, string>();
  for (const line of rest) {
    const match = /^(\d+)\t(.*)$/.exec(line);
    if (match) lines.set(Number(match[1]), match[2] ?? '');
  }
  return { path: header.replace(/: (?:lines .*|empty file.*)$/, ''), lines };
}

/** Counts from a `run_tests` / `run_tests_on_patched` result. */
export interface TestCounts {
  passed: number;
  failed: number;
  seeds: number[];
  /** The seed range, as the tool printed it (`TEST_SEED 100..139`). */
  label: string;
}

/** Parses the first line and the failing seeds of a test report. */
export function parseTestCounts(content: string): TestCounts | undefined {
  const counts = /(\d+) passed, (\d+) failed\./.exec(content);
  if (!counts) return undefined;
  const seeds = /^Failing seeds: (.+)$/m.exec(content)?.[1]?.split(', ').map(Number) ?? [];
  const label = /\(((?:TEST_SEED [\d.]+)|unseeded)\)/.exec(content)?.[1] ?? '';
  return { passed: Number(counts[1]), failed: Number(counts[2]), seeds, label };
}

/** Escapes text for use inside a regular expression. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
