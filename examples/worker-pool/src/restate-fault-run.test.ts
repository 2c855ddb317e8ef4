/**
 * The pool's fault run on Restate (issue 27): 4 endpoint workers behind a load
 * balancer and a Restate server from its npm binary, with SIGKILLs of workers in the
 * middle of episodes (in model calls, in tools, between steps) and of the server
 * itself; afterwards the checks shared with the other runs
 * (test/fault-runs/fault-run-suite.ts) and Restate's own. Needs PostgreSQL
 * (EPISODIC_PG_URL, or a throwaway one) and the built worker (`npx tsc -b` first;
 * npm test does); fails without either.
 */
import { expect } from 'vitest';
import { faultRunTest } from '../../../test/fault-runs/fault-run-suite.js';
import { faultSizesFrom } from './fault-sizes.js';
import { runRestateFaultScenario } from './restate-fault-run.js';

// Slower model calls and tools than the pg-boss run's: Restate runs all 50 sessions at once, so the
// episodes must last long enough for 30 kills to land in them.
const sizes = { ...faultSizesFrom(process.env), latencyMs: 800, toolMs: 500, killGapMs: [100, 300] as [number, number] };

faultRunTest({
  title: `Restate: ${sizes.workers} workers, ${sizes.sessions} sessions, at least ${sizes.kills} SIGKILLs of workers and of the server: every episode once, nothing lost or doubled`,
  sizes,
  worker: 'restate-worker.js',
  output: 'restate-pool-fault',
  run: (connectionString, log) => runRestateFaultScenario({ ...sizes, connectionString, schema: 'restate_pool_fault', log }),
  check(report) {
    expect(report.serverKills).toBeGreaterThan(0);
    // record_step is declared not idempotent here: never run twice, whatever was killed.
    expect(report.toolReruns).toBe(0);
    // A kill inside record_step (it had begun) leaves its outcome unknown: its result is never recorded.
    expect(report.killedInRecordStepWithResult).toEqual([]);
  },
});
