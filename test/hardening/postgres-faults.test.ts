/**
 * A PostgreSQL backend killed under the store (pg_terminate_backend, as a failover,
 * an operator or an idle-session killer does): the process must not crash, and the
 * error must be typed and say what happened. Runs the store in a child process so a
 * crash shows as a crash.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { serverPerFile } from '@episodic/postgres/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../packages/cli/src/testing/cli-harness.js';
import { dropSchema, freshSchema } from '../session-stores/postgres-fixtures.js';

const server = serverPerFile();
beforeAll(() => server.url().then(() => {}, () => {}), 120_000);
afterAll(() => server.stop());

const child = fileURLToPath(new URL('./migrate-child.mjs', import.meta.url));

function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const process_ = spawn(process.execPath, [child, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    process_.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    process_.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    process_.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('a backend killed under the store', () => {
  it('fails the migration with a typed error when its connection is killed inside the transaction; the process lives', async () => {
    const url = await server.url();
    const schema = freshSchema();
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      // Hold the migrations' advisory lock, so the child's migration waits inside its transaction.
      await admin.query('SELECT pg_advisory_lock(hashtext($1))', [`episodic migrations ${schema}`]);
      const running = run([url, schema]);
      let killed = 0;
      for (let attempt = 0; attempt < 200 && killed === 0; attempt += 1) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        const rows = await admin.query(
          `SELECT pg_terminate_backend(pid) AS done FROM pg_stat_activity
            WHERE pid <> pg_backend_pid() AND query LIKE '%pg_advisory_xact_lock%' AND state = 'active'`,
        );
        killed = rows.rowCount ?? 0;
      }
      expect(killed, 'the migration never waited on the lock').toBe(1);
      const { code, stdout, stderr } = await running;
      expect(stderr).not.toMatch(/Unhandled 'error' event/);
      expect(code, stderr).toBe(0);
      const [outcome, exit] = stdout.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(outcome).toMatchObject({ ok: false, code: 'database_connection_lost' });
      expect(String(outcome!.message)).toMatch(new RegExp(`migrat.*${schema}.*terminat`, 'is'));
      expect(exit).toEqual({ exited: 'cleanly' });
    } finally {
      await admin.end();
      await dropSchema(url, schema);
    }
  }, 60_000);

  it('says the database cannot be reached, naming where, when `episodic migrate` meets no server (not "a bug in episodic")', async () => {
    const { code, stderr } = await runCli(['migrate', '--store', 'postgres://ops:hunter2@127.0.0.1:1/episodic']);
    expect(code).not.toBe(0);
    expect(stderr).not.toMatch(/bug in episodic/);
    expect(stderr).toMatch(/migrating schema public: PostgreSQL cannot be reached \(.*127\.0\.0\.1:1/);
    expect(stderr).not.toContain('hunter2');
  });
});
