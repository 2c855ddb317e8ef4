/**
 * The Google adapter against the strict loopback Gemini API server: the shared
 * conformance suite on Gemini 3 (signatures required) and 2.5 (budget thinking).
 */
import { inspect } from 'node:util';
import { generate, type Message, ModelError } from '@episodic/core';
import { stripForeignReasoning } from '@episodic/core/reasoning';
import { MissingApiKeyError } from '@episodic/providers';
import { createGoogleAdapter, type GoogleAdapterOptions } from '@episodic/providers/google';
import {
  ApiError,
  type Content,
  type GenerateContentConfig,
  GoogleGenAI,
  type Part,
  ThinkingLevel,
} from '@google/genai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sdkParamErrors } from '../support/sdk-param-check.js';
import { startGeminiServer } from '../servers/gemini-server.js';
import type { ScriptedServer } from '../servers/scripted-server.js';
import { runConformance } from './conformance.js';
import { testToolSpecs } from './conformance-tools.js';

runConformance({
  name: 'google (gemini 3, signatures required)',
  startServer: () => startGeminiServer(),
  createAdapter: (url, { model }) => createGoogleAdapter({ model, baseURL: url, apiKey: 'test-key' }),
  models: { primary: 'gemini-3-pro-preview', secondary: 'gemini-3-flash-preview' },
  hooks: {
    afterScenario(scenario, { calls }) {
      if (scenario !== 'model-switch') return;
      // The secondary model gets the documented placeholder on the primary's current-turn call.
      const body = calls[1]?.body as { contents: Content[] };
      expect(body.contents[1]?.parts?.[0]?.thoughtSignature).toBe('skip_thought_signature_validator');
    },
  },
});

runConformance({
  name: 'google (gemini 2.5, thinking budget)',
  startServer: () => startGeminiServer(),
  createAdapter: (url, { model }) => createGoogleAdapter({ model, baseURL: url, apiKey: 'test-key' }),
  models: { primary: 'gemini-2.5-pro', secondary: 'gemini-2.5-flash' },
});

describe('gemini loopback server rejects what the API rejects', () => {
  let server: ScriptedServer;
  let client: GoogleGenAI;
  beforeEach(async () => {
    server = await startGeminiServer();
    client = new GoogleGenAI({ apiKey: 'test-key', httpOptions: { baseUrl: server.url } });
  });
  afterEach(() => server.close());

  const send = (model: string, contents: Content[], config: GenerateContentConfig = {}) =>
    client.models.generateContentStream({ model, contents, config }).then(
      async (stream) => {
        for await (const _chunk of stream);
        return 'accepted';
      },
      (error: unknown) => (error instanceof ApiError ? `${error.status} ${error.message}` : String(error)),
    );
  const user: Content = { role: 'user', parts: [{ text: 'CI is red' }] };
  const response = (name: string): Part => ({ functionResponse: { name, response: { output: 'ok' } } });

  /** One real step with two parallel calls; returns the model turn as streamed. */
  async function parallelStep(model: string): Promise<Part[]> {
    server.enqueue({
      type: 'reply',
      reasoning: ['plan'],
      toolCalls: [
        { name: 'get_ci_log', args: { run: 1 } },
        { name: 'read_file', args: { path: 'a' } },
      ],
    });
    const parts: Part[] = [];
    for await (const chunk of await client.models.generateContentStream({ model, contents: [user] }))
      parts.push(...(chunk.candidates?.[0]?.content?.parts ?? []));
    return parts.filter((part) => part.functionCall);
  }

  it('accepts a signed step sent back as calls then responses (control)', async () => {
    const calls = await parallelStep('gemini-3-pro-preview');
    expect(calls[0]?.thoughtSignature).toBeTruthy();
    const outcome = await send('gemini-3-pro-preview', [
      user,
      { role: 'model', parts: calls },
      { role: 'user', parts: [response('get_ci_log'), response('read_file')] },
    ]);
    expect(outcome).toBe('accepted');
  });

  it('rejects a current-turn function call without its signature on Gemini 3, not on 2.5', async () => {
    const contents: Content[] = [
      user,
      { role: 'model', parts: [{ functionCall: { name: 'get_ci_log', args: { run: 1 } } }] },
      { role: 'user', parts: [response('get_ci_log')] },
    ];
    expect(await send('gemini-3-pro-preview', contents)).toMatch(
      /^400 .*Function call is missing a thought_signature in functionCall parts\. .*`default_api:get_ci_log`/,
    );
    expect(await send('gemini-2.5-pro', contents)).toBe('accepted');
    const placeholder = structuredClone(contents);
    const call = placeholder[1]?.parts?.[0];
    if (call) call.thoughtSignature = 'skip_thought_signature_validator';
    expect(await send('gemini-3-pro-preview', placeholder)).toBe('accepted');
  });

  it('rejects interleaved parallel calls and responses', async () => {
    const [first, second] = await parallelStep('gemini-3-pro-preview');
    const outcome = await send('gemini-3-pro-preview', [
      user,
      { role: 'model', parts: [first as Part] },
      { role: 'user', parts: [response('get_ci_log')] },
      { role: 'model', parts: [second as Part] },
      { role: 'user', parts: [response('read_file')] },
    ]);
    expect(outcome).toContain(
      '400 {"error":{"code":400,"message":"Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn."',
    );
  });

  it('rejects a forged signature and a signature sent to another model', async () => {
    const calls = await parallelStep('gemini-3-pro-preview');
    const turn = (parts: Part[]): Content[] => [
      user,
      { role: 'model', parts },
      { role: 'user', parts: [response('get_ci_log'), response('read_file')] },
    ];
    const forged = calls.map((part, index) => (index === 0 ? { ...part, thoughtSignature: 'Zm9yZ2Vk' } : part));
    expect(await send('gemini-3-pro-preview', turn(forged))).toContain('Corrupted thought signature.');
    expect(await send('gemini-3-flash-preview', turn(calls))).toContain('Corrupted thought signature.');
  });

  it('rejects a function response that does not follow a function call turn', async () => {
    const outcome = await send('gemini-2.5-pro', [user, { role: 'user', parts: [response('get_ci_log')] }]);
    expect(outcome).toContain('Please ensure that function response turn comes immediately after a function call turn.');
  });

  it('rejects a zero thinking budget on a model that only works in thinking mode', async () => {
    const outcome = await send('gemini-2.5-pro', [user], { thinkingConfig: { thinkingBudget: 0 } });
    expect(outcome).toContain('Budget 0 is invalid. This model only works in thinking mode.');
  });

  it('rejects a thinking budget and a thinking level together', async () => {
    const outcome = await send('gemini-3-pro-preview', [user], {
      thinkingConfig: { thinkingBudget: 1024, thinkingLevel: ThinkingLevel.HIGH },
    });
    expect(outcome).toContain('You can only set only one of thinking budget and thinking level.');
  });
});

describe('google adapter specifics', () => {
  let server: ScriptedServer;
  beforeEach(async () => {
    server = await startGeminiServer();
  });
  afterEach(() => server.close());
  const adapterFor = (model: string, options: Partial<GoogleAdapterOptions> = {}) =>
    createGoogleAdapter({ model, baseURL: server.url, apiKey: 'test-key', ...options });
  const user = (content: string): Message => ({ role: 'user', content });
  type Body = { generationConfig: { thinkingConfig?: Record<string, unknown> }; contents: Content[]; tools?: unknown };
  const bodyOf = (index: number) => server.modelCalls()[index]?.body as Body;

  it('sends a thinking level on Gemini 3 and a budget on 2.5, never both', async () => {
    server.enqueue({ type: 'reply', text: 'a' }, { type: 'reply', text: 'b' }, { type: 'reply', text: 'c' });
    await generate(adapterFor('gemini-3-pro-preview'), { messages: [user('x')] });
    await generate(adapterFor('gemini-2.5-flash'), { messages: [user('x')] });
    await generate(adapterFor('gemini-2.5-flash', { thinking: { budget: 512, includeThoughts: false } }), {
      messages: [user('x')],
    });
    expect(bodyOf(0).generationConfig.thinkingConfig).toEqual({ includeThoughts: true, thinkingLevel: 'HIGH' });
    expect(bodyOf(1).generationConfig.thinkingConfig).toEqual({ includeThoughts: true, thinkingBudget: -1 });
    expect(bodyOf(2).generationConfig.thinkingConfig).toEqual({ includeThoughts: false, thinkingBudget: 512 });
  });

  it('sends system and developer lines of the transcript in the system instruction', async () => {
    server.enqueue({ type: 'reply', text: 'a' });
    const messages: Message[] = [
      user('x'),
      { role: 'system', content: 'Answer in French.' },
      { role: 'developer', content: 'Cite the log line.' },
    ];
    await generate(adapterFor('gemini-2.5-flash'), { system: 'You debug CI.', messages });
    const body = bodyOf(0) as Body & { systemInstruction?: { parts: { text: string }[] } };
    expect(body.systemInstruction?.parts.map((part) => part.text)).toEqual(['You debug CI.', 'Answer in French.', 'Cite the log line.']);
    const sent = [body.systemInstruction, ...body.contents];
    expect(sdkParamErrors([{ kind: 'google-contents', body: sent, label: 'system instruction with developer lines' }])).toEqual([]);
  });

  it('turns thinking off with a zero budget where the model allows it', async () => {
    server.enqueue({ type: 'reply', text: 'a' });
    await generate(adapterFor('gemini-2.5-flash', { thinking: { off: true } }), { messages: [user('x')] });
    expect(bodyOf(0).generationConfig.thinkingConfig).toEqual({ thinkingBudget: 0 });
    expect(server.modelCalls()[0]?.status).toBe(200);
  });

  it('keeps a signature that arrives on an empty text part and sends it back on that part', async () => {
    const adapter = adapterFor('gemini-3-pro-preview');
    server.enqueue({ type: 'reply', reasoning: ['why'], text: 'Answer.' }, { type: 'reply', text: 'Next.' });
    const first = await generate(adapter, { messages: [user('one')] });
    const [thought, text, signed] = first.message.content;
    expect(thought).toMatchObject({ type: 'reasoning', text: 'why' });
    expect(text).toMatchObject({ type: 'text', text: 'Answer.' });
    expect(signed).toMatchObject({
      type: 'text',
      text: '',
      providerData: { provider: 'google', model: 'gemini-3-pro-preview' },
    });
    expect(typeof signed?.providerData?.thoughtSignature).toBe('string');
    await generate(adapter, { messages: [user('one'), first.message, user('two')] });
    const modelTurn = bodyOf(1).contents[1];
    expect(modelTurn?.parts?.at(-1)).toEqual({ text: '', thoughtSignature: signed?.providerData?.thoughtSignature });
    expect(server.modelCalls()[1]?.status).toBe(200);
  });

  it('normalises tool schemas to the Gemini subset', async () => {
    server.enqueue({ type: 'reply', text: 'ok' });
    await generate(adapterFor('gemini-3-pro-preview'), { messages: [user('x')], tools: testToolSpecs });
    const declarations = (
      bodyOf(0).tools as { functionDeclarations: { name: string; parameters?: Record<string, unknown> }[] }[]
    )[0]?.functionDeclarations;
    const log = declarations?.find((declaration) => declaration.name === 'get_ci_log');
    expect(log?.parameters).toMatchObject({
      type: 'OBJECT',
      properties: { run: { type: 'INTEGER' } },
      required: ['run'],
    });
    expect(JSON.stringify(declarations)).not.toContain('additionalProperties');
    expect(declarations?.find((declaration) => declaration.name === 'failing_tool')?.parameters).toBeUndefined();
  });

  it('maps usage: prompt includes cache, output includes thoughts', async () => {
    server.enqueue({
      type: 'reply',
      reasoning: ['t'],
      text: 'x',
      usage: { input: 120, output: 30, reasoning: 8, cacheRead: 100 },
    });
    const result = await generate(adapterFor('gemini-2.5-pro'), { messages: [user('x')] });
    expect(result.usage).toEqual({ inputTokens: 120, cachedInputTokens: 100, outputTokens: 38, reasoningTokens: 8 });
    expect(result.stopReason).toBe('stop');
  });

  it('maps 503 to a retryable overloaded error with the RetryInfo delay', async () => {
    server.enqueue({ type: 'error', status: 503, retryAfterSeconds: 7 });
    const error = await generate(adapterFor('gemini-2.5-pro'), { messages: [user('x')] }).catch(
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({ kind: 'overloaded', retryable: true, status: 503, retryAfter: 7 });
  });

  it('counts tokens through countTokens', async () => {
    const count = await adapterFor('gemini-2.5-pro').countTokens({ system: 's', messages: [user('how many?')] });
    expect(count).toBeGreaterThan(0);
    expect(server.requests.at(-1)?.path).toContain(':countTokens');
  });

  it('keeps the API key out of an inspected adapter', () => {
    const adapter = adapterFor('gemini-3-pro-preview', { apiKey: 'AIza-secret-456' });
    expect(inspect(adapter, { depth: 10 })).not.toContain('AIza-secret-456');
  });

  it('throws a typed error when no API key is configured', () => {
    const saved = { gemini: process.env.GEMINI_API_KEY, google: process.env.GOOGLE_API_KEY };
    delete process.env.GEMINI_API_KEY;
    delete process.env.GOOGLE_API_KEY;
    try {
      expect(() => createGoogleAdapter({ model: 'gemini-2.5-pro' })).toThrow(MissingApiKeyError);
    } finally {
      if (saved.gemini !== undefined) process.env.GEMINI_API_KEY = saved.gemini;
      if (saved.google !== undefined) process.env.GOOGLE_API_KEY = saved.google;
    }
  });
});

describe('google after another provider in the same turn', () => {
  it('drops Anthropic thinking and signs the foreign current-turn call with the placeholder', async () => {
    const server = await startGeminiServer();
    try {
      const adapter = createGoogleAdapter({ model: 'gemini-3-pro-preview', baseURL: server.url, apiKey: 'k' });
      server.enqueue({ type: 'reply', text: 'continuing' });
      const claude = { provider: 'anthropic', model: 'claude-opus-4-5' };
      // The agent loop strips the other model's reasoning before every call (core's one rule).
      const stripped = stripForeignReasoning(
        [
          { role: 'user', content: 'go' },
          {
            role: 'assistant',
            model: { provider: 'anthropic', id: 'claude-opus-4-5' },
            content: [
              { type: 'reasoning', text: 'claude thinks', signature: 'c2ln', providerData: claude },
              { type: 'tool-call', id: 'toolu_01', name: 'read_file', args: { path: 'a' } },
            ],
          },
          { role: 'tool', toolCallId: 'toolu_01', toolName: 'read_file', content: 'x' },
        ],
        adapter.model,
      );
      await generate(adapter, { messages: stripped.messages, tools: testToolSpecs });
      const call = server.modelCalls()[0];
      expect(call?.status).toBe(200);
      expect(call?.view?.reasoningItems).toBe(0);
      const body = call?.body as { contents: Content[] } | undefined;
      const parts = body?.contents[1]?.parts;
      expect(parts).toEqual([
        {
          functionCall: { name: 'read_file', args: { path: 'a' } },
          thoughtSignature: 'skip_thought_signature_validator',
        },
      ]);
      expect(stripped.warning?.message).toContain('1 reasoning part(s) of another model in this episode were not sent');
    } finally {
      await server.close();
    }
  });
});
