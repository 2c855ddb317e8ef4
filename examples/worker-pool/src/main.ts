/**
 * Runs the worker pool once and prints what happened:
 *
 *   node examples/worker-pool/dist/main.js [--workers 4] [--sessions 50] [--messages 3] [--kills 30]
 *
 * The database is EPISODIC_PG_URL (or DATABASE_URL); without one, a throwaway
 * PostgreSQL server is started (PostgreSQL must be installed). `--kills 0` runs the
 * pool without faults. Exits 1 when an invariant broke.
 */
import { parseArgs } from 'node:util';
import { type LocalServer, serverForTests, startLocalServer } from '@episodic/postgres/testing';
import { runFaultScenario } from './fault-run.js';
import { CI_FAULT_SIZES } from './fault-sizes.js';

const { values } = parseArgs({
  options: {
    workers: { type: 'string' },
    sessions: { type: 'string' },
    messages: { type: 'string' },
    kills: { type: 'string' },
  },
});
const count = (text: string | undefined, fallback: number) => (text === undefined ? fallback : Number.parseInt(text, 10));

const url = process.env.EPISODIC_PG_URL ?? process.env.DATABASE_URL;
const server: LocalServer = url ? await serverForTests({ EPISODIC_PG_URL: url }) : await startLocalServer();
try {
  const report = await runFaultScenario({
    ...CI_FAULT_SIZES,
    workers: count(values.workers, CI_FAULT_SIZES.workers),
    sessions: count(values.sessions, CI_FAULT_SIZES.sessions),
    messagesPerSession: count(values.messages, CI_FAULT_SIZES.messagesPerSession),
    kills: count(values.kills, CI_FAULT_SIZES.kills),
    timeoutMs: 30 * 60_000,
    connectionString: server.url,
    schema: 'worker_pool_example',
    log: (line) => process.stderr.write(`${line}\n`),
  });
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  if (report.errors.length > 0 || report.violations.length > 0) process.exitCode = 1;
} finally {
  await server.stop();
}
