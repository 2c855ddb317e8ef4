/**
 * On-demand compaction on Restate (its npm server binary on 127.0.0.1, the endpoint in a
 * child process): the endpoint running an episode is killed at each point of its
 * compaction and started again; Restate retries the invocation there
 * (on-demand-durable-support.ts says what must hold). The endpoints run the built
 * packages (`npx tsc -b` first; npm test does).
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EpisodesClient } from '@episodic/restate';
import { freePort, RestateServer } from '@episodic/restate/testing';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { type AnthropicServer, startAnthropicServer } from '../servers/anthropic-server.js';
import { CRASH_NAMES, CRASH_POINTS, crashDuringCompaction, startWorker } from './on-demand-durable-support.js';

const builtRestate = fileURLToPath(new URL('../../packages/restate/dist/index.js', import.meta.url));
let restate: RestateServer;
beforeAll(async () => {
  restate = await RestateServer.start();
}, 90_000);
afterAll(() => restate?.stop());

let anthropic: AnthropicServer;
let directory: string;
beforeEach(async () => {
  anthropic = await startAnthropicServer();
  directory = await mkdtemp(join(tmpdir(), 'episodic-on-demand-restate-'));
});
afterEach(async () => {
  await anthropic.close();
  await rm(directory, { recursive: true, force: true });
});

const runs = [...CRASH_POINTS.map((crash) => ({ crash, background: false })), { crash: 'during' as const, background: true }];
for (const [index, { crash, background }] of runs.entries()) {
  it(`an endpoint killed ${CRASH_NAMES[crash]}${background ? ' (asked in the background: run in the foreground, and a warning says so)' : ''}: started again, it finishes the episode, nothing lost or doubled`, async () => {
    expect(existsSync(builtRestate), 'the endpoints run the built @episodic/restate: run `npx tsc -b` first').toBe(true);
    const port = await freePort();
    let registered = false;
    const worker = async (point: string) => {
      const started = await startWorker({ runtime: 'restate', anthropicUrl: anthropic.url, directory, crash: point, background, port });
      if (!registered) await restate.register(`http://127.0.0.1:${port}`);
      registered = true;
      return started;
    };
    const client = new EpisodesClient(restate.ingressUrl);
    // A session per test: Restate keeps every workflow it ran.
    const sessionId = `od${index}`;
    await crashDuringCompaction(
      {
        server: anthropic,
        concurrentSteps: false,
        directory,
        sessionId,
        worker,
        send: (episode, input) => client.send({ sessionId, episode, input }),
        result: (episode) => client.result(sessionId, episode),
      },
      crash,
      background ? 'background' : 'foreground',
    );
  }, 180_000);
}
