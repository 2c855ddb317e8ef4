/**
 * On-demand compaction on DBOS (workers in child processes, a throwaway PostgreSQL
 * server): the worker running an episode is killed at each point of its compaction,
 * and a fresh worker takes the workflow over (on-demand-durable-support.ts says what must
 * hold). The workers run the built packages (`npx tsc -b` first; npm test does).
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DBOS } from '@dbos-inc/dbos-sdk';
import { EpisodesClient } from '@episodic/dbos';
import { serverPerFile } from '@episodic/postgres/testing';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { type AnthropicServer, startAnthropicServer } from '../servers/anthropic-server.js';
import { CRASH_NAMES, CRASH_POINTS, crashDuringCompaction, startWorker } from './on-demand-durable-support.js';

const builtDbos = fileURLToPath(new URL('../../packages/dbos/dist/index.js', import.meta.url));
const postgres = serverPerFile();
beforeAll(() => postgres.url().then(() => {}, () => {}), 120_000);
afterAll(() => postgres.stop());

let anthropic: AnthropicServer;
let directory: string;
beforeEach(async () => {
  anthropic = await startAnthropicServer();
  directory = await mkdtemp(join(tmpdir(), 'episodic-on-demand-dbos-'));
});
afterEach(async () => {
  await anthropic.close();
  await rm(directory, { recursive: true, force: true });
});

const runs = [...CRASH_POINTS.map((crash) => ({ crash, background: false })), { crash: 'during' as const, background: true }];
for (const [index, { crash, background }] of runs.entries()) {
  it(`a worker killed ${CRASH_NAMES[crash]}${background ? ' (in the background, beside the episode)' : ''}: another takes the episode over, nothing lost or doubled`, async () => {
    expect(existsSync(builtDbos), 'the workers run the built @episodic/dbos: run `npx tsc -b` first').toBe(true);
    const url = await postgres.url();
    const schema = `od${index}_dbos`;
    const pool = new pg.Pool({ connectionString: url, max: 2 });
    await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await pool.end();
    let workers = 0;
    const worker = (point: string) =>
      startWorker({ runtime: 'dbos', anthropicUrl: anthropic.url, directory, crash: point, background, url, schema, executorId: `${schema}-${(workers += 1)}` });
    await DBOS.migrate(url, { schemaName: schema });
    const client = await EpisodesClient.create({ databaseUrl: url, schema });
    try {
      await crashDuringCompaction(
        {
          server: anthropic,
          concurrentSteps: true,
          directory,
          sessionId: 'od',
          worker,
          send: async (episode, input) => void (await client.start({ sessionId: 'od', episode, input })),
          result: (episode) => client.result('od', episode),
        },
        crash,
        background ? 'background' : 'foreground',
      );
    } finally {
      await client.close();
    }
  }, 180_000);
}
