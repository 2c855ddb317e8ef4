/**
 * The offline model's investigation, one decision per model call. Each call looks
 * at what the current episode's tool results say so far and either asks for the
 * next missing piece of evidence or answers. Nothing is precomputed: a run that
 * reproduced nothing, a patch that did not hold or a source that does not look as
 * expected each lead to a different next step and a different answer.
 */
import type { ScriptStep } from '@episodic/core/testing';
import {
  type FailingTest,
  failingTests,
  findIdleCode,
  idleFix,
  jobNames,
  knownFile,
  knownLogFailures,
  knownRuns,
} from './ci-analysis.js';
import { answer, declinedAnswer, type Findings, notReproducedAnswer, unpatchableAnswer } from './ci-answer.js';
import {
  type EpisodeView,
  escapeRegExp,
  parseAssertionFrame,
  parseRetryDelays,
  parseTestCounts,
  resultsOf,
  type TestCounts,
} from './episode-facts.js';

/** Base seed of the measuring batch; any fixed seed makes the batch replayable. */
const MEASURE_SEED = 100;
const MEASURE_TIMES = 40;

/** The next step of the CI investigation for this episode. */
export function ciStep(view: EpisodeView): ScriptStep {
  const listing = knownRuns(view);
  if (!listing) {
    return {
      reasoning:
        'The user says CI is flaky. Before reading any code I want the shape of the problem: which runs failed, on ' +
        'which branches and commits. A test that fails and passes on the same commit is flaky; one that fails on ' +
        'every run of a branch is a real regression.',
      toolCalls: [{ name: 'list_ci_runs', args: {} }],
    };
  }
  if (!listing.complete && !listing.filtered) {
    return {
      reasoning:
        'The run list in my context has been shortened (rows cut from the middle), so I cannot tell which runs ' +
        'failed. Ask for the failing runs only: a shorter list.',
      toolCalls: [{ name: 'list_ci_runs', args: { status: 'failure' } }],
    };
  }
  const runs = listing.runs;
  const failed = runs.filter((run) => run.status === 'failure');
  if (failed.length === 0 && listing.complete) {
    return { text: 'Every recorded CI run passed: there is no failure to debug.' };
  }
  const failures = knownLogFailures(view);
  const unread = failed.filter((run) => !failures.has(run.id));
  if (unread.length > 0) {
    return {
      reasoning:
        `${failed.length} of ${runs.length} runs failed (${failed.map((run) => `#${run.number} on ${run.branch}`).join(', ')}). ` +
        'The index names a failing test, but I want the runner\'s own summary: the "failing tests" block at the end ' +
        'of each log gives the test and its file:line. The logs are thousands of lines, so I grep only for the ' +
        'summary markers instead of reading them.',
      toolCalls: unread.map((run) => ({
        name: 'get_ci_log',
        args: { run: run.id, grep: '^(test at |✖ )|##\\[error\\]' },
      })),
    };
  }
  const [suspect, ...others] = failingTests(runs, failures);
  if (!suspect)
    return { text: 'The failing runs name no failing test in their logs; the failure is outside the tests.' };
  return investigate(view, suspect, others);
}

function investigate(view: EpisodeView, suspect: FailingTest, others: readonly FailingTest[]): ScriptStep {
  const newest = suspect.failedRuns[0]!;
  const stack = resultsOf(view, 'get_ci_log').find(
    (result) => result.args.run === newest.id && result.args.grep === escapeRegExp(suspect.test),
  );
  const frame = stack?.content ? parseAssertionFrame(stack.content) : undefined;
  if (!stack) {
    const flaky = suspect.passedSameCommit.length > 0;
    return {
      reasoning:
        `"${suspect.test}" failed in ${suspect.failedRuns.length} runs (${suspect.failedRuns.map((run) => `#${run.number}`).join(', ')})` +
        (flaky
          ? `, and commit ${suspect.passedSameCommit[0]!.commit} also passed (#${suspect.passedSameCommit[0]!.number}): same code, different outcome, so this is a flaky test, not a regression.`
          : ', and never passed on those commits: it may be a plain regression.') +
        (others.length > 0
          ? ` ${others.map((other) => `"${other.test}" failed only in ${other.failedRuns.map((run) => `#${run.number} on ${run.branch}`).join(', ')}`).join('; ')}; I will come back to it if needed.`
          : '') +
        ' Next: the assertion and stack trace of the newest failure.',
      toolCalls: [{ name: 'get_ci_log', args: { run: newest.id, grep: escapeRegExp(suspect.test), context: 14 } }],
    };
  }
  if (!frame)
    return { text: `The log of run #${newest.number} shows no stack frame in the tests for "${suspect.test}".` };
  return readTest(view, suspect, others, frame);
}

function readTest(
  view: EpisodeView,
  suspect: FailingTest,
  others: readonly FailingTest[],
  frame: { file: string; line: number },
): ScriptStep {
  const start = Number(suspect.location?.split(':')[1] ?? frame.line - 20);
  const test = knownFile(view, frame.file);
  if (!test?.has(frame.line)) {
    return {
      reasoning:
        `The assertion that failed is at ${frame.file}:${frame.line}; the test starts at line ${start}. The diff shows ` +
        'one job missing from the result list when the assertion ran. I need the test body, and where onIdle is ' +
        'implemented, since the test awaits onIdle() right before asserting.',
      toolCalls: [
        { name: 'read_file', args: { path: frame.file, startLine: Math.max(1, start - 2), endLine: frame.line + 2 } },
        { name: 'search_text', args: { pattern: 'onIdle|#isIdle|#settleIdle', path: 'src' } },
      ],
    };
  }
  const names = jobNames(test, start, frame.line);
  const jobLogs = resultsOf(view, 'get_ci_log').filter((result) =>
    String(result.args.grep ?? '').includes('TEST_SEED'),
  );
  if (jobLogs.length === 0 && names.length > 0) {
    const passing = suspect.passedSameCommit[0];
    const runs = [...suspect.failedRuns.slice(0, 3), ...(passing ? [passing] : [])];
    return {
      reasoning:
        `The test starts three jobs: ${names.join(', ')}. The first two sleep 40 ms; "${names.at(-1)}" throws on its ` +
        'first attempt and is retried. The test then awaits onIdle() and expects all three finished. In the failing ' +
        `runs "${names.at(-1)}" was missing, so onIdle() resolved before its retry ran. CI runs with QUEUE_DEBUG=1, so the ` +
        'logs show the queue events: compare the retry delay in failing runs with a passing run of the same commit, ' +
        "and pick up each run's TEST_SEED to replay it locally.",
      toolCalls: runs.map((run) => ({
        name: 'get_ci_log',
        args: { run: run.id, grep: `TEST_SEED|\\((${names.map(escapeRegExp).join('|')})\\)` },
      })),
    };
  }
  return readSource(view, suspect, others, { frame, names });
}

function readSource(
  view: EpisodeView,
  suspect: FailingTest,
  others: readonly FailingTest[],
  known: { frame: { file: string; line: number }; names: string[] },
): ScriptStep {
  const source = knownFile(view, 'src/queue.js');
  const code = source && findIdleCode(source);
  const delays = retryDelays(view, known.names.at(-1) ?? '');
  if (!source) {
    return {
      reasoning:
        `Retry delays logged for "${known.names.at(-1)}": ${describeDelays(delays)}. Every failing run waited longer ` +
        'than the 40 ms the other two jobs take, every passing run less. So the race is: when the retry is still ' +
        'waiting on its backoff timer after the other jobs finish, nothing is running and nothing is queued, and ' +
        'onIdle() probably resolves. search_text shows the idle logic is in src/queue.js: read it to confirm.',
      toolCalls: [
        { name: 'read_file', args: { path: 'src/queue.js' } },
        { name: 'read_file', args: { path: 'src/backoff.js' } },
      ],
    };
  }
  const findings: Findings = { suspect, others, frame: known.frame, names: known.names, delays, code };
  if (!code) return unpatchableAnswer(findings);
  return reproduce(view, findings);
}

function reproduce(view: EpisodeView, findings: Findings): ScriptStep {
  const seeds = ciSeeds(view);
  const runs = testReports(view, 'run_tests');
  const replayed = runs.filter((report) => report.args.times === 1);
  const file = findings.frame.file;
  if (replayed.length === 0) {
    const { code } = findings;
    return {
      reasoning:
        `Confirmed in the source. #isIdle() (line ${code!.idleLineNumber}) only checks #active and #waiting. When a ` +
        `job fails, #fail() schedules the retry with setTimeout (line ${code!.retryLineNumber}) and the job is in ` +
        'neither list until the timer fires, and the finally block of #run() calls #settleIdle() right away. The ' +
        'backoff is 10 ms + jitter of 0..39 ms, and the siblings take 40 ms: a retry delay above 40 ms leaves a ' +
        'window where the queue looks idle. Hypothesis: onIdle() ignores jobs waiting for a retry. First, replay the ' +
        `failing CI runs with their seeds (${seeds.join(', ')}) to see the failure on this machine.`,
      toolCalls: seeds.map((seed) => ({ name: 'run_tests', args: { file, times: 1, seed } })),
    };
  }
  const measured = runs.find((report) => report.args.times === MEASURE_TIMES);
  if (!measured) {
    const failedReplays = replayed.filter((report) => report.counts.failed > 0).length;
    return {
      reasoning:
        `${failedReplays} of ${replayed.length} CI seeds fail locally too. Now measure the flake rate over a seeded ` +
        `batch of ${MEASURE_TIMES} runs, so the patch can later be checked on exactly the same seeds.`,
      toolCalls: [{ name: 'run_tests', args: { file, times: MEASURE_TIMES, seed: MEASURE_SEED } }],
    };
  }
  const reproduced = replayed.some((report) => report.counts.failed > 0) || measured.counts.failed > 0;
  if (!reproduced)
    return notReproducedAnswer(
      findings,
      replayed.map((report) => report.counts),
      measured.counts,
    );
  return patchAndVerify(view, findings, {
    replayed: replayed.map((report) => report.counts),
    measured: measured.counts,
    seeds,
  });
}

function patchAndVerify(
  view: EpisodeView,
  findings: Findings,
  evidence: { replayed: TestCounts[]; measured: TestCounts; seeds: number[] },
): ScriptStep {
  const patch = resultsOf(view, 'apply_patch').at(-1);
  const file = findings.frame.file;
  const declined = view.observations.find(
    (observation) => observation.name === 'apply_patch' && observation.isError && /rejected this call/.test(observation.content ?? ''),
  );
  if (!patch && declined) return declinedAnswer(findings, declined.content ?? '');
  if (!patch) {
    return {
      reasoning:
        `Reproduced: ${evidence.measured.failed} of ${evidence.measured.passed + evidence.measured.failed} seeded runs ` +
        'fail. The fix belongs in the queue, not the test: the test states the contract of onIdle() correctly. ' +
        'Count jobs waiting on a retry timer in #retrying, increment it when the timer is set, decrement it when it ' +
        'fires, and make #isIdle() require it to be zero. Apply it to a scratch copy.',
      toolCalls: [{ name: 'apply_patch', args: { edits: idleFix('src/queue.js', findings.code!) } }],
    };
  }
  const verified = testReports(view, 'run_tests_on_patched');
  if (verified.length === 0) {
    return {
      reasoning:
        'Patched copy ready. Verify with the same 40 seeds that failed before, the CI seeds, and the whole suite once ' +
        '(the change touches the queue every test uses).',
      toolCalls: [
        { name: 'run_tests_on_patched', args: { file, times: MEASURE_TIMES, seed: MEASURE_SEED } },
        ...evidence.seeds.map((seed) => ({ name: 'run_tests_on_patched', args: { file, times: 1, seed } })),
        { name: 'run_tests_on_patched', args: { times: 1, seed: evidence.seeds[0] ?? MEASURE_SEED } },
      ],
    };
  }
  return answer(findings, {
    ...evidence,
    patch: patch.content ?? '',
    verified: verified.map((report) => report.counts),
  });
}

/** The TEST_SEED values the CI logs printed, in the order the logs were read. */
function ciSeeds(view: EpisodeView): number[] {
  const seeds: number[] = [];
  for (const result of resultsOf(view, 'get_ci_log')) {
    for (const match of (result.content ?? '').matchAll(/TEST_SEED: (\d+)/g)) {
      const seed = Number(match[1]);
      const failing = (result.content?.split('\n')[0] ?? '').includes('failure)');
      if (failing && !seeds.includes(seed)) seeds.push(seed);
    }
  }
  return seeds;
}

function retryDelays(view: EpisodeView, job: string): { run: string; failed: boolean; delays: number[] }[] {
  return resultsOf(view, 'get_ci_log')
    .filter((result) => String(result.args.grep ?? '').includes('TEST_SEED'))
    .map((result) => {
      const header = result.content?.split('\n')[0] ?? '';
      return {
        run: /#\d+/.exec(header)?.[0] ?? String(result.args.run),
        failed: header.includes('failure)'),
        delays: parseRetryDelays(result.content ?? '', job),
      };
    });
}

function describeDelays(delays: ReturnType<typeof retryDelays>): string {
  return delays
    .map(
      (entry) =>
        `${entry.run} (${entry.failed ? 'failed' : 'passed'}) ${entry.delays.map((delay) => `${delay} ms`).join(', ')}`,
    )
    .join('; ');
}

function testReports(view: EpisodeView, name: string) {
  return resultsOf(view, name).flatMap((result) => {
    const counts = parseTestCounts(result.content ?? '');
    return counts ? [{ args: result.args, counts }] : [];
  });
}
