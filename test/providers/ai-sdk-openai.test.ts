/**
 * `fromAISDK` on the AI SDK's OpenAI Responses provider (`@ai-sdk/openai`) against the
 * strict loopback Responses server, stateless (`store: false`, encrypted reasoning).
 *
 * The shared conformance suite does not pass on this path, and the reason is upstream:
 * `@ai-sdk/openai` sends a continued `function_call` item without its `id` (it reads
 * `providerOptions.openai.itemId` only for stored conversations), so the reasoning item
 * before it has no following item the API can match, and the API refuses the call
 * (vercel/ai#7099). The tests below pin what this package does (encrypted reasoning and
 * item ids kept and sent back verbatim) and that the refusal reaches the agent as a
 * typed, non-retryable error rather than a retry loop. Use Episodic's own OpenAI
 * adapter (`@episodic/providers/openai`) for stateless reasoning with tools.
 */
import { createOpenAI } from '@ai-sdk/openai';
import { fromAISDK } from '@episodic/ai-sdk';
import { generate, type Message, ModelError, type ToolSpec } from '@episodic/core';
import { afterEach, describe, expect, it } from 'vitest';
import { type OpenAIScriptedServer, startOpenAIResponsesServer } from '../servers/openai-responses-server.js';

const stateless = { openai: { store: false, include: ['reasoning.encrypted_content'], reasoningSummary: 'auto' } };
const tools: ToolSpec[] = [
  { name: 'get_ci_log', description: 'Reads a CI log', inputSchema: { type: 'object', properties: { run: { type: 'number' } }, required: ['run'] } },
];

let server: OpenAIScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function adapterOnServer() {
  server = await startOpenAIResponsesServer();
  const model = createOpenAI({ baseURL: server.url, apiKey: 'test-key' }).responses('gpt-5');
  return { local: server, adapter: fromAISDK(model, { providerOptions: stateless }) };
}

describe('fromAISDK on @ai-sdk/openai (Responses, stateless)', () => {
  it('keeps the encrypted reasoning and the item ids of a tool step on its parts', async () => {
    const { local, adapter } = await adapterOnServer();
    local.enqueue({ type: 'reply', reasoning: ['read the log first'], toolCalls: [{ name: 'get_ci_log', args: { run: 1 } }] });
    const { message, stopReason, usage } = await generate(adapter, { messages: [{ role: 'user', content: 'CI is red' }], tools });
    expect(stopReason).toBe('tool-calls');
    expect(usage.inputTokens).toBeGreaterThan(0);
    const [reasoning, call] = message.content;
    expect(reasoning).toMatchObject({ type: 'reasoning', text: 'read the log first', providerData: { provider: 'openai', model: 'gpt-5' } });
    const options = reasoning?.providerData?.providerOptions as { openai: { itemId: string; reasoningEncryptedContent: string } };
    expect(options.openai.itemId).toMatch(/^rs_/);
    expect(options.openai.reasoningEncryptedContent.length).toBeGreaterThan(20);
    expect(call).toMatchObject({ type: 'tool-call', name: 'get_ci_log', args: { run: 1 } });
    expect((call?.providerData?.providerOptions as { openai: { itemId: string } }).openai.itemId).toMatch(/^fc_/);
    expect((local.modelCalls()[0]?.body as { store?: boolean }).store).toBe(false);
  });

  it('sends the encrypted reasoning back verbatim; the refusal of the id-less function_call is a typed error', async () => {
    const { local, adapter } = await adapterOnServer();
    local.enqueue({ type: 'reply', reasoning: ['read the log first'], toolCalls: [{ name: 'get_ci_log', args: { run: 1 } }] });
    const first = await generate(adapter, { messages: [{ role: 'user', content: 'CI is red' }], tools });
    const call = first.message.content.find((part) => part.type === 'tool-call');
    const messages: Message[] = [
      { role: 'user', content: 'CI is red' },
      first.message,
      { role: 'tool', toolCallId: call?.type === 'tool-call' ? call.id : '', toolName: 'get_ci_log', content: 'run 1: 1 test failed' },
    ];
    local.enqueue({ type: 'reply', text: 'The test expects 2.' });
    const failure = await generate(adapter, { messages, tools }).catch((error: unknown) => error);
    const input = (local.modelCalls()[1]?.body as { input: { type?: string; encrypted_content?: string; id?: string }[] }).input;
    const sent = input.find((item) => item.type === 'reasoning');
    const options = first.message.content[0]?.providerData?.providerOptions as { openai: { reasoningEncryptedContent: string } };
    expect(sent?.encrypted_content).toBe(options.openai.reasoningEncryptedContent);
    // Upstream (vercel/ai#7099): the function_call goes without its item id, which the API needs after a reasoning item.
    expect(input.find((item) => item.type === 'function_call')?.id).toBeUndefined();
    expect(ModelError.isInstance(failure)).toBe(true);
    expect(failure).toMatchObject({ kind: 'invalid-request', retryable: false, status: 400 });
    expect((failure as Error).message).toContain('without its required following item');
  });

  it('maps a 429 with retry-after to a retryable rate-limit error with its wait', async () => {
    const { local, adapter } = await adapterOnServer();
    local.enqueue({ type: 'error', status: 429, retryAfterSeconds: 3 });
    const failure = await generate(adapter, { messages: [{ role: 'user', content: 'hi' }] }).catch((error: unknown) => error);
    expect(failure).toMatchObject({ kind: 'rate-limit', retryable: true, status: 429, retryAfter: 3 });
  });
});
