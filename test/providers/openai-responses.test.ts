import {
  type AssistantMessage,
  generate,
  type Message,
  ModelError,
  type ModelStreamEvent,
  type ToolSpec,
} from '@episodic/core';
import { stripForeignReasoning } from '@episodic/core/reasoning';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { createOpenAIResponsesAdapter } from '../../packages/providers/src/openai-responses/openai-responses-adapter.js';
import { MissingApiKeyError } from '../../packages/providers/src/shared/missing-api-key-error.js';
import {
  type OpenAIScript,
  type OpenAIScriptedServer,
  startOpenAIResponsesServer,
} from '../servers/openai-responses-server.js';
import { sdkParamErrors } from '../support/sdk-param-check.js';
import { runConformance } from './conformance.js';

runConformance({
  name: 'openai responses (gpt-5, encrypted reasoning items)',
  startServer: () => startOpenAIResponsesServer(),
  createAdapter: (url, { model }) => createOpenAIResponsesAdapter({ model, baseURL: url, apiKey: 'test-key' }),
  models: { primary: 'gpt-5', secondary: 'o4-mini' },
  hooks: {
    afterScenario(_scenario, { calls }) {
      for (const call of calls) {
        const body = call.body as Record<string, unknown>;
        expect(body.store).toBe(false);
        expect(body.include).toEqual(['reasoning.encrypted_content']);
      }
    },
  },
});

const tools: ToolSpec[] = [
  {
    name: 'get_ci_log',
    description: 'Reads a CI log',
    inputSchema: { type: 'object', properties: { run: { type: 'number' } }, required: ['run'] },
  },
];

let server: OpenAIScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(script: OpenAIScript[]) {
  server = await startOpenAIResponsesServer();
  server.enqueue(...script);
  return server;
}

function adapterFor(local: OpenAIScriptedServer, model = 'gpt-5') {
  return createOpenAIResponsesAdapter({ model, apiKey: 'test-key', baseURL: local.url, maxRetries: 0 });
}

async function collect(iterable: AsyncIterable<ModelStreamEvent>): Promise<ModelStreamEvent[]> {
  const events: ModelStreamEvent[] = [];
  for await (const event of iterable) events.push(event);
  return events;
}

const bodyOf = (local: OpenAIScriptedServer, index: number) => local.requests[index]?.body as Record<string, unknown>;
const inputOf = (local: OpenAIScriptedServer, index: number) => bodyOf(local, index).input as Record<string, unknown>[];

describe('OpenAI Responses adapter', () => {
  it('streams reasoning, a tool call and usage, keeping the reasoning item whole', async () => {
    const local = await start([
      {
        type: 'reply',
        // Two summary parts of one reasoning item: the deltas must add up to the stored text.
        reasoning: ['The log will say why CI is red.', 'Read it first.'],
        toolCalls: [{ name: 'get_ci_log', args: { run: 42 } }],
      },
    ]);
    const adapter = adapterFor(local);
    const events = await collect(
      adapter.stream({ system: 'You debug CI.', messages: [{ role: 'user', content: 'CI is red' }], tools }),
    );
    const reasoningText = events.flatMap((event) => (event.type === 'reasoning-delta' ? [event.text] : [])).join('');
    expect(reasoningText).toBe('The log will say why CI is red.\n\nRead it first.');
    const callStart = events.find((event) => event.type === 'tool-call-start');
    expect(callStart).toMatchObject({ name: 'get_ci_log' });
    const args = events.flatMap((event) => (event.type === 'tool-call-delta' ? [event.argsDelta] : [])).join('');
    expect(JSON.parse(args)).toEqual({ run: 42 });
    const finish = events.at(-1);
    if (finish?.type !== 'finish') throw new Error('no finish event');
    expect(finish.stopReason).toBe('tool-calls');
    expect(finish.message.model).toEqual({ provider: 'openai', id: 'gpt-5' });
    const [reasoning, call] = finish.message.content;
    expect(reasoning).toMatchObject({ type: 'reasoning', text: reasoningText });
    expect(reasoning?.providerData).toMatchObject({ provider: 'openai', model: 'gpt-5' });
    expect(String(reasoning?.providerData?.id)).toMatch(/^rs_/);
    expect(typeof reasoning?.providerData?.encrypted_content).toBe('string');
    expect(call).toMatchObject({ type: 'tool-call', name: 'get_ci_log', args: { run: 42 } });
    expect(String(call?.providerData?.id)).toMatch(/^fc_/);
    expect(finish.usage.reasoningTokens).toBeGreaterThan(0);
    expect(finish.usage.outputTokens).toBeGreaterThanOrEqual(finish.usage.reasoningTokens ?? 0);
    const body = bodyOf(local, 0);
    expect(body).toMatchObject({
      store: false,
      stream: true,
      instructions: 'You debug CI.',
      include: ['reasoning.encrypted_content'],
      reasoning: { summary: 'auto' },
    });
    expect(local.requests[0]?.headers.authorization).toBe('Bearer test-key');
  });

  it('sends a system or developer line of the transcript in place, and the server takes it', async () => {
    const local = await start([{ type: 'reply', text: 'Le test est instable.' }]);
    const messages: Message[] = [
      { role: 'user', content: 'CI is red' },
      { role: 'developer', content: 'Answer in French.' },
    ];
    const result = await generate(adapterFor(local), { system: 'You debug CI.', messages });
    expect(result.stopReason).toBe('stop');
    expect(bodyOf(local, 0).instructions).toBe('You debug CI.');
    expect(inputOf(local, 0)).toEqual([
      { role: 'user', content: 'CI is red' },
      { role: 'developer', content: 'Answer in French.' },
    ]);
    expect(sdkParamErrors([{ kind: 'openai-responses', body: bodyOf(local, 0), label: 'developer line in place' }])).toEqual([]);
  });

  it('sends back every reasoning, call and output item of the current episode, with ids', async () => {
    const local = await start([
      { type: 'reply', reasoning: ['Read the log first.'], toolCalls: [{ name: 'get_ci_log', args: { run: 1 } }] },
      { type: 'reply', reasoning: ['The test is flaky.'], text: 'A flaky test broke CI.' },
    ]);
    const adapter = adapterFor(local);
    const messages: Message[] = [{ role: 'user', content: 'CI is red' }];
    const first = await generate(adapter, { messages, tools });
    const call = first.message.content.find((part) => part.type === 'tool-call');
    messages.push(first.message, {
      role: 'tool',
      toolCallId: String(call?.id),
      toolName: 'get_ci_log',
      content: 'FAIL test_a',
    });
    const second = await generate(adapter, { messages, tools });
    expect(second.stopReason).toBe('stop');
    expect(second.message.content.map((part) => part.type)).toEqual(['reasoning', 'text']);
    const input = inputOf(local, 1);
    expect(input.map((item) => item.type ?? item.role)).toEqual([
      'user',
      'reasoning',
      'function_call',
      'function_call_output',
    ]);
    expect(String(input[1]?.id)).toMatch(/^rs_/);
    expect(String(input[2]?.id)).toMatch(/^fc_/);
    expect(local.requests[1]?.status).toBe(200);
    expect(local.modelCalls()[1]?.view?.echoedReasoning).toEqual(['Read the log first.']);
  });

  it("sends a past episode's calls and text without item ids once its reasoning is dropped", async () => {
    const local = await start([
      { type: 'reply', reasoning: ['Need the log.'], toolCalls: [{ name: 'get_ci_log', args: { run: 1 } }] },
      { type: 'reply', reasoning: ['Flaky.'], text: 'It is flaky.' },
      { type: 'reply', text: 'Re-run it.' },
    ]);
    const adapter = adapterFor(local);
    const transcript: Message[] = [{ role: 'user', content: 'CI is red' }];
    const first = await generate(adapter, { messages: transcript, tools });
    const callId = String(first.message.content.find((part) => part.type === 'tool-call')?.id);
    transcript.push(first.message, { role: 'tool', toolCallId: callId, toolName: 'get_ci_log', content: 'FAIL' });
    const second = await generate(adapter, { messages: transcript, tools });
    transcript.push(second.message, { role: 'user', content: 'What now?' });
    // What the packer sends with retention `episode`: past reasoning parts removed.
    const packed = transcript.map((message) =>
      message.role === 'assistant'
        ? { ...message, content: message.content.filter((part) => part.type !== 'reasoning') }
        : message,
    );
    const third = await generate(adapter, { messages: packed, tools });
    expect(third.message.content).toMatchObject([{ type: 'text', text: 'Re-run it.' }]);
    const input = inputOf(local, 2);
    expect(input.some((item) => item.type === 'reasoning')).toBe(false);
    const call = input.find((item) => item.type === 'function_call');
    expect(call).toMatchObject({ call_id: callId, name: 'get_ci_log' });
    expect(call?.id).toBeUndefined();
    expect(input.find((item) => item.role === 'assistant')).toEqual({ role: 'assistant', content: 'It is flaky.' });
  });

  it('the server rejects an fc_ item whose reasoning item is missing (the rule the adapter avoids)', async () => {
    const local = await start([
      { type: 'reply', reasoning: ['Need the log.'], toolCalls: [{ name: 'get_ci_log', args: { run: 1 } }] },
      { type: 'reply', text: 'unused' },
    ]);
    const adapter = adapterFor(local);
    const first = await generate(adapter, { messages: [{ role: 'user', content: 'CI is red' }], tools });
    const call = first.message.content.find((part) => part.type === 'tool-call');
    const client = new OpenAI({ apiKey: 'k', baseURL: local.url, maxRetries: 0 });
    const request = client.responses.create({
      model: 'gpt-5',
      store: false,
      input: [
        { role: 'user', content: 'CI is red' },
        {
          type: 'function_call',
          id: String(call?.providerData?.id),
          call_id: String(call?.id),
          name: 'get_ci_log',
          arguments: '{}',
        },
        { type: 'function_call_output', call_id: String(call?.id), output: 'FAIL' },
      ],
    });
    await expect(request).rejects.toThrow(
      /of type 'function_call' was provided without its required 'reasoning' item: 'rs_/,
    );
  });

  it('the server returns encrypted reasoning only when asked, and requires a summary on reasoning input', async () => {
    const local = await start([
      { type: 'reply', reasoning: ['Need the log.'], text: 'a' },
      { type: 'reply', reasoning: ['Again.'], text: 'b' },
    ]);
    const client = new OpenAI({ apiKey: 'k', baseURL: local.url, maxRetries: 0 });
    const reasoningOf = async (include: 'reasoning.encrypted_content'[]) => {
      const stream = await client.responses.create({ model: 'gpt-5', store: false, input: 'hi', include, stream: true });
      for await (const event of stream)
        if (event.type === 'response.output_item.done' && event.item.type === 'reasoning') return event.item;
      return undefined;
    };
    expect((await reasoningOf([]))?.encrypted_content ?? undefined).toBeUndefined();
    const item = await reasoningOf(['reasoning.encrypted_content']);
    expect(typeof item?.encrypted_content).toBe('string');
    const withoutSummary = client.responses.create({
      model: 'gpt-5',
      store: false,
      stream: true,
      input: [
        { role: 'user', content: 'hi' },
        { type: 'reasoning', id: String(item?.id), encrypted_content: String(item?.encrypted_content) },
        { role: 'assistant', content: 'a' },
      ] as never,
    });
    await expect(withoutSummary).rejects.toThrow("Missing required parameter: 'input[1].summary'.");
  });

  it('never sends another model’s encrypted reasoning after a model switch', async () => {
    const local = await start([
      { type: 'reply', reasoning: ['Need the log.'], toolCalls: [{ name: 'get_ci_log', args: { run: 1 } }] },
      { type: 'reply', reasoning: ['Now with o4-mini.'], text: 'Done.' },
    ]);
    const first = await generate(adapterFor(local, 'gpt-5'), { messages: [{ role: 'user', content: 'CI?' }], tools });
    const callId = String(first.message.content.find((part) => part.type === 'tool-call')?.id);
    const messages: Message[] = [
      { role: 'user', content: 'CI?' },
      first.message,
      { role: 'tool', toolCallId: callId, toolName: 'get_ci_log', content: 'FAIL' },
    ];
    // The agent loop strips the other model's reasoning before every call (core's one rule).
    const stripped = stripForeignReasoning(messages, { provider: 'openai', id: 'o4-mini' });
    const second = await generate(adapterFor(local, 'o4-mini'), { messages: stripped.messages, tools });
    expect(second.message.model).toEqual({ provider: 'openai', id: 'o4-mini' });
    const input = inputOf(local, 1);
    expect(input.some((item) => item.type === 'reasoning')).toBe(false);
    expect(input.find((item) => item.type === 'function_call')?.id).toBeUndefined();
    expect(stripped.warning?.message).toMatch(/1 reasoning part\(s\) of another model in this episode were not sent/);
  });

  it('the server rejects encrypted content sent to another model with invalid_encrypted_content', async () => {
    const local = await start([
      { type: 'reply', reasoning: ['r'], text: 'a' },
      { type: 'reply', text: 'b' },
    ]);
    const first = await generate(adapterFor(local, 'gpt-5'), { messages: [{ role: 'user', content: 'hi' }] });
    const reasoning = first.message.content[0];
    const text = first.message.content[1];
    const foreign: AssistantMessage = { ...first.message, model: { provider: 'openai', id: 'o3' } };
    // Pretend the transcript claims o3 produced it: the adapter then sends it, the server refuses.
    const claimed = {
      ...foreign,
      content: [
        { ...reasoning, providerData: { ...reasoning?.providerData, model: 'o3' } },
        { ...text, providerData: { ...text?.providerData, model: 'o3' } },
      ],
    } as AssistantMessage;
    const call = generate(adapterFor(local, 'o3'), {
      messages: [{ role: 'user', content: 'hi' }, claimed, { role: 'user', content: 'again' }],
    });
    await expect(call).rejects.toMatchObject({ kind: 'invalid-request', status: 400 });
    await expect(call).rejects.toThrow(/could not be verified.*another model/);
  });

  it('maps usage with cached tokens when a long prefix is sent again', async () => {
    const local = await start([
      { type: 'reply', text: 'one' },
      { type: 'reply', text: 'two' },
    ]);
    const adapter = adapterFor(local, 'gpt-4.1');
    const system = 'You are a careful CI debugger. '.repeat(300);
    const messages: Message[] = [{ role: 'user', content: 'first' }];
    const first = await generate(adapter, { system, messages });
    expect(first.usage.cachedInputTokens).toBe(0);
    const second = await generate(adapter, {
      system,
      messages: [...messages, first.message, { role: 'user', content: 'second' }],
    });
    expect(second.usage.cachedInputTokens).toBeGreaterThanOrEqual(1024);
    expect((second.usage.cachedInputTokens ?? 0) % 128).toBe(0);
    expect(second.usage.cachedInputTokens).toBeLessThanOrEqual(second.usage.inputTokens);
    // A non-reasoning model gets no reasoning settings and no include.
    expect(bodyOf(local, 0).reasoning).toBeUndefined();
    expect(bodyOf(local, 0).include).toBeUndefined();
  });

  it('treats gpt-5-chat-latest as the non-reasoning model it is', async () => {
    const local = await start([{ type: 'reply', text: 'hi' }]);
    const result = await generate(adapterFor(local, 'gpt-5-chat-latest'), { messages: [{ role: 'user', content: 'x' }] });
    expect(result.stopReason).toBe('stop');
    expect(bodyOf(local, 0).include).toBeUndefined();
    expect(bodyOf(local, 0).reasoning).toBeUndefined();
  });

  it('the server refuses reasoning settings and encrypted reasoning for a model that does not reason', async () => {
    const local = await start([]);
    const client = new OpenAI({ apiKey: 'k', baseURL: local.url, maxRetries: 0 });
    const create = (extra: Record<string, unknown>) =>
      client.responses.create({ model: 'gpt-4.1', input: 'hi', stream: true, ...extra } as never).then(
        () => 'accepted',
        (error: unknown) => String(error),
      );
    expect(await create({ include: ['reasoning.encrypted_content'] })).toContain(
      'Encrypted content is not supported with this model.',
    );
    expect(await create({ reasoning: { effort: 'low' } })).toContain(
      "Unsupported parameter: 'reasoning.effort' is not supported with this model.",
    );
  });

  it('sends reasoning effort and summary settings, and warns about unknown provider options', async () => {
    const local = await start([{ type: 'reply', text: 'ok' }]);
    const adapter = createOpenAIResponsesAdapter({
      model: 'o4-mini',
      apiKey: 'k',
      baseURL: local.url,
      reasoningEffort: 'low',
    });
    const result = await generate(adapter, {
      messages: [{ role: 'user', content: 'hi' }],
      providerOptions: { reasoningSummary: 'detailed', temperature: 2 },
    });
    expect(bodyOf(local, 0).reasoning).toEqual({ effort: 'low', summary: 'detailed' });
    expect(result.warnings).toEqual(['openai-responses: unknown provider option "temperature" ignored']);
  });

  it('maps an incomplete response to max-tokens', async () => {
    const local = await start([{ type: 'incomplete', reason: 'max_output_tokens', text: 'cut' }]);
    const result = await generate(adapterFor(local), { messages: [{ role: 'user', content: 'long' }] });
    expect(result.stopReason).toBe('max-tokens');
  });

  it('maps 429 to a retryable rate-limit error with retry-after, and context errors to context-overflow', async () => {
    const local = await start([{ type: 'error', status: 429, retryAfterSeconds: 7 }, { type: 'context-overflow' }]);
    const adapter = adapterFor(local);
    const rateLimited = await generate(adapter, { messages: [{ role: 'user', content: 'a' }] }).catch((e) => e);
    expect(rateLimited).toBeInstanceOf(ModelError);
    expect(rateLimited).toMatchObject({ kind: 'rate-limit', retryable: true, status: 429, retryAfter: 7 });
    const overflow = await generate(adapter, { messages: [{ role: 'user', content: 'b' }] }).catch((e) => e);
    expect(overflow).toMatchObject({ kind: 'context-overflow', retryable: false, status: 400 });
  });

  it('fails with a typed error naming the variable when no API key is available', () => {
    const previous = process.env.OPENAI_API_KEY;
    delete process.env.OPENAI_API_KEY;
    try {
      expect(() => createOpenAIResponsesAdapter({ model: 'gpt-5' })).toThrow(MissingApiKeyError);
      expect(() => createOpenAIResponsesAdapter({ model: 'gpt-5' })).toThrow(/OPENAI_API_KEY/);
    } finally {
      if (previous !== undefined) process.env.OPENAI_API_KEY = previous;
    }
  });
});
