/**
 * The offline model's analysis: which test is flaky (it failed on a commit that
 * also passed), what its source and logs say, and the patch that follows. Every
 * function works on facts parsed from tool results, never on the fixture directly.
 */
import type { FileEdit } from '../tools/scratch-workspace.js';
import {
  type EpisodeView,
  type LogFailure,
  parseFileLines,
  parseLogFailures,
  parseRuns,
  type RunFact,
  resultsOf,
} from './episode-facts.js';

/** A test that failed in CI, with the runs it failed in. */
export interface FailingTest {
  test: string;
  location: string | undefined;
  failedRuns: RunFact[];
  /** Runs of the same commits that passed: the mark of a flaky test. */
  passedSameCommit: RunFact[];
}

/** The runs from the latest `list_ci_runs` result in the episode, and whether that list arrived whole. */
export function knownRuns(view: EpisodeView): { runs: RunFact[]; complete: boolean; filtered: boolean } | undefined {
  const latest = resultsOf(view, 'list_ci_runs').at(-1);
  if (latest?.content === undefined) return undefined;
  const runs = parseRuns(latest.content);
  // The packer may have shortened the result (head and tail kept): then rows are missing.
  const listed = Number(/^(\d+) runs?\b/.exec(latest.content)?.[1] ?? runs.length);
  return { runs, complete: runs.length >= listed, filtered: latest.args.status !== undefined };
}

/** Failures read from the logs so far, keyed by run id. */
export function knownLogFailures(view: EpisodeView): Map<number, LogFailure[]> {
  const failures = new Map<number, LogFailure[]>();
  for (const result of resultsOf(view, 'get_ci_log')) {
    const run = Number(result.args.run);
    const found = parseLogFailures(run, result.content ?? '');
    if (found.length > 0 || String(result.args.grep ?? '').includes('test at')) failures.set(run, found);
  }
  return failures;
}

/** Groups the failures by test, flakiest (failed and passed on the same commit) first. */
export function failingTests(runs: readonly RunFact[], failures: ReadonlyMap<number, LogFailure[]>): FailingTest[] {
  const byTest = new Map<string, FailingTest>();
  for (const run of runs) {
    for (const failure of failures.get(run.id) ?? []) {
      const entry = byTest.get(failure.test) ?? {
        test: failure.test,
        location: failure.location,
        failedRuns: [],
        passedSameCommit: [],
      };
      entry.failedRuns.push(run);
      byTest.set(failure.test, entry);
    }
  }
  for (const entry of byTest.values()) {
    const commits = new Set(entry.failedRuns.map((run) => run.commit));
    entry.passedSameCommit = runs.filter((run) => run.status === 'success' && commits.has(run.commit));
  }
  return [...byTest.values()].sort(
    (left, right) =>
      right.passedSameCommit.length - left.passedSameCommit.length || right.failedRuns.length - left.failedRuns.length,
  );
}

/** The text of a file as far as `read_file` results in the episode show it. */
export function knownFile(view: EpisodeView, file: string): Map<number, string> | undefined {
  let lines: Map<number, string> | undefined;
  for (const result of resultsOf(view, 'read_file')) {
    const parsed = parseFileLines(result.content ?? '');
    if (parsed.path !== file) continue;
    lines = new Map([...(lines ?? []), ...parsed.lines]);
  }
  return lines;
}

/** Job names a test gives its queue jobs (`{ name: 'upload' }`), in order. */
export function jobNames(lines: ReadonlyMap<number, string>, from: number, to: number): string[] {
  const names: string[] = [];
  for (let number = from; number <= to; number += 1) {
    const name = /\{ name: '([\w-]+)' \}/.exec(lines.get(number) ?? '')?.[1];
    if (name) names.push(name);
  }
  return names;
}

/** Where the idle check and the retry scheduling are in a queue source, if it has them. */
export interface IdleCode {
  /** The line declaring the running-jobs counter (`#active = 0;`). */
  counterLine: string;
  /** The `return` of the idle predicate. */
  idleReturn: string;
  idleLineNumber: number;
  /** The `setTimeout(() => {` line that schedules a retry. */
  retryTimer: string;
  retryLineNumber: number;
}

/** Finds the idle predicate and the retry timer in `src/queue.js` as read. */
export function findIdleCode(lines: ReadonlyMap<number, string>): IdleCode | undefined {
  const numbers = [...lines.keys()].sort((left, right) => left - right);
  const find = (test: (text: string) => boolean, after = 0) =>
    numbers.find((number) => number > after && test(lines.get(number) ?? ''));
  const counter = find((text) => /^\s*#active = 0;$/.test(text));
  const predicate = find((text) => /^\s*#isIdle\(\) \{$/.test(text));
  const idleReturn = predicate && find((text) => /^\s*return .*#waiting\.length === 0;$/.test(text), predicate);
  const retryLog = find((text) => text.includes('retry in'));
  const retryTimer = retryLog && find((text) => /^\s*setTimeout\(\(\) => \{$/.test(text), retryLog);
  if (!counter || !idleReturn || !retryTimer) return undefined;
  return {
    counterLine: lines.get(counter) ?? '',
    idleReturn: lines.get(idleReturn) ?? '',
    idleLineNumber: idleReturn,
    retryTimer: lines.get(retryTimer) ?? '',
    retryLineNumber: retryTimer,
  };
}

/** The fix: count jobs waiting on a retry timer, and treat the queue as busy while any are. */
export function idleFix(file: string, code: IdleCode): FileEdit[] {
  const indent = (line: string) => /^\s*/.exec(line)?.[0] ?? '';
  const timerIndent = indent(code.retryTimer);
  return [
    {
      path: file,
      search: `${code.counterLine}\n`,
      replace: `${code.counterLine}\n${indent(code.counterLine)}/** Jobs waiting on a backoff timer before their next attempt. */\n${indent(code.counterLine)}#retrying = 0;\n`,
    },
    {
      path: file,
      search: code.idleReturn,
      replace: code.idleReturn.replace(/;$/, ' && this.#retrying === 0;'),
    },
    {
      path: file,
      search: `${code.retryTimer}\n`,
      replace: `${timerIndent}this.#retrying += 1;\n${code.retryTimer}\n${timerIndent}  this.#retrying -= 1;\n`,
    },
  ];
}
