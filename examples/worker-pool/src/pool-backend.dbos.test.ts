/**
 * The many-workers fault test on DBOS (issue 27): each episode is a DBOS workflow;
 * worker processes are SIGKILLed in the middle of episodes (in model calls, in
 * tools, between steps) and the live workers recover the dead ones' workflows
 * (executor heartbeats), replaying their recorded steps. Besides every invariant of
 * verify-pool.ts: `record_step` is declared not idempotent here, so it must never
 * have run twice. Needs a server (EPISODIC_PG_URL or a throwaway one); runs the built
 * worker (dist/dbos-worker.js): `npx tsc -b` first (npm test does).
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
beforeAll(() => server.url().then(() => {}, () => {}), 120_000);
afterAll(() => server.stop());

it(
  `DBOS: ${sizes.workers} workers, ${sizes.sessions} sessions, at least ${sizes.kills} SIGKILLs mid-job: every episode once, recovered by live workers, non-idempotent tools never twice`,
  async () => {
    const worker = fileURLToPath(new URL('../dist/dbos-worker.js', import.meta.url));
    expect(existsSync(worker), 'the fault run starts the built worker: run `npx tsc -b` first').toBe(true);
    const report = await runFaultScenario({ ...sizes, runtime: 'dbos', connectionString: await server.url(), schema: 'dbos_pool_fault' });
    const output = fileURLToPath(new URL('../../../test-output/', import.meta.url));
    await mkdir(output, { recursive: true });
    await writeFile(`${output}dbos-pool-fault.json`, `${JSON.stringify(report, null, 2)}\n`);

    expect(report.errors).toEqual([]);
    expect(report.violations).toEqual([]);
    expect(report.episodes).toBe(sizes.sessions * sizes.messagesPerSession);
    expect(report.messagesChecked).toBe(report.episodes * 8);
    // Every counted kill left a workflow unfinished: a live worker must have taken each one over.
    expect(report.kills).toBeGreaterThanOrEqual(sizes.kills);
    expect(report.takeovers).toBeGreaterThan(0);
    expect(report.toolReruns).toBe(0);
    // No bound on the takeover time: the hang detector is the run's own (no job finished for
    // stallMs fails it, naming the unfinished jobs). A dead executor is found within about leaseMs
    // of its last beat, but its workflow then waits for the queue, which picks partitions (sessions)
    // at random (priority orders only within one): at load 30 one waited 359 s behind other
    // sessions while the pool kept finishing jobs. The longest is in test-output/dbos-pool-fault.json.
    expect(report.maxTakeoverMs).toBeGreaterThan(0);
  },
  sizes.timeoutMs + 30_000,
);
