/**
 * Follow-up questions in later episodes. The offline model can look into other CI
 * runs (a branch or a run number named in the question); for anything else it says
 * what it can do. It reuses the run list from earlier episodes while the packer
 * still sends it, and lists the runs again once that history has been evicted.
 */
import type { ScriptStep } from '@episodic/core/testing';
import { failingTests, knownLogFailures, knownRuns } from './ci-analysis.js';
import { type EpisodeView, parseRuns, type RunFact } from './episode-facts.js';

/** The next step of a follow-up episode. */
export function followUpStep(view: EpisodeView): ScriptStep {
  const fromHistory = runsInHistory(view);
  const runs = knownRuns(view) ?? fromHistory;
  const mentioned = runs ? mentionedRuns(view.question, runs) : [];
  if (!runs) {
    return {
      reasoning:
        'A new question. The run list from the first episode is no longer in my context (the packer evicted that ' +
        'episode), so list the runs again before looking for what the question refers to.',
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
  return compare(mentioned, runs, failingTests(runs, failures));
}

function compare(
  mentioned: readonly RunFact[],
  runs: readonly RunFact[],
  tests: ReturnType<typeof failingTests>,
): ScriptStep {
  const lines = mentioned.map((run) => {
    const test = tests.find((entry) => entry.failedRuns.some((failed) => failed.id === run.id));
    if (!test)
      return `- #${run.number} (${run.branch} ${run.commit}) ${run.status === 'success' ? 'passed' : 'failed outside the tests'}.`;
    const later = runs.filter((other) => other.branch === run.branch && other.number > run.number);
    const fixed = later.find((other) => other.status === 'success');
    return (
      `- #${run.number} (${run.branch} ${run.commit}) failed "${test.test}" at ${test.location ?? 'an unknown location'}. ` +
      (test.passedSameCommit.length > 0
        ? 'The same commit also passed, so this is flaky too.'
        : `It failed on every run of that commit, so it is a deterministic regression on the branch, not the onIdle flake` +
          (fixed ? `; the branch passed again at #${fixed.number} (${fixed.commit}).` : '.'))
    );
  });
  return {
    reasoning: 'I have the failure summaries; compare them with the flaky test from the first episode.',
    text: ['Here is what the logs say:', ...lines].join('\n'),
  };
}

function mentionedRuns(question: string, runs: readonly RunFact[]): RunFact[] {
  const numbers = [...question.matchAll(/#?(\d{3,})/g)].map((match) => Number(match[1]));
  const lower = question.toLowerCase();
  return runs.filter(
    (run) =>
      numbers.includes(run.number) ||
      numbers.includes(run.id) ||
      (run.branch !== 'main' && lower.includes(run.branch.toLowerCase())) ||
      lower.includes(run.branch.split('/').at(-1)?.replaceAll('-', ' ') ?? '\u0000'),
  );
}

function runsInHistory(view: EpisodeView): RunFact[] | undefined {
  for (let index = view.history.length - 1; index >= 0; index -= 1) {
    const message = view.history[index];
    if (message?.role === 'tool' && message.toolName === 'list_ci_runs') {
      const runs = parseRuns(message.content);
      if (runs.length > 0) return runs;
    }
  }
  return undefined;
}
