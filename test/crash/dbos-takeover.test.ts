/**
 * Takeovers of @episodic/dbos across worker processes, each killed with SIGKILL at
 * one exact point that the random kills of the worker pool's fault run hit only now
 * and then (there, about one run in four hung until its time limit):
 * - a live worker that took a dead worker's heartbeat is itself killed before it
 *   handed the dead worker's workflow back (its recovery statement is held on a row lock);
 * - a worker is killed before its first heartbeat was written (the heartbeat table is
 *   locked), after DBOS in it could have taken a workflow.
 * Either way a worker started afterwards must take the episode over and finish it.
 * Needs a PostgreSQL server (EPISODIC_PG_URL or a throwaway one); the workers run the
 * built packages (`npx tsc -b` first; npm test does).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { DBOS } from '@dbos-inc/dbos-sdk';
import { EpisodesClient, ExecutorHeartbeats } from '@episodic/dbos';
import { PostgresSessionStore } from '@episodic/postgres';
import { serverPerFile } from '@episodic/postgres/testing';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';

const child = fileURLToPath(new URL('./dbos-takeover-child.mjs', import.meta.url));
const builtDbos = fileURLToPath(new URL('../../packages/dbos/dist/index.js', import.meta.url));
const server = serverPerFile();
beforeAll(() => server.url().then(() => {}, () => {}), 120_000);
afterAll(() => server.stop());

interface Worker {
  process: ChildProcess;
  output: () => string;
  exited: Promise<void>;
}
const workers: Worker[] = [];
afterEach(() => {
  for (const worker of workers.splice(0)) worker.process.kill('SIGKILL');
});

function startWorker(url: string, schema: string, executorId: string, hang: boolean): Worker {
  const process_ = spawn(process.execPath, [child, JSON.stringify({ url, schema, executorId, hang })], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  process_.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  process_.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => process_.once('exit', () => resolve()));
  const worker = { process: process_, output: () => output, exited };
  workers.push(worker);
  return worker;
}

async function kill(worker: Worker): Promise<void> {
  worker.process.kill('SIGKILL');
  await worker.exited;
}

async function waitFor(what: () => string, condition: () => Promise<boolean> | boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`${what()}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Fresh schemas for one test, the session store's tables, DBOS's tables and one queued episode. */
async function prepare(pool: pg.Pool, url: string, schema: string): Promise<EpisodesClient> {
  for (const name of [`${schema}_store`, `${schema}_dbos`]) await pool.query(`DROP SCHEMA IF EXISTS "${name}" CASCADE`);
  await new PostgresSessionStore({ pool, schema: `${schema}_store` }).migrate();
  await DBOS.migrate(url, { schemaName: `${schema}_dbos` });
  const client = await EpisodesClient.create({ databaseUrl: url, schema: `${schema}_dbos` });
  await client.start({ sessionId: 's1', episode: 0, input: 'Go.' });
  return client;
}

/** A backend of another session waiting on a lock, in a statement matching `pattern`. */
async function blockedOn(pool: pg.Pool, pattern: string): Promise<boolean> {
  const { rows } = await pool.query(
    `SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE $1 AND pid <> pg_backend_pid()`,
    [pattern],
  );
  return rows.length > 0;
}

/**
 * Ends the server sessions of a killed worker that still wait on a lock: the worker died
 * before its statement reached the server. (Killed, it cannot take them back; PostgreSQL
 * would otherwise run them once the lock is gone, as it does not watch an idle client.)
 */
async function dropBlocked(pool: pg.Pool, pattern: string): Promise<number> {
  const { rows } = await pool.query(
    `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE $1 AND pid <> pg_backend_pid()`,
    [pattern],
  );
  return rows.length;
}

/** The episode finishes on a worker started now; its transcript holds the answer once. */
async function finishesOnAFreshWorker(pool: pg.Pool, url: string, schema: string, client: EpisodesClient): Promise<void> {
  const live = startWorker(url, schema, `${schema}-live`, false);
  const status = async () => (await client.statuses()).find((found) => found.workflowId === 's1/0')?.status;
  // Lease 1 s: the dead worker is found within about a second of a beat, then the queue hands the episode out.
  let last: string | undefined;
  const done = async () => (last = await status()) === 'SUCCESS';
  await waitFor(() => `the episode finishing on the live worker (status ${last}; it said: ${live.output()})`, done, 60_000);
  const stored = await new PostgresSessionStore({ pool, schema: `${schema}_store` }).load('s1');
  expect(stored?.messages.map((message) => message.role)).toEqual(['user', 'assistant']);
}

it('a worker killed between taking a dead worker\'s heartbeat and handing its workflow back: a worker started later takes the episode over', async () => {
  expect(existsSync(builtDbos), 'the workers run the built @episodic/dbos: run `npx tsc -b` first').toBe(true);
  const url = await server.url();
  const pool = new pg.Pool({ connectionString: url, max: 3 });
  const client = await prepare(pool, url, 't1');
  const lock = await pool.connect();
  try {
    const dead = startWorker(url, 't1', 't1-dead', true);
    await waitFor(() => `the first worker starting the episode (${dead.output()})`, () => dead.output().includes('start s1/0'), 60_000);
    await waitFor(() => 'its first heartbeat', async () => (await pool.query(`SELECT 1 FROM t1_dbos.episodic_executors WHERE executor_id = 't1-dead'`)).rows.length > 0, 10_000);
    await kill(dead);

    // The next worker finds the dead one silent and moves its workflow back to the queue; that
    // statement waits on this lock, and the worker is killed while it waits.
    await lock.query('BEGIN');
    await lock.query(`SELECT 1 FROM t1_dbos.workflow_status WHERE workflow_uuid = 's1/0' FOR UPDATE`);
    const recoverer = startWorker(url, 't1', 't1-recoverer', false);
    await waitFor(() => `the second worker handing the workflow back (${recoverer.output()})`, () => blockedOn(pool, '%started_at_epoch_ms = NULL%'), 60_000);
    await kill(recoverer);
    expect(await dropBlocked(pool, '%started_at_epoch_ms = NULL%')).toBe(1);
    await lock.query('ROLLBACK');

    await finishesOnAFreshWorker(pool, url, 't1', client);
  } finally {
    lock.release();
    await client.close();
    await pool.end();
  }
}, 180_000);

it('a worker killed before its first heartbeat: a worker started later takes the episode over', async () => {
  expect(existsSync(builtDbos), 'the workers run the built @episodic/dbos: run `npx tsc -b` first').toBe(true);
  const url = await server.url();
  const pool = new pg.Pool({ connectionString: url, max: 3 });
  const client = await prepare(pool, url, 't2');
  // The heartbeat table, made as a worker makes it (its row is gone again after stop()).
  const probe = new ExecutorHeartbeats({ databaseUrl: url, schema: 't2_dbos', executorId: 't2-probe', leaseMs: 1_000, queueName: 'episodic-episodes' });
  await probe.start();
  await probe.stop();
  const lock = await pool.connect();
  try {
    // No worker can write its heartbeat while this lock is held.
    await lock.query('BEGIN');
    await lock.query('LOCK TABLE t2_dbos.episodic_executors IN ACCESS EXCLUSIVE MODE');
    const early = startWorker(url, 't2', 't2-early', true);
    await waitFor(() => `the worker's first heartbeat waiting on the lock (${early.output()})`, () => blockedOn(pool, '%episodic_executors%'), 60_000);
    // DBOS polls the queue every 100 ms: a worker able to take work before its heartbeat has taken the episode by now.
    const until = Date.now() + 3_000;
    while (Date.now() < until && !early.output().includes('start s1/0')) await new Promise((resolve) => setTimeout(resolve, 50));
    await kill(early);
    expect(await dropBlocked(pool, '%episodic_executors%')).toBe(1);
    await lock.query('ROLLBACK');

    await finishesOnAFreshWorker(pool, url, 't2', client);
  } finally {
    lock.release();
    await client.close();
    await pool.end();
  }
}, 180_000);
