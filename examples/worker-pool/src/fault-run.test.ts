/**
 * The many-workers fault test (issue 14): worker processes share sessions on one
 * PostgreSQL server while random workers are killed with SIGKILL in the middle of
 * episodes; afterwards every invariant of verify-pool.ts must hold. Needs a server:
 * EPISODIC_PG_URL, or a throwaway one (initdb/pg_ctl); it fails without one. Runs the
 * built worker (dist/worker.js): `npx tsc -b` first (npm test does).
 */
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { serverPerFile } from '@episodic/postgres/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runFaultScenario } from './fault-run.js';
import { faultSizesFrom } from './fault-sizes.js';

const sizes = faultSizesFrom(process.env);
const server = serverPerFile();
// Starts the server before the test's clock runs; a failure is the test's to report.
beforeAll(() => server.url().then(() => {}, () => {}), 120_000);
afterAll(() => server.stop());

it(
  `${sizes.workers} workers, ${sizes.sessions} sessions, at least ${sizes.kills} SIGKILLs mid-job: every episode finished exactly once, nothing lost or doubled`,
  async () => {
    const worker = fileURLToPath(new URL('../dist/worker.js', import.meta.url));
    expect(existsSync(worker), 'the fault run starts the built worker: run `npx tsc -b` first').toBe(true);
    const report = await runFaultScenario({ ...sizes, connectionString: await server.url(), schema: 'worker_pool_fault' });
    const output = fileURLToPath(new URL('../../../test-output/', import.meta.url));
    await mkdir(output, { recursive: true });
    await writeFile(`${output}worker-pool-fault.json`, `${JSON.stringify(report, null, 2)}\n`);

    expect(report.errors).toEqual([]);
    expect(report.violations).toEqual([]);
    expect(report.sessions).toBe(sizes.sessions);
    expect(report.episodes).toBe(sizes.sessions * sizes.messagesPerSession);
    expect(report.messagesChecked).toBe(report.episodes * 8);
    // Every counted kill hit a worker in the middle of a job it had not finished.
    expect(report.kills).toBeGreaterThanOrEqual(sizes.kills);
    expect(report.takeovers).toBeGreaterThan(0);
    // No bound on the takeover time: the hang detector is the run's own (no job finished for
    // stallMs fails it, naming the unfinished jobs). pg-boss expires a dead worker's job 2 x leaseMs
    // after it was taken (whole seconds, found by a supervise pass each second): seconds on a quiet
    // machine, but 151 s at load 31 here, where live workers' jobs expired too. The longest is in
    // test-output/worker-pool-fault.json.
    expect(report.maxTakeoverMs).toBeGreaterThan(0);
  },
  sizes.timeoutMs + 30_000,
);
