/**
 * Structured answers on the wire: the field each adapter fills for a request's
 * `output` format (checked in the body the loopback server received), and what the
 * servers refuse, so a wrong field, an unfit schema or a profile that claims native
 * structured output where the API has none fails here.
 */
import { generate, type ModelAdapter, type ModelRequest } from '@episodic/core';
import { toolInputSchema } from '@episodic/core/internal';
import { createAnthropicAdapter } from '@episodic/providers/anthropic';
import { createGoogleAdapter } from '@episodic/providers/google';
import { createOpenAIChatAdapter, createOpenAIResponsesAdapter } from '@episodic/providers/openai';
import { createOpenAICompatibleAdapter } from '@episodic/providers/openai-compatible';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startAnthropicServer } from '../servers/anthropic-server.js';
import { startGeminiServer } from '../servers/gemini-server.js';
import { startOpenAIChatServer } from '../servers/openai-chat-server.js';
import { startOpenAIResponsesServer } from '../servers/openai-responses-server.js';
import type { ScriptedServer } from '../servers/scripted-server.js';
import { testToolSpecs } from './conformance-tools.js';

const required = z.object({ verdict: z.enum(['flaky', 'broken']), runs: z.array(z.object({ number: z.int() })) });
const withOptional = z.object({ verdict: z.string(), line: z.number().int().min(1).optional() });

const request = (schema: z.ZodType, tools = true): ModelRequest => ({
  messages: [{ role: 'user', content: 'Why is CI red?' }],
  ...(tools ? { tools: testToolSpecs } : {}),
  output: { name: 'final_answer', schema: toolInputSchema(schema, 'Output schema') },
});

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function call(started: ScriptedServer, adapter: ModelAdapter, body: ModelRequest) {
  server = started;
  started.enqueue({ type: 'reply', text: '{"verdict":"flaky","runs":[]}' });
  const outcome = await generate(adapter, body).then(
    (response) => ({ text: response.message.content.map((part) => (part.type === 'text' ? part.text : '')).join('') }),
    (error: Error) => ({ error: error.message }),
  );
  const sent = started.requests.at(-1);
  return { outcome, body: sent?.body as Record<string, unknown>, view: sent?.view, status: sent?.status };
}

describe('structured answers on each wire API', () => {
  it('Responses: text.format json_schema, strict when strict mode keeps the answer`s shape', async () => {
    const started = await startOpenAIResponsesServer();
    const adapter = createOpenAIResponsesAdapter({ model: 'gpt-5', baseURL: started.url, apiKey: 'k' });
    const strict = await call(started, adapter, request(required));
    expect(strict.outcome).toEqual({ text: '{"verdict":"flaky","runs":[]}' });
    expect(strict.body.text).toMatchObject({
      format: { type: 'json_schema', name: 'final_answer', strict: true, schema: { additionalProperties: false } },
    });
    const loose = await call(started, adapter, request(withOptional));
    expect(loose.status).toBe(200);
    expect(loose.body.text).toMatchObject({ format: { strict: false, schema: { required: ['verdict'] } } });
  });

  it('the Responses server refuses a strict schema that leaves a property out of required', async () => {
    server = await startOpenAIResponsesServer();
    const response = await fetch(`${server.url}/responses`, {
      method: 'POST',
      headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'gpt-5',
        input: 'hi',
        text: { format: { type: 'json_schema', name: 'answer', strict: true, schema: toolInputSchema(withOptional) } },
      }),
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toBe(
      "Invalid schema for response_format 'answer': In context=(), 'additionalProperties' is required to be supplied and to be false.",
    );
  });

  it('Chat Completions: response_format json_schema (OpenAI); a host without it refuses it', async () => {
    const started = await startOpenAIChatServer('openai');
    const adapter = createOpenAIChatAdapter({ model: 'gpt-4.1', baseURL: started.url, apiKey: 'k' });
    const sent = await call(started, adapter, request(required));
    expect(sent.status).toBe(200);
    expect(sent.body.response_format).toMatchObject({
      type: 'json_schema',
      json_schema: { name: 'final_answer', strict: true, schema: { type: 'object' } },
    });
    expect(sent.view?.outputFormat).toMatchObject({ name: 'final_answer', strict: true });
    await server?.close();

    const deepseek = await startOpenAIChatServer('deepseek-thinking');
    const claimed = createOpenAICompatibleAdapter({
      provider: 'deepseek',
      model: 'deepseek-v3.2',
      baseURL: deepseek.url,
      apiKey: 'k',
      profile: { structuredOutput: 'native' },
    });
    const refused = await call(deepseek, claimed, request(required));
    expect(refused.status).toBe(400);
    expect(refused.outcome).toMatchObject({ error: expect.stringContaining('This response_format type is unavailable now') });
  });

  it('Anthropic: output_config.format with every object closed and refused constraints moved to descriptions', async () => {
    const started = await startAnthropicServer();
    const adapter = createAnthropicAdapter({ model: 'claude-opus-4-5', baseURL: started.url, apiKey: 'k' });
    const sent = await call(started, adapter, request(withOptional));
    expect(sent.status).toBe(200);
    const format = (sent.body.output_config as { format: { schema: Record<string, Record<string, unknown>> } }).format;
    expect(format).toMatchObject({ type: 'json_schema', schema: { additionalProperties: false } });
    expect(format.schema.properties?.line).toEqual({ type: 'integer', description: '(minimum: 1)' });
    await server?.close();

    const older = await startAnthropicServer();
    const claimed = createAnthropicAdapter({
      model: 'claude-sonnet-4-0',
      baseURL: older.url,
      apiKey: 'k',
      profile: { structuredOutput: 'native' },
    });
    const refused = await call(older, claimed, request(required));
    expect(refused.outcome).toMatchObject({ error: expect.stringContaining('structured outputs are not supported') });
  });

  it('Gemini: responseMimeType and responseJsonSchema; 2.5 refuses them next to function declarations', async () => {
    const started = await startGeminiServer();
    const adapter = createGoogleAdapter({ model: 'gemini-3-flash-preview', baseURL: started.url, apiKey: 'k' });
    const sent = await call(started, adapter, request(required));
    expect(sent.status).toBe(200);
    expect(sent.body.generationConfig).toMatchObject({
      responseMimeType: 'application/json',
      responseJsonSchema: { type: 'object', required: ['verdict', 'runs'] },
    });
    await server?.close();

    const older = await startGeminiServer();
    const claimed = createGoogleAdapter({
      model: 'gemini-2.5-flash',
      baseURL: older.url,
      apiKey: 'k',
      profile: { structuredOutput: 'native' },
    });
    const refused = await call(older, claimed, request(required));
    expect(refused.outcome).toMatchObject({
      error: expect.stringContaining("Function calling with a response mime type: 'application/json' is unsupported"),
    });
    // Without tools 2.5 takes it.
    expect((await call(older, claimed, request(required, false))).status).toBe(200);
  });

  it('the profiles ask natively only where the wire API has structured output', () => {
    const profileOf = (adapter: ModelAdapter) => adapter.profile?.structuredOutput ?? 'tool';
    const url = 'http://127.0.0.1:9';
    expect(profileOf(createOpenAIResponsesAdapter({ model: 'gpt-5', baseURL: url, apiKey: 'k' }))).toBe('native');
    expect(profileOf(createAnthropicAdapter({ model: 'claude-sonnet-4-5', baseURL: url, apiKey: 'k' }))).toBe('native');
    expect(profileOf(createAnthropicAdapter({ model: 'claude-sonnet-4-0', baseURL: url, apiKey: 'k' }))).toBe('tool');
    expect(profileOf(createGoogleAdapter({ model: 'gemini-3-pro-preview', baseURL: url, apiKey: 'k' }))).toBe('native');
    expect(profileOf(createGoogleAdapter({ model: 'gemini-2.5-pro', baseURL: url, apiKey: 'k' }))).toBe('tool');
    const deepseek = createOpenAICompatibleAdapter({ provider: 'deepseek', model: 'deepseek-v3.2', baseURL: url, apiKey: 'k' });
    expect(profileOf(deepseek)).toBe('tool');
  });
});
