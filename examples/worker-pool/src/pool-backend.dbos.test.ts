/**
 * The many-workers fault test on DBOS (issue 27): each episode is a DBOS workflow;
 * worker processes are SIGKILLed in the middle of episodes (in model calls, in
 * tools, between steps) and the live workers recover the dead ones' workflows
 * (executor heartbeats), replaying their recorded steps. Besides the checks shared
 * with the other runs (test/fault-runs/fault-run-suite.ts): `record_step` is
 * declared not idempotent here, so it must never have run twice. Needs a server
 * (EPISODIC_PG_URL or a throwaway one); runs the built worker (dist/dbos-worker.js):
 * `npx tsc -b` first (npm test does).
 */
import { expect } from 'vitest';
import { faultRunTest } from '../../../test/fault-runs/fault-run-suite.js';
import { runFaultScenario } from './fault-run.js';
import { faultSizesFrom } from './fault-sizes.js';

const sizes = faultSizesFrom(process.env);

// A dead executor is found within about leaseMs of its last beat, but its workflow then waits for
// the queue, which picks partitions (sessions) at random (priority orders only within one): at load
// 30 one waited 359 s behind other sessions while the pool kept finishing jobs; hence no bound on
// the takeover time.
faultRunTest({
  title: `DBOS: ${sizes.workers} workers, ${sizes.sessions} sessions, at least ${sizes.kills} SIGKILLs mid-job: every episode once, recovered by live workers, non-idempotent tools never twice`,
  sizes,
  worker: 'dbos-worker.js',
  output: 'dbos-pool-fault',
  run: (connectionString, log) => runFaultScenario({ ...sizes, runtime: 'dbos', connectionString, schema: 'dbos_pool_fault', log }),
  check(report) {
    expect(report.toolReruns).toBe(0);
    // A kill inside record_step (it had begun) leaves its outcome unknown: its result is never recorded.
    expect(report.killedInRecordStepWithResult).toEqual([]);
  },
});
