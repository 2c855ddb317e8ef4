/**
 * The offline model's final answers, written from the evidence gathered in the
 * episode: root cause, patch and evidence when the fix held, and honest partial
 * answers when it could not reproduce, could not patch, or the patch did not hold.
 */
import type { ScriptStep } from '@episodic/core/testing';
import type { FailingTest, IdleCode } from './ci-analysis.js';
import type { TestCounts } from './episode-facts.js';

/** What the investigation established before testing. */
export interface Findings {
  suspect: FailingTest;
  others: readonly FailingTest[];
  frame: { file: string; line: number };
  names: string[];
  delays: { run: string; failed: boolean; delays: number[] }[];
  code: IdleCode | undefined;
}

/** Test evidence, from reproduction to verification. */
export interface Evidence {
  seeds: number[];
  replayed: TestCounts[];
  measured: TestCounts;
  /** The apply_patch result (a note and the unified diff). */
  patch: string;
  verified: TestCounts[];
}

const runs = (test: FailingTest) => test.failedRuns.map((run) => `#${run.number}`).join(', ');
const share = (counts: TestCounts) => `${counts.failed}/${counts.passed + counts.failed}`;

function ciEvidence(findings: Findings): string[] {
  const { suspect } = findings;
  const lines = [
    `- CI: "${suspect.test}" (${suspect.location ?? findings.frame.file}) failed in ${runs(suspect)}` +
      (suspect.passedSameCommit.length > 0
        ? `; the same commits also passed (${suspect.passedSameCommit.map((run) => `#${run.number} on ${run.commit}`).join(', ')}), so it is flaky, not a regression.`
        : '.'),
  ];
  const failed = findings.delays.filter((entry) => entry.failed).flatMap((entry) => entry.delays);
  const passed = findings.delays.filter((entry) => !entry.failed).flatMap((entry) => entry.delays);
  if (failed.length > 0) {
    lines.push(
      `- Logs (QUEUE_DEBUG): the "${findings.names.at(-1)}" retry was scheduled ${failed.map((delay) => `${delay} ms`).join(', ')} after ` +
        `its first failure in failing runs${passed.length > 0 ? ` and ${passed.map((delay) => `${delay} ms`).join(', ')} in passing runs` : ''}; ` +
        `the other jobs take 40 ms, and "idle" was logged before the retry ran.`,
    );
  }
  return lines;
}

function otherFailures(findings: Findings): string[] {
  return findings.others.map(
    (other) =>
      `- Not the same problem: "${other.test}" failed only in ${other.failedRuns.map((run) => `#${run.number} (${run.branch} ${run.commit})`).join(', ')}` +
      (other.passedSameCommit.length > 0
        ? '.'
        : ', and never passed on that commit: a regression on that branch, not this flake.'),
  );
}

/** The answer after a verified (or refuted) fix. */
export function answer(findings: Findings, evidence: Evidence): ScriptStep {
  const [batch, ...rest] = evidence.verified;
  const replays = rest.slice(0, -1);
  const suite = rest.at(-1);
  const stillFailing = evidence.verified.filter((counts) => counts.failed > 0);
  const diff = evidence.patch.split('\n').slice(1).join('\n');
  const verdict =
    stillFailing.length === 0 && batch && suite
      ? `**Verified fix**: on the patched copy the same seeded batch fails ${share(batch)} runs (was ${share(evidence.measured)}), ` +
        `the CI seeds pass (${replays.filter((counts) => counts.failed === 0).length} of ${replays.length} replays), ` +
        `and the whole suite passes (${suite.label}).`
      : `**The patch did not hold**: ${stillFailing.map(share).join(', ')} runs still fail on the patched copy. ` +
        'The idle check is part of the problem but not all of it; the patch needs more work before it can be proposed.';
  const text = [
    '## Root cause',
    `\`JobQueue.onIdle()\` resolves while a job is waiting for a retry. \`#isIdle()\` only counts running jobs (\`#active\`) ` +
      'and queued jobs (`#waiting`); a failed job sits in neither while its backoff timer runs. In the test, ' +
      `"${findings.names.at(-1)}" fails once and is retried after 10 ms plus 0-39 ms of random jitter, while the other ` +
      'two jobs take 40 ms. When the jitter pushes the retry past 40 ms, the queue looks idle in between, `onIdle()` ' +
      `resolves, and the assertion at ${findings.frame.file}:${findings.frame.line} sees only ${findings.names.slice(0, -1).join(' and ')}. ` +
      'The test is right; the queue breaks its own contract.',
    '',
    '## Patch (src/queue.js)',
    '```diff',
    diff,
    '```',
    '',
    '## Evidence',
    ...ciEvidence(findings),
    `- Reproduced locally: the CI seeds ${evidence.seeds.join(', ')} fail here too (${evidence.replayed.filter((counts) => counts.failed > 0).length} of ${evidence.replayed.length}); ` +
      `a seeded batch (${evidence.measured.label}) failed ${share(evidence.measured)} runs (${percent(evidence.measured)}), seeds ${evidence.measured.seeds.join(', ')}.`,
    `- ${verdict}`,
    ...otherFailures(findings),
  ].join('\n');
  return {
    reasoning:
      stillFailing.length === 0
        ? 'All verification batches pass, including the seeds that failed before. Time to write up root cause, patch and evidence.'
        : 'Some runs still fail with the patch, so I must not claim a fix. Report what is known.',
    text,
  };
}

/** The answer when the person at the terminal declined the patch (apply_patch with --confirm). */
export function declinedAnswer(findings: Findings, reason: string): ScriptStep {
  return {
    reasoning: 'The patch was declined, so nothing was applied or verified. Report the diagnosis and stop.',
    text: [
      '## Root cause',
      '`JobQueue.onIdle()` resolves while a failed job waits for its retry timer: `#isIdle()` counts running and ' +
        'queued jobs only.',
      '',
      '## Patch (declined, not applied)',
      `The proposed patch counts jobs waiting on a retry timer in \`#retrying\` and makes \`#isIdle()\` require it to be zero. ${reason}`,
      '',
      '## Evidence',
      ...ciEvidence(findings),
      '- Not verified: the patch was not applied.',
    ].join('\n'),
  };
}

/** The answer when neither the CI seeds nor a seeded batch failed locally. */
export function notReproducedAnswer(findings: Findings, replayed: TestCounts[], measured: TestCounts): ScriptStep {
  return {
    reasoning: 'No local run failed, so I cannot confirm the hypothesis or verify a patch. Say so, with the evidence.',
    text: [
      '## Not reproduced',
      `"${findings.suspect.test}" is flaky in CI, but it did not fail here: CI seeds ${replayed.map(share).join(', ')}, ` +
        `seeded batch ${share(measured)}.`,
      '',
      '## Suspected cause (unconfirmed)',
      '`onIdle()` appears to resolve while a failed job waits for its retry timer.',
      '',
      '## Evidence',
      ...ciEvidence(findings),
    ].join('\n'),
  };
}

/** The answer when the source does not have the shape the fix needs. */
export function unpatchableAnswer(findings: Findings): ScriptStep {
  return {
    reasoning:
      'The queue source does not contain the idle check and retry timer I expected; a blind patch would be a guess.',
    text: [
      '## Diagnosis (no patch)',
      `"${findings.suspect.test}" fails when a retry outlasts the other jobs, but src/queue.js does not have the ` +
        'idle predicate and retry timer I looked for, so I did not write a patch.',
      '',
      '## Evidence',
      ...ciEvidence(findings),
    ].join('\n'),
  };
}

function percent(counts: TestCounts): string {
  const total = counts.passed + counts.failed;
  return total === 0 ? '0%' : `${Math.round((100 * counts.failed) / total)}%`;
}
