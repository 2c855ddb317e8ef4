/**
 * Secrets and Restate's journal, from the attacker's side, against a real Restate
 * server (its npm binary, on 127.0.0.1): a tool prints a key and another fails with
 * one in its message. Each tool execution is a journaled `ctx.run` whose result the
 * server keeps; that journal must hold `[redacted]` where the transcript does, never the key.
 */
import { Agent, MemorySessionStore, type ModelRequest } from '@episodic/core';
import { createApproximateCounter, scriptedModel } from '@episodic/core/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { EpisodesClient } from './episodes-client.js';
import { serveEpisodes } from './serve-episodes.js';
import { RestateServer } from './testing/restate-server.js';

let server: RestateServer;
beforeAll(async () => {
  server = await RestateServer.start();
}, 90_000);
afterAll(() => server?.stop());

const secret = 'sk-planted-restate-6e2f91ab04c7';

it("journals tool outputs and tool failures without the agent's secrets", async () => {
  const store = new MemorySessionStore();
  const steps = (request: ModelRequest) =>
    request.messages.at(-1)?.role === 'tool'
      ? { text: 'Done.' }
      : { toolCalls: [{ id: 'call_1', name: 'print_env', args: {} }, { id: 'call_2', name: 'call_api', args: {} }] };
  const printEnv = {
    spec: { name: 'print_env', description: 'Prints the environment.', inputSchema: { type: 'object' } },
    execute: async () => ({ content: `PAYMENTS_KEY=${secret}` }),
  };
  const callApi = {
    spec: { name: 'call_api', description: 'Calls the API.', inputSchema: { type: 'object' } },
    execute: async () => {
      throw new Error(`401: key ${secret} revoked`);
    },
  };
  const tokenizer = createApproximateCounter();
  const tools = [printEnv, callApi];
  const agent = new Agent({ model: scriptedModel({ steps }), tools, store, secrets: [secret], context: { tokenizer } });
  const endpoint = await serveEpisodes({ agent });
  try {
    await server.register(endpoint.url);
    const client = new EpisodesClient(server.ingressUrl);
    await client.send({ sessionId: 'leak', episode: 0, input: 'Check the key.' });
    expect(await client.result('leak', 0)).toEqual({ status: 'finished', reason: 'done', text: 'Done.' });
    const tools = ((await store.load('leak'))?.messages ?? []).filter((message) => message.role === 'tool');
    expect(tools.map((message) => message.content)).toEqual(['PAYMENTS_KEY=[redacted]', 'Tool "call_api" failed: 401: key [redacted] revoked']);
    // Every journal entry's bytes as the server stores them (protobuf, payloads inside verbatim).
    const rows = await server.query<{ raw: string }>('SELECT raw FROM sys_journal');
    const journal = rows.map((row) => Buffer.from(row.raw, 'hex').toString('utf8')).join('\n');
    expect(journal).toContain('PAYMENTS_KEY=[redacted]');
    expect(journal).not.toContain(secret);
  } finally {
    await endpoint.close();
  }
}, 90_000);
