/**
 * @episodic/restate against a real Restate server (its npm binary, on 127.0.0.1;
 * the test fails if it cannot start): an episode end to end with the scripted model
 * and the memory store, every model call and tool execution a journaled `ctx.run`
 * under the port's step id; and an approval that survives SIGKILLs of both the
 * endpoint process and the Restate server, decided afterwards from a client, with
 * the non-idempotent tool run exactly once. Runs the built packages in the child
 * endpoint (`npx tsc -b` first; npm test does).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent, MemorySessionStore, type ModelRequest } from '@episodic/core';
import { FileSessionStore } from '@episodic/core/node';
import { createApproximateCounter, scriptedModel } from '@episodic/core/testing';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { EpisodesClient } from './episodes-client.js';
import { serveEpisodes } from './serve-episodes.js';
import { freePort, RestateServer } from './testing/restate-server.js';

let server: RestateServer;
beforeAll(async () => {
  server = await RestateServer.start();
}, 90_000);
afterAll(() => server?.stop());

const counter = createApproximateCounter();

/** Names of the journaled `ctx.run` entries. */
async function journaledRuns(): Promise<string[]> {
  const rows = await server.query<{ name: string }>("SELECT name FROM sys_journal WHERE entry_type = 'Command: Run' OR entry_type = 'Run'");
  return rows.map((row) => row.name);
}

it('runs episodes on a session object, each model call and tool execution a ctx.run step named by the port', async () => {
  const store = new MemorySessionStore();
  let lookups = 0;
  const steps = (request: ModelRequest) =>
    request.messages.at(-1)?.role === 'tool'
      ? { text: `Found it (${request.messages.filter((message) => message.role === 'user').length}).` }
      : { text: 'Looking.', toolCalls: [{ id: `call_${request.messages.length}`, name: 'lookup', args: { q: 'x' } }] };
  const lookup = {
    spec: { name: 'lookup', description: 'Looks a thing up.', inputSchema: { type: 'object' } },
    execute: async () => ({ content: `result ${(lookups += 1)}` }),
  };
  const agent = new Agent({ model: scriptedModel({ steps }), tools: [lookup], store, context: { tokenizer: counter } });
  const endpoint = await serveEpisodes({ agent });
  try {
    await server.register(endpoint.url);
    const client = new EpisodesClient(server.ingressUrl);
    await client.send({ sessionId: 'e2e', episode: 0, input: 'First question.' });
    await client.send({ sessionId: 'e2e', episode: 1, input: 'Second question.' });
    // A repeated send is the same invocation: the episode is not run twice.
    await client.send({ sessionId: 'e2e', episode: 0, input: 'First question.' });
    expect(await client.result('e2e', 1)).toEqual({ status: 'finished', reason: 'done', text: 'Found it (2).' });
    expect(await client.result('e2e', 0)).toEqual({ status: 'finished', reason: 'done', text: 'Found it (1).' });
    const messages = (await store.load('e2e'))?.messages ?? [];
    expect(messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'user', 'assistant', 'tool', 'assistant']);
    expect(lookups).toBe(2);
    const runs = await journaledRuns();
    // Exactly the port's ids (model steps count from 1), and nothing else journaled as a run.
    expect([...runs].sort()).toEqual(['e2e/0/model/1', 'e2e/0/model/2', 'e2e/0/tool/call_1', 'e2e/1/model/1', 'e2e/1/model/2', 'e2e/1/tool/call_5']);
  } finally {
    await endpoint.close();
  }
}, 90_000);

it('result() waits on the send it made, in one request, however long the episode queues; another client waits on the workflow', async () => {
  const store = new MemorySessionStore();
  const slow = {
    spec: { name: 'slow', description: 'Takes a while.', inputSchema: { type: 'object' } },
    execute: async () => {
      await sleep(600);
      return { content: 'done slowly' };
    },
  };
  const steps = (request: ModelRequest) =>
    request.messages.at(-1)?.role === 'tool' || request.messages.length > 2
      ? { text: `Answer ${request.messages.filter((message) => message.role === 'user').length}.` }
      : { text: 'Working.', toolCalls: [{ id: 'call_slow', name: 'slow', args: {} }] };
  const agent = new Agent({ model: scriptedModel({ steps }), tools: [slow], store, tokenizer: counter });
  const endpoint = await serveEpisodes({ agent });
  const requests = vi.spyOn(globalThis, 'fetch');
  try {
    await server.register(endpoint.url);
    const client = new EpisodesClient(server.ingressUrl);
    await client.send({ sessionId: 'queued', episode: 0, input: 'Slow one.' });
    await client.send({ sessionId: 'queued', episode: 1, input: 'Quick one.' });
    requests.mockClear();
    // Episode 1 waits behind episode 0's slow tool: its workflow does not exist yet.
    expect(await client.result('queued', 1)).toEqual({ status: 'finished', reason: 'done', text: 'Answer 2.' });
    expect(requests.mock.calls.map(([url]) => String(url).replace(server.ingressUrl, ''))).toEqual([
      expect.stringMatching(/^\/restate\/invocation\/inv_[^/]+\/attach$/),
    ]);
    // A client that did not send it (another process) gets it from the episode's workflow.
    expect(await new EpisodesClient(server.ingressUrl).result('queued', 0)).toEqual({ status: 'finished', reason: 'done', text: 'Answer 1.' });
  } finally {
    requests.mockRestore();
    await endpoint.close();
  }
}, 90_000);

/** The child endpoint: the built packages, a file store shared with the test, `pay` needing approval and not idempotent. */
const childSource = (root: string) => `
import { appendFile } from 'node:fs/promises';
import { Agent } from '${root}/packages/core/dist/index.js';
import { FileSessionStore } from '${root}/packages/core/dist/node.js';
import { createApproximateCounter, scriptedModel } from '${root}/packages/core/dist/testing/index.js';
import { serveEpisodes } from '${root}/packages/restate/dist/index.js';
const [directory, payments, port] = process.argv.slice(1);
const steps = (request) => request.messages.at(-1)?.role === 'tool'
  ? { text: 'Paid.' }
  : { text: 'Paying.', toolCalls: [{ id: 'call_1', name: 'pay', args: { invoice: '42' } }] };
const pay = {
  spec: { name: 'pay', description: 'Pays an invoice.', inputSchema: { type: 'object' } },
  idempotent: false,
  needsApproval: true,
  execute: async () => { await appendFile(payments, 'paid\\n'); return { content: 'payment sent' }; },
};
const store = new FileSessionStore({ directory, staleMs: 2000 });
const agent = new Agent({ model: scriptedModel({ steps }), tools: [pay], store, tokenizer: createApproximateCounter() });
await serveEpisodes({ agent, port: Number(port) });
process.stdout.write('ready\\n');
`;

function startChild(root: string, args: string[]): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--input-type=module', '-e', childSource(root), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let errors = '';
  child.stderr?.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => chunk.toString().includes('ready') && resolve(child));
    child.once('exit', (code) => reject(new Error(`the endpoint exited with ${code}: ${errors}`)));
  });
}

it('an approval survives SIGKILLs of the endpoint and the Restate server; the paying tool runs once', async () => {
  const root = fileURLToPath(new URL('../../../', import.meta.url));
  expect(existsSync(join(root, 'packages/restate/dist/index.js')), 'the child endpoint runs the build: `npx tsc -b` first').toBe(true);
  const directory = await mkdtemp(join(tmpdir(), 'episodic-restate-approval-'));
  const payments = join(directory, 'payments.log');
  const port = await freePort();
  const args = [join(directory, 'sessions'), payments, String(port)];
  const store = new FileSessionStore({ directory: join(directory, 'sessions') });
  let child = await startChild(root, args);
  try {
    await server.register(`http://127.0.0.1:${port}`);
    const client = new EpisodesClient(server.ingressUrl);
    await client.send({ sessionId: 'pay', episode: 0, input: 'Pay invoice 42.' });
    // Paused on the call: the assistant message is stored, the call has no result, nothing was paid.
    for (let tries = 0; tries < 600 && ((await store.load('pay'))?.messages.length ?? 0) < 2; tries += 1) await sleep(50);
    await sleep(300);
    expect((await store.load('pay'))?.messages.map((message) => message.role)).toEqual(['user', 'assistant']);
    expect(existsSync(payments)).toBe(false);

    child.kill('SIGKILL');
    await server.kill();
    await server.restart();
    child = await startChild(root, args);
    expect((await client.state('pay', 0)).state).toBe('pending');

    await client.approve({ sessionId: 'pay', episode: 0, callId: 'call_1' }, { decision: 'approved', note: 'ok' });
    expect(await client.result('pay', 0)).toEqual({ status: 'finished', reason: 'done', text: 'Paid.' });
    expect(await readFile(payments, 'utf8')).toBe('paid\n');
    const messages = (await store.load('pay'))?.messages ?? [];
    expect(messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(messages[2]).toMatchObject({ role: 'tool', toolCallId: 'call_1', approval: { decision: 'approved' } });
    expect(messages[2]?.role === 'tool' && messages[2].content).toMatch(/^payment sent/);
  } finally {
    child.kill('SIGKILL');
    await rm(directory, { recursive: true, force: true });
  }
}, 120_000);

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
