/**
 * Other models' reasoning is stripped in one place (core's stripForeignReasoning)
 * with one warning: an adapter used directly gives it from `prepare()`, with the
 * same code and text whichever wire API; through the agent loop the loop gives it
 * and the adapter, handed the stripped request, gives none.
 */
import {
  Agent,
  type AgentEvent,
  type AgentTool,
  type AssistantMessage,
  MemorySessionStore,
  type Message,
  maxSteps,
  type ModelAdapter,
} from '@episodic/core';
import { stripForeignReasoning } from '@episodic/core/reasoning';
import { scriptedModel } from '@episodic/core/testing';
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
    { type: 'tool-call', id: 'call_1', name: 'read', args: {}, providerData: { ...other, id: 'fc_a' } },
  ],
};
const messages: Message[] = [
  { role: 'user', content: 'CI is red' },
  foreign,
  { role: 'tool', toolCallId: 'call_1', toolName: 'read', content: 'config' },
];
const read: AgentTool = {
  spec: { name: 'read', description: 'reads a file', inputSchema: { type: 'object', properties: {} } },
  execute: async () => ({ content: 'config' }),
};

describe('foreign reasoning dropped by an adapter used directly', () => {
  it.each(Object.entries(adapters))('%s: one warning, core`s code and text, nothing foreign on the wire', (_name, create) => {
    const adapter = create();
    const prepared = adapter.prepare({ messages, tools: [read.spec] });
    const dropped = prepared.warnings.filter((warning) => warning.code === 'foreign-reasoning-dropped');
    expect(dropped).toEqual([stripForeignReasoning(messages, adapter.model).warning]);
    expect(dropped[0]?.message).toBe(
      `2 reasoning part(s) of another model in this episode were not sent to ${adapter.model.provider}/${adapter.model.id}: ` +
        'opaque reasoning is valid only for the model that produced it. Open the session with { handoff: true } to pass their text on as a note.',
    );
    expect(JSON.stringify(prepared.body)).not.toMatch(/sig-a|enc-a|redacted-a|fc_a|read its config/);
  });
});

describe('foreign reasoning dropped through the agent loop', () => {
  it.each(Object.entries(adapters))('%s: the loop warns once and the adapter finds nothing left to drop', async (_name, create) => {
    const real = create();
    const store = new MemorySessionStore();
    const first = scriptedModel({
      model: { provider: 'lab', id: 'model-a' },
      steps: [{ reasoning: trace, toolCalls: [{ id: 'a1', name: 'read' }] }],
    });
    const start = new Agent({ model: first, tools: [read], budget: 50_000, store, stopWhen: maxSteps(1) });
    await (await start.session({ id: 's' })).send('CI is red');
    // The real adapter builds each request the loop hands it; the answer is canned (no server).
    const adapterWarnings: string[] = [];
    const model: ModelAdapter = {
      model: real.model,
      profile: real.profile,
      async* stream(request) {
        adapterWarnings.push(...real.prepare(request).warnings.map((warning) => warning.code ?? warning.message));
        const message: AssistantMessage = { role: 'assistant', content: [{ type: 'text', text: 'Done.' }] };
        yield { type: 'finish', message, usage: { inputTokens: 1, outputTokens: 1 }, stopReason: 'stop' };
      },
    };
    const events: AgentEvent[] = [];
    const session = await new Agent({ model, tools: [read], budget: 50_000, store }).session({ id: 's' });
    await session.resume({ onEvent: (event) => events.push(event) });
    const warnings = events.filter((event) => event.type === 'warning' && event.code === 'foreign-reasoning-dropped');
    expect(warnings).toHaveLength(1);
    expect(adapterWarnings).not.toContain('foreign-reasoning-dropped');
  });
});
