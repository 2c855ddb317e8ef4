/**
 * Model fallback across providers, on the loopback wire servers with the official SDK
 * clients: the primary fails mid-episode (after a tool call), the fallback finishes
 * with the hand-off note in its instructions and nothing of the primary's reasoning
 * or opaque data on its wire; errors that are not worth failing over never reach it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  Agent,
  type AgentEvent,
  type AgentTool,
  type AssistantMessage,
  FallbackExhaustedError,
  MemorySessionStore,
  ModelError,
} from '@episodic/core';
import { createAnthropicAdapter } from '@episodic/providers/anthropic';
import { createOpenAIResponsesAdapter } from '@episodic/providers/openai';
import { startAnthropicServer } from '../servers/anthropic-server.js';
import { type OpenAIScriptedServer, startOpenAIResponsesServer } from '../servers/openai-responses-server.js';
import type { ScriptedServer } from '../servers/scripted-server.js';

const trace = 'The log says the db fixture timed out after 1 s; testTimeout in vitest.config.ts is the suspect.';
const read: AgentTool = {
  spec: { name: 'read_log', description: 'reads the CI log', inputSchema: { type: 'object', properties: {} } },
  execute: async () => ({ content: 'FAIL test/db.test.ts: timeout after 1000 ms' }),
};
const retry = { maxRetries: 1, sleep: async () => {} };
const servers: ScriptedServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function anthropic(): Promise<ScriptedServer> {
  const server = await startAnthropicServer();
  servers.push(server);
  return server;
}
async function openai(): Promise<OpenAIScriptedServer> {
  const server = await startOpenAIResponsesServer();
  servers.push(server);
  return server;
}
const claude = (server: ScriptedServer, baseURL = server.url) =>
  createAnthropicAdapter({ model: 'claude-opus-4-5', apiKey: 'test-key', baseURL, maxRetries: 0 });
const gpt = (server: ScriptedServer) =>
  createOpenAIResponsesAdapter({ model: 'gpt-5', apiKey: 'test-key', baseURL: server.url, maxRetries: 0 });

describe('model fallback on the wire', () => {
  it('Anthropic fails mid-episode (529 after retries); OpenAI Responses finishes with the hand-off note', async () => {
    const primary = await anthropic();
    const secondary = await openai();
    primary.enqueue(
      { type: 'reply', reasoning: [trace], toolCalls: [{ name: 'read_log', args: {} }] },
      { type: 'error', status: 529 },
      { type: 'error', status: 529 },
    );
    secondary.enqueue({ type: 'reply', text: 'Raise testTimeout to 5 s.' });
    const store = new MemorySessionStore();
    const agent = new Agent({ model: claude(primary), tools: [read], store, modelCalls: { fallback: [gpt(secondary)], retry } });
    const seen: AgentEvent[] = [];
    const session = await agent.session({ id: 'ci' });
    const result = await session.send('Why is CI red?', { onEvent: (event) => seen.push(event) });

    expect(result.message?.model).toEqual({ provider: 'openai', id: 'gpt-5' });
    expect(primary.modelCalls().map((call) => call.status)).toEqual([200, 529, 529]);
    const [call] = secondary.modelCalls();
    expect(call?.status).toBe(200);
    const body = JSON.stringify(call?.body);
    // The note is in the instructions; the trace and Anthropic's signature are nowhere else.
    const instructions = (call?.body as { instructions?: string }).instructions ?? '';
    expect(instructions).toContain(trace);
    expect(instructions).toContain('anthropic/claude-opus-4-5');
    expect(body.split(trace)).toHaveLength(2);
    expect(call?.view?.reasoningItems).toBe(0);
    const signed = primary.modelCalls()[0];
    expect(signed?.status).toBe(200);
    expect(body).not.toMatch(/"signature"|"thinking"/);

    const fallback = seen.find((event) => event.type === 'model-fallback');
    expect(fallback).toMatchObject({ step: 2, reason: 'overloaded', code: 'model_overloaded' });
    const reopened = await agent.session({ id: 'ci' });
    const last = reopened.messages.at(-1) as AssistantMessage;
    expect(last.fallback?.failed[0]).toMatchObject({
      model: { provider: 'anthropic', id: 'claude-opus-4-5' },
      code: 'model_overloaded',
      status: 529,
    });
  });

  it('OpenAI answers 404 model_not_found; Anthropic takes over', async () => {
    const primary = await openai();
    const secondary = await anthropic();
    primary.enqueue({
      type: 'http-error',
      status: 404,
      body: {
        error: {
          message: 'The model `gpt-5` does not exist or you do not have access to it.',
          type: 'invalid_request_error',
          param: null,
          code: 'model_not_found',
        },
      },
    });
    secondary.enqueue({ type: 'reply', text: 'Done.' });
    const agent = new Agent({ model: gpt(primary), modelCalls: { fallback: [claude(secondary)], retry } });
    const result = await (await agent.session()).send('hi');
    expect(result.message?.model?.provider).toBe('anthropic');
    expect(result.message?.fallback?.failed[0]).toMatchObject({ reason: 'model-not-found', status: 404 });
    expect(primary.modelCalls()).toHaveLength(1);
  });

  it.each([
    [
      'a bad request (400)',
      400,
      { message: "Invalid value: 'foo'. Supported values are: 'low', 'medium', 'high'.", type: 'invalid_request_error', param: 'reasoning.effort', code: 'invalid_value' },
    ],
    [
      'a bad key (401)',
      401,
      { message: 'Incorrect API key provided: test-key. You can find your API key at https://platform.openai.com/account/api-keys.', type: 'invalid_request_error', param: null, code: 'invalid_api_key' },
    ],
  ])('%s is not retried on the fallback', async (_name, status, error) => {
    const primary = await openai();
    const secondary = await anthropic();
    primary.enqueue({ type: 'http-error', status, body: { error } });
    const agent = new Agent({ model: gpt(primary), modelCalls: { fallback: [claude(secondary)], retry } });
    const failure = await (await agent.session()).send('hi').catch((caught: unknown) => caught);
    expect(ModelError.isInstance(failure)).toBe(true);
    expect((failure as ModelError).status).toBe(status);
    expect(secondary.modelCalls()).toHaveLength(0);
  });

  it('all models fail: a typed error names each model and its error', async () => {
    const primary = await anthropic();
    const secondary = await openai();
    primary.enqueue({ type: 'error', status: 500 }, { type: 'error', status: 500 });
    secondary.enqueue({ type: 'error', status: 503 }, { type: 'error', status: 503 });
    const agent = new Agent({ model: claude(primary), modelCalls: { fallback: [gpt(secondary)], retry } });
    const failure = await (await agent.session()).send('hi').catch((caught: unknown) => caught);
    expect(FallbackExhaustedError.isInstance(failure)).toBe(true);
    const { attempts } = failure as FallbackExhaustedError;
    expect(attempts.map((attempt) => [attempt.model, attempt.code])).toEqual([
      ['anthropic/claude-opus-4-5', 'model_server'],
      ['openai/gpt-5', 'model_overloaded'],
    ]);
    expect(attempts[0]?.message).toContain('Internal server error');
  });
});
