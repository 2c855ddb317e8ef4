/**
 * Other models' reasoning and opaque data are stripped in one place: core's
 * stripForeignReasoning, which the agent loop runs before every model call, with one
 * warning. The adapters do not strip again, so these tests check the one owner: every
 * built-in adapter, driven by the agent, is handed a request with nothing foreign in
 * it and sends nothing foreign (they fail if the loop's strip is removed), and a
 * caller that streams without the agent gets the same result by calling
 * stripForeignReasoning first.
 */
import {
  Agent,
  type AgentEvent,
  type AgentTool,
  type AssistantMessage,
  MemorySessionStore,
  type Message,
  type ModelAdapter,
} from '@episodic/core';
import { stripForeignReasoning } from '@episodic/core/reasoning';
import type { ProviderAdapter } from '@episodic/providers';
import { createAnthropicAdapter } from '@episodic/providers/anthropic';
import { createGoogleAdapter } from '@episodic/providers/google';
import { createOpenAIChatAdapter, createOpenAIResponsesAdapter } from '@episodic/providers/openai';
import { createOpenAICompatibleAdapter } from '@episodic/providers/openai-compatible';
import { describe, expect, it } from 'vitest';

const apiKey = 'test-key';
const adapters: Record<string, () => ProviderAdapter<unknown>> = {
  anthropic: () => createAnthropicAdapter({ model: 'claude-opus-4-5', apiKey }),
  google: () => createGoogleAdapter({ model: 'gemini-2.5-pro', apiKey }),
  'openai-responses': () => createOpenAIResponsesAdapter({ model: 'gpt-5', apiKey }),
  'openai-chat': () => createOpenAIChatAdapter({ model: 'gpt-4o', apiKey }),
  'openai-compatible': () => createOpenAICompatibleAdapter({ provider: 'deepseek', model: 'deepseek-v4-pro', apiKey }),
};

const trace = 'The fixture times out after 1 s; read its config next.';
const other = { provider: 'lab', model: 'model-a' };
const foreign: AssistantMessage = {
  role: 'assistant',
  model: { provider: 'lab', id: 'model-a' },
  content: [
    { type: 'reasoning', text: trace, signature: 'sig-a', providerData: { ...other, encrypted_content: 'enc-a' } },
    { type: 'reasoning', text: '', redacted: true, providerData: { ...other, data: 'redacted-a' } },
    { type: 'text', text: 'Reading the config.', providerData: { ...other, id: 'msg_a' } },
    { type: 'tool-call', id: 'call_1', name: 'read', args: {}, providerData: { ...other, id: 'fc_a' } },
  ],
};
const messages: Message[] = [{ role: 'user', content: 'CI is red' }, foreign];
/** Anything of model-a's reasoning or opaque data, as it would appear in a request or on the wire. */
const foreignTrace = /sig-a|enc-a|redacted-a|msg_a|fc_a|read its config/;
const read: AgentTool = {
  spec: { name: 'read', description: 'reads a file', inputSchema: { type: 'object', properties: {} } },
  execute: async () => ({ content: 'config' }),
};

describe('foreign reasoning: the agent loop strips it once, before the adapter', () => {
  it.each(Object.entries(adapters))('%s: receives no foreign reasoning, sends none, and the loop warns once', async (_name, create) => {
    const real = create();
    const store = new MemorySessionStore();
    // A session model-a left with a tool call pending; the real adapter's agent resumes it.
    await store.append('s', messages);
    const received: string[] = [];
    const bodies: string[] = [];
    const adapterWarnings: string[] = [];
    // The real adapter builds each request the loop hands it; the answer is canned (no server).
    const model: ModelAdapter = {
      model: real.model,
      profile: real.profile,
      async* stream(request) {
        received.push(JSON.stringify(request.messages));
        const prepared = real.prepare(request);
        bodies.push(JSON.stringify(prepared.body));
        adapterWarnings.push(...prepared.warnings.map((warning) => warning.code ?? warning.message));
        const message: AssistantMessage = { role: 'assistant', content: [{ type: 'text', text: 'Done.' }] };
        yield { type: 'finish', message, usage: { inputTokens: 1, outputTokens: 1 }, stopReason: 'stop' };
      },
    };
    const events: AgentEvent[] = [];
    const session = await new Agent({ model, tools: [read], store, context: { budget: 50_000 } }).session({ id: 's' });
    await session.resume({ onEvent: (event) => events.push(event) });

    expect(received).toHaveLength(1);
    // The call still carries model-a's turn (its text and tool call, without their opaque data).
    expect(received[0]).toContain('Reading the config.');
    expect(received[0]).toContain('call_1');
    expect(received[0]).not.toMatch(foreignTrace);
    expect(bodies[0]).not.toMatch(foreignTrace);
    const warnings = events.filter((event) => event.type === 'warning' && event.code === 'foreign-reasoning-dropped');
    expect(warnings).toHaveLength(1);
    expect(adapterWarnings).not.toContain('foreign-reasoning-dropped');
  });
});

describe('foreign reasoning: an adapter used without the agent', () => {
  it.each(Object.entries(adapters))('%s: stripForeignReasoning first gives core`s one warning and nothing foreign on the wire', (_name, create) => {
    const adapter = create();
    const { messages: stripped, warning } = stripForeignReasoning([...messages, { role: 'tool', toolCallId: 'call_1', toolName: 'read', content: 'config' }], adapter.model);
    expect(warning?.message).toBe(
      `2 reasoning part(s) of another model in this episode were not sent to ${adapter.model.provider}/${adapter.model.id}: ` +
        'opaque reasoning is valid only for the model that produced it. Open the session with { handoff: true } to pass their text on as a note.',
    );
    const prepared = adapter.prepare({ messages: stripped, tools: [read.spec] });
    expect(prepared.warnings.map((each) => each.code)).not.toContain('foreign-reasoning-dropped');
    expect(JSON.stringify(prepared.body)).toContain('Reading the config.');
    expect(JSON.stringify(prepared.body)).not.toMatch(foreignTrace);
  });
});
