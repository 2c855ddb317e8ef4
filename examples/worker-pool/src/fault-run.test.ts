/**
 * The many-workers fault test (issue 14) on pg-boss: worker processes share sessions
 * on one PostgreSQL server while workers are killed with SIGKILL in the middle of
 * episodes (in model calls, in tools, between steps); afterwards every invariant of
 * verify-pool.ts must hold (checks shared with the DBOS and Restate runs:
 * test/fault-runs/fault-run-suite.ts). Needs a server: EPISODIC_PG_URL, or a
 * throwaway one (initdb/pg_ctl); it fails without one. Runs the built worker
 * (dist/worker.js): `npx tsc -b` first (npm test does).
 */
import { faultRunTest } from '../../../test/fault-runs/fault-run-suite.js';
import { runFaultScenario } from './fault-run.js';
import { faultSizesFrom } from './fault-sizes.js';

const sizes = faultSizesFrom(process.env);

// pg-boss expires a dead worker's job 2 x leaseMs after it was taken (whole seconds, found by a
// supervise pass each second): seconds on a quiet machine, but 151 s at load 31 here, where live
// workers' jobs expired too; hence no bound on the takeover time.
faultRunTest({
  title: `${sizes.workers} workers, ${sizes.sessions} sessions, at least ${sizes.kills} SIGKILLs mid-job: every episode finished exactly once, nothing lost or doubled`,
  sizes,
  worker: 'worker.js',
  output: 'worker-pool-fault',
  run: (connectionString, log) => runFaultScenario({ ...sizes, connectionString, schema: 'worker_pool_fault', log }),
});
