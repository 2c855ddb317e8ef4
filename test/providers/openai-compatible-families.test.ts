/**
 * Family-specific behaviour of the OpenAI-compatible adapter over the loopback chat
 * server: each profile's own retention through the real packer, the paired request
 * flags, the reasoning field, and the real error each server gives when the rule is
 * broken (proving the rule the adapter keeps is enforced).
 */
import {
  type AssistantMessage,
  generate,
  InvalidArgumentError,
  type Message,
  type ModelAdapter,
  ModelError,
  type ModelStreamEvent,
  type ToolSpec,
} from '@episodic/core';
import { packContext } from '@episodic/core/packing';
import { stripForeignReasoning } from '@episodic/core/reasoning';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { createOpenAICompatibleAdapter } from '../../packages/providers/src/openai-compatible/openai-compatible-adapter.js';
import type { CompatibleProfile } from '../../packages/providers/src/profiles/openai-compatible.js';
import { MissingApiKeyError } from '../../packages/providers/src/shared/missing-api-key-error.js';
import type { ChatFamily } from '../servers/openai-chat-rules.js';
import { startOpenAIChatServer } from '../servers/openai-chat-server.js';
import type { OpenAIScriptedServer } from '../servers/openai-responses-server.js';

const tools: ToolSpec[] = [
  { name: 'get_ci_log', description: 'Reads a CI log', inputSchema: { type: 'object', properties: {} } },
];

let server: OpenAIScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function setup(family: ChatFamily, provider: string, model: string, profile: Partial<CompatibleProfile> = {}) {
  server = await startOpenAIChatServer(family);
  const adapter = createOpenAICompatibleAdapter({ provider, model, baseURL: server.url, apiKey: 'test-key', profile });
  return { server, adapter };
}

type Body = { messages: Record<string, unknown>[] } & Record<string, unknown>;
const bodyOf = (local: OpenAIScriptedServer, index: number) => local.requests[index]?.body as Body;

/** Episode 1 (a tool step, then an answer) and the start of episode 2, through the real packer. */
async function twoEpisodes(local: OpenAIScriptedServer, adapter: ModelAdapter) {
  local.enqueue(
    { type: 'reply', reasoning: ['need the log'], toolCalls: [{ name: 'get_ci_log', args: {} }] },
    { type: 'reply', reasoning: ['it is flaky'], text: 'Flaky test.' },
    { type: 'reply', text: 'Re-run it.' },
  );
  const transcript: Message[] = [{ role: 'user', content: 'CI is red' }];
  const step = async () => {
    const packed = packContext({ messages: transcript, budget: 50_000, retention: adapter.profile?.retention });
    const result = await generate(adapter, { system: 'sys', messages: packed.messages, tools });
    transcript.push(result.message);
    return result.message;
  };
  const first = await step();
  const call = first.content.find((part) => part.type === 'tool-call');
  transcript.push({ role: 'tool', toolCallId: String(call?.id), toolName: 'get_ci_log', content: 'FAIL' });
  await step();
  transcript.push({ role: 'user', content: 'What now?' });
  await step();
  return transcript;
}

describe('OpenAI-compatible families', () => {
  it('DeepSeek thinking keeps reasoning_content of every past tool-call message (tool-episodes)', async () => {
    const { server: local, adapter } = await setup('deepseek-thinking', 'deepseek', 'deepseek-v4-pro');
    expect(adapter.profile?.retention).toBe('tool-episodes');
    await twoEpisodes(local, adapter);
    const body = bodyOf(local, 2);
    expect(local.requests.map((request) => request.status)).toEqual([200, 200, 200]);
    expect(body.thinking).toEqual({ type: 'enabled' });
    const assistants = body.messages.filter((message) => message.role === 'assistant');
    expect(assistants[0]?.reasoning_content).toBe('need the log');
    expect(assistants[1]).not.toHaveProperty('reasoning_content');
  });

  it('DeepSeek thinking rejects a tool-call message without reasoning_content with its real error', async () => {
    const { server: local, adapter } = await setup('deepseek-thinking', 'deepseek', 'deepseek-v4-pro', {
      retention: 'episode',
      reasoningRequiredOnToolCalls: false,
    });
    const error = await twoEpisodes(local, adapter).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({ kind: 'invalid-request', status: 400 });
    expect((error as Error).message).toContain(
      'Missing `reasoning_content` field in the assistant message at message index 2. For more information',
    );
  });

  it('deepseek-reasoner is the thinking model: reasoning_content goes back on tool-call messages', async () => {
    const { server: local, adapter } = await setup('deepseek-reasoner', 'deepseek', 'deepseek-reasoner');
    expect(adapter.profile).toMatchObject({ retention: 'tool-episodes', sendReasoningAs: 'reasoning_content' });
    await twoEpisodes(local, adapter);
    expect(local.requests.map((request) => request.status)).toEqual([200, 200, 200]);
    const assistants = bodyOf(local, 2).messages.filter((message) => message.role === 'assistant');
    expect(assistants[0]?.reasoning_content).toBe('need the log');
    // The old R1 rule (never send it back) meets the API's real refusal.
    const stale = createOpenAICompatibleAdapter({
      provider: 'deepseek',
      model: 'deepseek-reasoner',
      baseURL: local.url,
      apiKey: 'test-key',
      profile: { retention: 'none', sendReasoningAs: 'none' },
    });
    await expect(twoEpisodes(local, stale)).rejects.toThrow(
      'The `reasoning_content` in the thinking mode must be passed back to the API.',
    );
  });

  it('DeepSeek R1 never gets reasoning_content back; the server rejects it when sent', async () => {
    const { server: local, adapter } = await setup('deepseek-r1', 'deepseek', 'deepseek-r1');
    await twoEpisodes(local, adapter);
    expect(local.requests.every((request) => request.status === 200)).toBe(true);
    for (const index of [1, 2]) {
      expect(bodyOf(local, index).messages.some((message) => 'reasoning_content' in message)).toBe(false);
    }
    const leaking = createOpenAICompatibleAdapter({
      provider: 'deepseek',
      model: 'deepseek-r1',
      baseURL: local.url,
      apiKey: 'k',
      profile: { sendReasoningAs: 'reasoning_content' },
    });
    const messages: Message[] = [
      { role: 'user', content: 'a' },
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'r' },
          { type: 'text', text: 'b' },
        ],
      },
      { role: 'user', content: 'c' },
    ];
    await expect(generate(leaking, { messages })).rejects.toThrow(/reasoning_content of messages\[1\]/);
  });

  it.each([
    ['groq', 'groq', 'qwen/qwen3-32b', "'messages.2' : property 'reasoning_content' is unsupported"],
    [
      'cerebras',
      'cerebras',
      'qwen-3-32b',
      "messages.2.assistant.reasoning_content: property 'reasoning_content' is unsupported",
    ],
  ] as const)(
    '%s sends `reasoning` and rejects `reasoning_content` with its real error',
    async (family, provider, model, text) => {
      const { server: local, adapter } = await setup(family, provider, model);
      const transcript = await twoEpisodes(local, adapter);
      const current = bodyOf(local, 1).messages.find((message) => message.role === 'assistant');
      expect(current?.reasoning).toBe('need the log');
      expect(bodyOf(local, 0).reasoning_format).toBe('parsed');
      const wrongField = createOpenAICompatibleAdapter({
        provider,
        model,
        baseURL: local.url,
        apiKey: 'k',
        profile: { sendReasoningAs: 'reasoning_content' },
      });
      const error = await generate(wrongField, { system: 'sys', messages: transcript.slice(0, 3), tools }).catch(
        (thrown: unknown) => thrown,
      );
      expect(error).toMatchObject({ kind: 'invalid-request', status: 400 });
      expect((error as Error).message).toContain(text);
      expect((error as Error).message).not.toContain('no body');
    },
  );

  it('Groq: a model that does not reason gets no reasoning_format (Groq refuses it for such models)', async () => {
    const { server: local, adapter } = await setup('groq', 'groq', 'llama-3.3-70b-versatile');
    local.enqueue({ type: 'reply', text: 'hi' });
    const result = await generate(adapter, { messages: [{ role: 'user', content: 'hello' }] });
    expect(result.stopReason).toBe('stop');
    expect(bodyOf(local, 0)).not.toHaveProperty('reasoning_format');
    const refused = await new OpenAI({ apiKey: 'k', baseURL: local.url, maxRetries: 0 }).chat.completions
      .create({
        model: 'llama-3.3-70b-versatile',
        messages: [{ role: 'user', content: 'a' }],
        reasoning_format: 'parsed',
      } as never)
      .catch((error: unknown) => error);
    expect(String(refused)).toContain('`reasoning_format` is not supported with this model');
  });

  // openai 7 reads such a body itself (newest-sdk-majors.test.ts); the adapter's fetch wrapper is for openai 6.
  it('Cerebras errors have no `error` wrapper: the bare SDK only says "no body"', async () => {
    const { server: local } = await setup('cerebras', 'cerebras', 'qwen-3-32b');
    const client = new OpenAI({ apiKey: 'k', baseURL: local.url, maxRetries: 0 });
    const request = client.chat.completions.create({
      model: 'qwen-3-32b',
      messages: [{ role: 'user', content: 'a' }, { role: 'assistant', content: 'b', reasoning_content: 'r' } as never],
    });
    await expect(request).rejects.toThrow('400 status code (no body)');
  });

  it('Kimi requires reasoning on tool-call messages: the adapter keeps it, the server names the index otherwise', async () => {
    const { server: local, adapter } = await setup('kimi', 'moonshot', 'kimi-k2-thinking');
    await twoEpisodes(local, adapter);
    // Only kimi-k2.6 takes `keep` ("all" or null, docs/provider-hosts.md); older K2 models get none.
    expect(bodyOf(local, 0).thinking).toEqual({ type: 'enabled' });
    const k26 = createOpenAICompatibleAdapter({ provider: 'moonshot', model: 'kimi-k2.6', apiKey: 'k' });
    expect(k26.profile).toMatchObject({ retention: 'all', requestFlags: { thinking: { type: 'enabled', keep: 'all' } } });
    expect(local.requests.map((request) => request.status)).toEqual([200, 200, 200]);
    const careless = createOpenAICompatibleAdapter({
      provider: 'moonshot',
      model: 'kimi-k2-thinking',
      baseURL: local.url,
      apiKey: 'k',
      profile: { reasoningRequiredOnToolCalls: false, retention: 'episode' },
    });
    const messages: Message[] = [
      { role: 'user', content: 'a' },
      { role: 'assistant', content: [{ type: 'tool-call', id: 'call_1', name: 'get_ci_log', args: {} }] },
      { role: 'tool', toolCallId: 'call_1', toolName: 'get_ci_log', content: 'x' },
    ];
    await expect(generate(careless, { messages, tools })).rejects.toThrow(
      'thinking is enabled but reasoning_content is missing in assistant tool call message at index 1',
    );
  });

  it('Z.AI sends clear_thinking: false and keeps every past reasoning (retention all)', async () => {
    const { server: local, adapter } = await setup('zai', 'zai', 'glm-4.6');
    await twoEpisodes(local, adapter);
    const body = bodyOf(local, 2);
    expect(body.thinking).toEqual({ type: 'enabled', clear_thinking: false });
    const reasoning = body.messages.flatMap((message) =>
      message.role === 'assistant' ? [message.reasoning_content] : [],
    );
    expect(reasoning).toEqual(['need the log', 'it is flaky']);
  });

  it('MiniMax: <think> cut across chunks becomes a reasoning part, and goes back whole inside content', async () => {
    const { server: local, adapter } = await setup('minimax', 'minimax', 'MiniMax-M2');
    local.enqueue(
      { type: 'reply', reasoning: ['check the log first'], toolCalls: [{ name: 'get_ci_log', args: {} }] },
      { type: 'reply', text: 'done' },
    );
    const events: ModelStreamEvent[] = [];
    for await (const event of adapter.stream({ messages: [{ role: 'user', content: 'go' }], tools }))
      events.push(event);
    const finish = events.at(-1);
    if (finish?.type !== 'finish') throw new Error('no finish');
    expect(finish.message.content.map((part) => part.type)).toEqual(['reasoning', 'tool-call']);
    expect(finish.message.content[0]).toMatchObject({ text: 'check the log first' });
    const visible = events.flatMap((event) => (event.type === 'text-delta' ? [event.text] : [])).join('');
    expect(visible).not.toContain('<');
    const call = finish.message.content[1];
    await generate(adapter, {
      messages: [
        { role: 'user', content: 'go' },
        finish.message,
        {
          role: 'tool',
          toolCallId: String(call?.type === 'tool-call' && call.id),
          toolName: 'get_ci_log',
          content: 'x',
        },
      ],
      tools,
    });
    const sent = bodyOf(local, 1).messages.find((message) => message.role === 'assistant');
    expect(sent?.content).toBe('<think>check the log first</think>');
  });

  it('OpenRouter keeps reasoning_details verbatim and sends them back verbatim, with reasoning.effort', async () => {
    const { server: local } = await setup('openrouter', 'openrouter', 'anthropic/claude-sonnet-4.5');
    const adapter = createOpenAICompatibleAdapter({
      provider: 'openrouter',
      model: 'anthropic/claude-sonnet-4.5',
      baseURL: local.url,
      apiKey: 'k',
      reasoningEffort: 'high',
    });
    local.enqueue({ type: 'reply', reasoning: ['plan'], toolCalls: [{ name: 'get_ci_log', args: {} }] });
    const first = await generate(adapter, { messages: [{ role: 'user', content: 'go' }], tools });
    expect(bodyOf(local, 0).reasoning).toEqual({ effort: 'high' });
    const details = first.message.content[0]?.providerData?.reasoning_details as Record<string, unknown>[];
    expect(details).toHaveLength(1);
    expect(details[0]).toMatchObject({ type: 'reasoning.text', text: 'plan', index: 0 });
    expect(typeof details[0]?.signature).toBe('string');
    const call = first.message.content.find((part) => part.type === 'tool-call');
    await generate(adapter, {
      messages: [
        { role: 'user', content: 'go' },
        first.message,
        { role: 'tool', toolCallId: String(call?.id), toolName: 'get_ci_log', content: 'x' },
      ],
      tools,
    });
    expect(local.requests[1]?.status).toBe(200);
    const sent = bodyOf(local, 1).messages.find((message) => message.role === 'assistant');
    expect(sent?.reasoning_details).toEqual(details);
    expect(local.modelCalls()[1]?.view?.echoedReasoning).toEqual(['plan']);
  });

  it('gpt-oss drops Harmony analysis once a final answer exists, even when retention keeps all', async () => {
    const { server: local, adapter } = await setup('gpt-oss', 'vllm', 'openai/gpt-oss-120b', { retention: 'all' });
    await twoEpisodes(local, adapter);
    const reasoning = bodyOf(local, 2).messages.filter((message) => 'reasoning' in message);
    expect(reasoning).toEqual([]);
    const inEpisode = bodyOf(local, 1).messages.find((message) => message.role === 'assistant');
    expect(inEpisode?.reasoning).toBe('need the log');
  });

  it('splits raw Harmony channels out of content when the profile says the server leaks them', async () => {
    const { server: local, adapter } = await setup('gpt-oss-raw', 'vllm', 'openai/gpt-oss-20b', {
      contentReasoning: 'harmony',
    });
    local.enqueue({ type: 'reply', reasoning: ['user wants a greeting'], text: 'Hello!' });
    const result = await generate(adapter, { messages: [{ role: 'user', content: 'hi' }] });
    expect(result.message.content).toMatchObject([
      { type: 'reasoning', text: 'user wants a greeting' },
      { type: 'text', text: 'Hello!' },
    ]);
  });

  it.each([
    [
      'fireworks',
      'fireworks',
      'accounts/fireworks/models/glm-4p6',
      'reasoning_content',
      { reasoning_history: 'preserved' },
    ],
    ['ollama', 'ollama', 'qwen3:8b', 'reasoning', { think: true }],
    ['vllm', 'vllm', 'Qwen/Qwen3-8B', 'reasoning', {}],
  ] as const)('%s reads and sends reasoning as `%s` with its flags', async (family, provider, model, field, flags) => {
    const { server: local, adapter } = await setup(family, provider, model);
    await twoEpisodes(local, adapter);
    expect(bodyOf(local, 0)).toMatchObject(flags);
    const sent = bodyOf(local, 1).messages.find((message) => message.role === 'assistant');
    expect(sent?.[field]).toBe('need the log');
  });

  it('reads the key from the profile’s variable and fails with a typed error when it is missing', () => {
    const saved = process.env.DEEPSEEK_API_KEY;
    delete process.env.DEEPSEEK_API_KEY;
    try {
      const create = () => createOpenAICompatibleAdapter({ provider: 'deepseek', model: 'deepseek-chat' });
      expect(create).toThrow(MissingApiKeyError);
      expect(create).toThrow(/DEEPSEEK_API_KEY/);
      process.env.DEEPSEEK_API_KEY = 'from-env';
      expect(create().model).toEqual({ provider: 'deepseek', id: 'deepseek-chat' });
    } finally {
      if (saved === undefined) delete process.env.DEEPSEEK_API_KEY;
      else process.env.DEEPSEEK_API_KEY = saved;
    }
    // Local servers need no key; an unknown host needs a base URL.
    expect(createOpenAICompatibleAdapter({ provider: 'ollama', model: 'qwen3:8b' }).model.provider).toBe('ollama');
    expect(() => createOpenAICompatibleAdapter({ provider: 'acme', model: 'm', apiKey: 'k' })).toThrow(
      InvalidArgumentError,
    );
  });

  it('drops another model’s reasoning but still gives DeepSeek tool-call messages their field', async () => {
    const { server: local, adapter } = await setup('deepseek-thinking', 'deepseek', 'deepseek-v4-pro');
    const foreign: AssistantMessage = {
      role: 'assistant',
      model: { provider: 'moonshot', id: 'kimi-k2-thinking' },
      content: [
        { type: 'reasoning', text: 'kimi thoughts', providerData: { provider: 'moonshot', model: 'kimi-k2-thinking' } },
        { type: 'tool-call', id: 'call_9', name: 'get_ci_log', args: {} },
      ],
    };
    // The agent loop strips the other model's reasoning before every call (core's one rule).
    const stripped = stripForeignReasoning(
      [{ role: 'user', content: 'go' }, foreign, { role: 'tool', toolCallId: 'call_9', toolName: 'get_ci_log', content: 'x' }],
      adapter.model,
    );
    await generate(adapter, { messages: stripped.messages, tools });
    expect(stripped.warning?.message).toMatch(/1 reasoning part\(s\) of another model in this episode were not sent/);
    const sent = bodyOf(local, 0).messages.find((message) => message.role === 'assistant');
    expect(sent?.reasoning_content).toBe('');
  });
});
