/**
 * Worker processes launched together on a fresh database, as the README's "in every
 * worker process: launch" has it: every launch succeeds and DBOS's tables are
 * migrated once (one version row), round after round. DBOS is one per process, so
 * each worker is a child process running the built packages (`npx tsc -b` first).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serverPerFile } from '@episodic/postgres/testing';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';

const server = serverPerFile();
beforeAll(() => server.url().then(() => {}, () => {}), 120_000);
afterAll(() => server.stop());

const root = fileURLToPath(new URL('../../../', import.meta.url));

/** A worker that loads everything, says "ready", launches on "go", and reports how the launch went. */
const workerSource = `
import { Agent, MemorySessionStore } from '${root}/packages/core/dist/index.js';
import { createApproximateCounter, scriptedModel } from '${root}/packages/core/dist/testing/index.js';
import { DbosEpisodes } from '${root}/packages/dbos/dist/index.js';
const [url] = process.argv.slice(1);
const agent = new Agent({ model: scriptedModel({ steps: [{ text: 'hi' }] }), store: new MemorySessionStore(), tokenizer: createApproximateCounter() });
process.stdout.write('ready\\n');
process.stdin.once('data', async () => {
  try {
    const episodes = await DbosEpisodes.launch({ agent, databaseUrl: url });
    await episodes.shutdown();
    process.stdout.write('launched\\n');
    process.exit(0);
  } catch (error) {
    process.stdout.write('failed: ' + (error?.message ?? error) + '\\n');
    process.exit(1);
  }
});
`;

interface Worker {
  child: ChildProcess;
  output: string;
  exit: Promise<number | null>;
}

function startWorker(url: string): Promise<Worker> {
  const child = spawn(process.execPath, ['--input-type=module', '-e', workerSource, url], { stdio: ['pipe', 'pipe', 'pipe'] });
  const worker: Worker = { child, output: '', exit: new Promise((resolve) => child.once('exit', resolve)) };
  child.stderr?.on('data', (chunk: Buffer) => (worker.output += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      worker.output += chunk.toString();
      if (worker.output.includes('ready')) resolve(worker);
    });
    void worker.exit.then((code) => reject(new Error(`worker exited with ${code} before it was ready: ${worker.output}`)));
  });
}

it('workers launching at once on a fresh database all start, and DBOS migrates once', async () => {
  expect(existsSync(join(root, 'packages/dbos/dist/index.js')), 'the workers run the build: `npx tsc -b` first').toBe(true);
  const url = await server.url();
  const admin = new pg.Pool({ connectionString: url, max: 1 });
  try {
    for (let round = 0; round < 3; round += 1) {
      const database = `launch_race_${round}`;
      await admin.query(`DROP DATABASE IF EXISTS ${database}`);
      await admin.query(`CREATE DATABASE ${database}`);
      const target = new URL(url);
      target.pathname = `/${database}`;
      const workers = await Promise.all([0, 1, 2].map(() => startWorker(target.toString())));
      for (const worker of workers) worker.child.stdin?.write('go\n');
      const codes = await Promise.all(workers.map((worker) => worker.exit));
      expect(workers.map((worker) => worker.output.trim().split('\n').at(-1)), `round ${round}`).toEqual(['launched', 'launched', 'launched']);
      expect(codes).toEqual([0, 0, 0]);
      const check = new pg.Client({ connectionString: target.toString() });
      await check.connect();
      const { rows } = await check.query<{ version: string }>('SELECT version FROM dbos.dbos_migrations');
      await check.end();
      expect(rows).toHaveLength(1);
    }
  } finally {
    await admin.end();
  }
}, 240_000);
