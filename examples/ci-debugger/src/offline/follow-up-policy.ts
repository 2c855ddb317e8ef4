/**
 * Follow-up questions in later episodes. The offline model can look into other CI
 * runs (a branch or a run number named in the question); for anything else it says
 * what it can do. It reuses the run list from earlier episodes while the packer
 * still sends it, and lists the runs again once that history has been evicted.
 */
import { assistantText, toolResultText } from '@episodic/core';
import type { ScriptStep } from '@episodic/core/testing';
import { failingTests, knownFile, knownLogFailures, knownRuns } from './ci-analysis.js';
import { type EpisodeView, escapeRegExp, parseRuns, type RunFact, resultsOf } from './episode-facts.js';

/** The next step of a follow-up episode. */
export function followUpStep(view: EpisodeView): ScriptStep {
  const fromHistory = runsInHistory(view);
  const runs = knownRuns(view)?.runs ?? fromHistory;
  const mentioned = runs ? mentionedRuns(view.question, runs) : [];
  if (!runs) {
    return {
      reasoning:
        'The run list from the first episode is not in my context (the packer evicted that episode to stay within ' +
        'the budget), so list the runs again before looking for what the question refers to.',
      toolCalls: [{ name: 'list_ci_runs', args: {} }],
    };
  }
  if (mentioned.length === 0) {
    return {
      text:
        'I am the offline scripted model: I can only look into the recorded CI runs. Name a branch or a run number ' +
        '(for example "#1847" or "feat/priority-lanes"), or run with --provider and --model to ask anything.',
    };
  }
  const failures = knownLogFailures(view);
  const unread = mentioned.filter((run) => run.status === 'failure' && !failures.has(run.id));
  if (unread.length > 0) {
    return {
      reasoning:
        `The question is about ${mentioned.map((run) => `#${run.number} (${run.branch}, ${run.status})`).join(', ')}. ` +
        (fromHistory ? 'The run list is still in my context from the first episode, so no need to list again. ' : '') +
        'My earlier reasoning is gone with the previous episode, but my answer is still there. Read the failure ' +
        'summary of the failing runs.',
      toolCalls: unread.map((run) => ({
        name: 'get_ci_log',
        args: { run: run.id, grep: '^(test at |✖ )|##\\[error\\]' },
      })),
    };
  }
  const tests = failingTests(runs, failures);
  return inspectFailures(view, mentioned, runs, tests) ?? compare(view, mentioned, runs, tests);
}

/** Reads the assertion of each failure in the mentioned runs, how later runs of the branch did, and the test source. */
function inspectFailures(
  view: EpisodeView,
  mentioned: readonly RunFact[],
  runs: readonly RunFact[],
  tests: ReturnType<typeof failingTests>,
): ScriptStep | undefined {
  const relevant = tests.filter((test) => test.failedRuns.some((run) => mentioned.includes(run)));
  const reads = resultsOf(view, 'get_ci_log');
  const calls = relevant.flatMap((test) => {
    const failed = test.failedRuns.find((run) => mentioned.includes(run))!;
    const later = runs.filter((run) => run.branch === failed.branch && run.number > failed.number);
    const grep = escapeRegExp(test.test);
    return [failed, ...later]
      .filter((run) => !reads.some((read) => read.args.run === run.id && read.args.grep === grep))
      .map((run) => ({ name: 'get_ci_log', args: { run: run.id, grep, ...(run === failed ? { context: 18 } : {}) } }));
  });
  const sources = relevant.flatMap((test) => {
    const [file, line] = (test.location ?? '').split(':');
    if (!file || !line || knownFile(view, file)?.has(Number(line))) return [];
    return [{ name: 'read_file', args: { path: file, startLine: Number(line), endLine: Number(line) + 6 } }];
  });
  if (calls.length === 0 && sources.length === 0) return undefined;
  return {
    reasoning:
      `${relevant.map((test) => `"${test.test}"`).join(', ')} failed there. To tell a flake from a regression: read the ` +
      'assertion, check whether later runs of the same branch pass that test, and read the test itself.',
    toolCalls: [...calls, ...sources],
  };
}

function compare(
  view: EpisodeView,
  mentioned: readonly RunFact[],
  runs: readonly RunFact[],
  tests: ReturnType<typeof failingTests>,
): ScriptStep {
  const lines = mentioned.map((run) => {
    const test = tests.find((entry) => entry.failedRuns.some((failed) => failed.id === run.id));
    if (!test)
      return `- #${run.number} (${run.branch} ${run.commit}) ${run.status === 'success' ? 'passed' : 'failed outside the tests'}.`;
    const assertion = assertionOf(view, run, test.test);
    const fixed = runs.find(
      (other) => other.branch === run.branch && other.number > run.number && passedTest(view, other, test.test),
    );
    const where = `- #${run.number} (${run.branch} ${run.commit}) failed "${test.test}" at ${test.location ?? 'an unknown location'}`;
    return `${where}${assertion ? ` (${assertion})` : ''}. ${verdict(view, run, runs, test, fixed)}`;
  });
  return {
    reasoning: 'I have the assertions and the later runs; compare them with the flaky test from the first episode.',
    text: ['Here is what the logs say:', ...lines].join('\n'),
  };
}

/** Flaky or regression, for one failed run: same commit passing, the same test flaky elsewhere, or an earlier answer. */
function verdict(
  view: EpisodeView,
  run: RunFact,
  runs: readonly RunFact[],
  test: ReturnType<typeof failingTests>[number],
  fixed: RunFact | undefined,
): string {
  const sameCommit = runs.find((other) => other.status === 'success' && other.commit === run.commit);
  if (sameCommit) return `Commit ${run.commit} also passed (#${sameCommit.number}), so this is flaky too.`;
  const elsewhere = test.passedSameCommit[0];
  if (elsewhere) {
    return (
      `No other run of ${run.commit}, but the same test failed and passed on commit ${elsewhere.commit} ` +
      `(#${elsewhere.number} passed): the same flaky test.`
    );
  }
  if (flakyEarlier(view).has(test.test)) {
    return 'That is the flaky test identified earlier in this session: the same race, not a new failure.';
  }
  return (
    'It failed on every run of that commit, so it is a deterministic regression on the branch, not the onIdle flake' +
    (fixed ? `; #${fixed.number} (${fixed.commit}) on the same branch passes that test again.` : '.')
  );
}

/** Tests an earlier answer still in context called flaky (a quoted name on a line that says so). */
function flakyEarlier(view: EpisodeView): Set<string> {
  const names = new Set<string>();
  for (const message of view.history) {
    if (message.role !== 'assistant') continue;
    for (const line of assistantText(message).split('\n')) {
      if (!/\bflaky\b/.test(line)) continue;
      for (const match of line.matchAll(/"([^"]+)"/g)) names.add(match[1] ?? '');
    }
  }
  return names;
}

/** The `actual`/`expected` lines of the assertion in a run's log, if read. */
function assertionOf(view: EpisodeView, run: RunFact, test: string): string | undefined {
  const read = resultsOf(view, 'get_ci_log').find(
    (result) => result.args.run === run.id && result.args.grep === escapeRegExp(test),
  );
  const actual = /actual: (.+?),?$/m.exec(read?.content ?? '')?.[1];
  const expected = /expected: (.+?),?$/m.exec(read?.content ?? '')?.[1];
  return actual && expected ? `got ${actual}, expected ${expected}` : undefined;
}

function passedTest(view: EpisodeView, run: RunFact, test: string): boolean {
  const read = resultsOf(view, 'get_ci_log').find(
    (result) => result.args.run === run.id && result.args.grep === escapeRegExp(test),
  );
  return read?.content?.includes(`✔ ${test}`) === true;
}

/** Runs the question names: by run number or id, or by a feature branch (`feat/priority-lanes`, "priority lanes"). */
function mentionedRuns(question: string, runs: readonly RunFact[]): RunFact[] {
  const numbers = [...question.matchAll(/#?(\d{3,})/g)].map((match) => Number(match[1]));
  const lower = question.toLowerCase();
  const namesBranch = (branch: string) => {
    // The default branch is named in passing ("on main"); only feature branches select runs by name.
    if (!branch.includes('/')) return false;
    const words = branch.split('/').at(-1)?.replaceAll('-', ' ') ?? branch;
    return lower.includes(branch.toLowerCase()) || lower.includes(words.toLowerCase());
  };
  const byNumber = runs.filter((run) => numbers.includes(run.number) || numbers.includes(run.id));
  return byNumber.length > 0 ? byNumber : runs.filter((run) => namesBranch(run.branch));
}

function runsInHistory(view: EpisodeView): RunFact[] | undefined {
  for (let index = view.history.length - 1; index >= 0; index -= 1) {
    const message = view.history[index];
    if (message?.role === 'tool' && message.toolName === 'list_ci_runs') {
      const runs = parseRuns(toolResultText(message));
      if (runs.length > 0) return runs;
    }
  }
  return undefined;
}
