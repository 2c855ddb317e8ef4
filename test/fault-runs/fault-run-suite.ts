/**
 * The test setup the three fault runs share (examples/worker-pool: pg-boss, DBOS,
 * Restate): a PostgreSQL server per file (EPISODIC_PG_URL, or a throwaway one; the
 * test fails without one), the built worker script checked for, the report written
 * to test-output/<name>.json, and the checks every run must pass: no errors, no
 * broken invariant, every episode checked, at least `kills` kills landed, at least
 * one in a model call, one in a tool and one between steps, and the witness log
 * agreeing with where each was counted. Each file adds its runtime's own checks.
 */
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { serverPerFile } from '@episodic/postgres/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { FaultReport } from '../../examples/worker-pool/src/fault-report.js';
import type { FaultSizes } from '../../examples/worker-pool/src/fault-sizes.js';

/** One fault run as a test. */
export interface FaultRunTest {
  title: string;
  sizes: FaultSizes;
  /** The built worker script it starts (dist/...js in examples/worker-pool). */
  worker: string;
  /** The report's file name in test-output/, without `.json`. */
  output: string;
  run(connectionString: string, log: ((line: string) => void) | undefined): Promise<FaultReport>;
  /** The runtime's own checks. */
  check?(report: FaultReport): void;
}

/** Declares the test (see the module comment). */
export function faultRunTest(test: FaultRunTest): void {
  const server = serverPerFile();
  // Starts the server before the test's clock runs; a failure is the test's to report.
  beforeAll(() => server.url().then(() => {}, () => {}), 120_000);
  afterAll(() => server.stop());
  it(
    test.title,
    async () => {
      const worker = fileURLToPath(new URL(`../../examples/worker-pool/dist/${test.worker}`, import.meta.url));
      expect(existsSync(worker), 'the fault run starts the built worker: run `npx tsc -b` first').toBe(true);
      const log = process.env.EPISODIC_FAULT_LOG ? (line: string) => console.log(line) : undefined;
      const report = await test.run(await server.url(), log);
      const output = fileURLToPath(new URL('../../test-output/', import.meta.url));
      await mkdir(output, { recursive: true });
      await writeFile(`${output}${test.output}.json`, `${JSON.stringify(report, null, 2)}\n`);

      expect(report.errors).toEqual([]);
      expect(report.violations).toEqual([]);
      expect(report.sessions).toBe(test.sizes.sessions);
      expect(report.episodes).toBe(test.sizes.sessions * test.sizes.messagesPerSession);
      expect(report.messagesChecked).toBe(report.episodes * 8);
      // Every counted kill left a job unfinished; the kills were aimed at each place in turn.
      expect(report.kills).toBeGreaterThanOrEqual(test.sizes.kills);
      expect(report.killsByPhase.model, 'kills inside a model call').toBeGreaterThan(0);
      expect(report.killsByPhase.tool, 'kills inside a tool').toBeGreaterThan(0);
      expect(report.killsByPhase.between, 'kills between steps').toBeGreaterThan(0);
      // Where each kill was counted is what the killed worker last wrote in its witness log.
      expect(report.misclassified).toEqual([]);
      expect(report.takeovers).toBeGreaterThan(0);
      // No bound on the takeover time: the run's own hang detectors fail it (no job finished for
      // stallMs, a job failed for good, the 15-minute cap). The longest is in the JSON.
      expect(report.maxTakeoverMs).toBeGreaterThan(0);
      test.check?.(report);
    },
    test.sizes.timeoutMs + 30_000,
  );
}
