// examples/basics/restate.ts against a real Restate server (the npm binary, on
// 127.0.0.1): the payment waits, is listed, approved, and the episode finishes.
import { RestateServer } from '@episodic/restate/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runExample } from './run-example.js';

let server: RestateServer;
beforeAll(async () => {
  server = await RestateServer.start();
}, 90_000);
afterAll(() => server?.stop());

it('restate: the call waits, is listed with its episode, approved from the client, and the episode finishes', { timeout: 90_000 }, async () => {
  const lines = await runExample('restate', { RESTATE_INGRESS_URL: server.ingressUrl, RESTATE_ADMIN_URL: server.adminUrl });
  expect(lines).toEqual(['waiting: pay({"invoice":"42"}) in episode 0', 'finished: Invoice 42 is paid.']);
});
