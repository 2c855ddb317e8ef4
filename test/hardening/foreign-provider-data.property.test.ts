/**
 * Property: whatever the transcript (text, reasoning, tool calls, provider-run tools and
 * compactions, each tagged by any of four models of three providers, opaque data or
 * none) and whatever the models and their fallback order, a send ends in an answer or
 * a typed error (`EpisodicError`), never an untyped one, and no model's wire request
 * carries another model's opaque data. Runs the whole path with the real adapters and
 * official SDKs on the loopback servers: the foreign-data strip, the compaction cut, the
 * hand-off note, the packer and counter, the wire conversion and the adapters' warnings.
 *
 * A second property takes the readers one by one on parts whose required `providerData`
 * is missing altogether (what a user-written strip or adapter may hand over).
 */
import {
  Agent,
  type AssistantMessage,
  type AssistantPart,
  createTokenCounter,
  EpisodicError,
  type Message,
  type ModelAdapter,
  type ModelRef,
} from '@episodic/core';
import { messagesAfterCompaction, packContext } from '@episodic/core/packing';
import { stripForeignReasoning } from '@episodic/core/reasoning';
import { createAnthropicAdapter } from '@episodic/providers/anthropic';
import { createGoogleAdapter } from '@episodic/providers/google';
import { createOpenAIResponsesAdapter } from '@episodic/providers/openai';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { leftOutProviderTools } from '../../packages/providers/src/shared/provider-adapter.js';
import { messageFieldsFor } from '../../packages/providers/src/openai-chat/chat-message-fields.js';
import { startAnthropicServer } from '../servers/anthropic-server.js';
import { startGeminiServer } from '../servers/gemini-server.js';
import { startOpenAIResponsesServer } from '../servers/openai-responses-server.js';
import type { ScriptedServer } from '../servers/scripted-server.js';

const MODELS = [
  { provider: 'anthropic', id: 'claude-sonnet-4-6' },
  { provider: 'anthropic', id: 'claude-opus-4-5' },
  { provider: 'openai', id: 'gpt-5' },
  { provider: 'google', id: 'gemini-2.5-flash' },
] as const satisfies readonly ModelRef[];
type ModelIndex = 0 | 1 | 2 | 3;

/** The opaque payload's marker: names its producer, so a foreign one on the wire is found. */
const marker = (producer: ModelIndex, n: number) => `opaque-m${producer}-n${n}`;
const markerOf = /opaque-m(\d)-n\d+/g;

const partSpec = fc.record({
  kind: fc.constantFrom('text', 'reasoning', 'provider-tool', 'compaction'),
  producer: fc.constantFrom<ModelIndex>(0, 1, 2, 3),
  opaque: fc.boolean(),
});
const stepSpec = fc.record({ parts: fc.array(partSpec, { minLength: 1, maxLength: 4 }), call: fc.boolean(), untagged: fc.boolean() });
const transcriptSpec = fc.array(fc.array(stepSpec, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 3 });
type StepSpec = typeof stepSpec extends fc.Arbitrary<infer Value> ? Value : never;
type PartSpec = StepSpec['parts'][number];

/** The provider's own form of a provider-run tool or compaction, holding the marker. */
function wireForm(spec: PartSpec, n: number): Record<string, unknown> {
  const mark = marker(spec.producer, n);
  const provider = MODELS[spec.producer].provider;
  if (provider === 'anthropic')
    return spec.kind === 'compaction'
      ? { block: { type: 'compaction', content: mark } }
      : { block: { type: 'web_fetch_tool_result', tool_use_id: `srvtoolu_${n}`, content: { type: 'web_fetch_result', url: mark } } };
  if (provider === 'openai')
    return spec.kind === 'compaction'
      ? { item: { type: 'compaction', id: `cmp_${n}`, encrypted_content: mark } }
      : { item: { type: 'web_search_call', id: `ws_${n}`, status: 'completed', action: { type: 'search', query: mark } } };
  return { part: { codeExecutionResult: { outcome: 'OUTCOME_OK', output: mark } } };
}

/** Anthropic's result block must follow its call: a provider-run tool is the pair there. */
function parts(spec: PartSpec, n: number): AssistantPart[] {
  const { provider, id: model } = MODELS[spec.producer];
  if (spec.kind !== 'provider-tool' || provider !== 'anthropic') return [part(spec, n)];
  const call = { type: 'server_tool_use', id: `srvtoolu_${n}`, name: 'web_fetch', input: { url: marker(spec.producer, n) } };
  return [{ type: 'provider-tool', name: 'web_fetch', kind: 'call', id: `srvtoolu_${n}`, providerData: { provider, model, block: call } }, part(spec, n)];
}

function part(spec: PartSpec, n: number): AssistantPart {
  const { provider, id: model } = MODELS[spec.producer];
  const tag = { provider, model };
  switch (spec.kind) {
    case 'text':
      return { type: 'text', text: `answer ${n}`, ...(spec.opaque ? { providerData: { ...tag, note: marker(spec.producer, n) } } : {}) };
    case 'reasoning':
      return { type: 'reasoning', text: `thinking ${n}`, ...(spec.opaque ? { providerData: { ...tag, data: marker(spec.producer, n) } } : {}) };
    case 'provider-tool':
      return { type: 'provider-tool', name: 'web_fetch', kind: 'result', id: `srvtoolu_${n}`, providerData: { ...tag, ...wireForm(spec, n) } };
    case 'compaction':
      return { type: 'compaction', text: `summary ${n}`, providerData: { ...tag, ...wireForm(spec, n) } };
  }
}

function transcript(spec: (typeof transcriptSpec extends fc.Arbitrary<infer Value> ? Value : never)): Message[] {
  const messages: Message[] = [];
  let n = 0;
  for (const [episode, steps] of spec.entries()) {
    messages.push({ role: 'user', content: `question ${episode}` });
    for (const step of steps) {
      const producer = MODELS[step.parts[0]!.producer];
      const content = step.parts.flatMap((value) => parts(value, (n += 1)));
      const id = `toolu_${(n += 1)}`;
      const calls: AssistantPart[] = step.call ? [{ type: 'tool-call', id, name: 'read_log', args: {} }] : [];
      const message: AssistantMessage = { role: 'assistant', content: [...content, ...calls], ...(step.untagged ? {} : { model: producer }) };
      messages.push(message);
      if (step.call) messages.push({ role: 'tool', toolCallId: id, toolName: 'read_log', content: `log ${n}` });
    }
    messages.push({ role: 'assistant', content: [{ type: 'text', text: `done ${episode}` }] });
  }
  return messages;
}

async function startServer(model: ModelRef): Promise<ScriptedServer> {
  if (model.provider === 'anthropic') return startAnthropicServer();
  if (model.provider === 'openai') return startOpenAIResponsesServer();
  return startGeminiServer();
}

function adapter(model: ModelRef, url: string): ModelAdapter {
  if (model.provider === 'anthropic') return createAnthropicAdapter({ model: model.id, baseURL: url, apiKey: 'test-key', maxRetries: 0 });
  if (model.provider === 'openai') return createOpenAIResponsesAdapter({ model: model.id, baseURL: url, apiKey: 'test-key', maxRetries: 0 });
  return createGoogleAdapter({ model: model.id, baseURL: url, apiKey: 'test-key' });
}

const readLog = {
  spec: { name: 'read_log', description: 'Reads the CI log.', inputSchema: { type: 'object', properties: {} } },
  execute: async () => ({ content: 'all green' }),
};
const chainSpec = fc.record({
  order: fc.shuffledSubarray<ModelIndex>([0, 1, 2, 3], { minLength: 1, maxLength: 3 }),
  failing: fc.nat({ max: 2 }),
});

describe('any transcript, any models, any fallback order', () => {
  it('ends in an answer or a typed error, and no request carries another model opaque data', async () => {
    let answered = 0;
    await fc.assert(
      fc.asyncProperty(transcriptSpec, chainSpec, async (spec, chain) => {
        const order = chain.order.map((index) => MODELS[index]);
        const servers = await Promise.all(order.map(startServer));
        try {
          const failing = Math.min(chain.failing, order.length - 1);
          for (const server of servers.slice(0, failing)) server.enqueue({ type: 'error', status: 503 });
          const [primary, ...fallback] = order.map((model, index) => adapter(model, servers[index]!.url));
          // Hybrid: Anthropic gets the compaction edit its compaction blocks need.
          const context = { policy: 'hybrid' as const, native: { compaction: { threshold: 50_000 } }, budget: 100_000 };
          const modelCalls = { fallback, retry: { maxRetries: 0 } };
          const agent = new Agent({ model: primary!, tools: [readLog], context, modelCalls });
          const session = await agent.session({ history: transcript(spec) });
          try {
            await session.send('Is CI green?');
            answered += 1;
          } catch (error) {
            expect(EpisodicError.isInstance(error), String((error as Error)?.stack ?? error)).toBe(true);
          }
          for (const [index, server] of servers.entries()) {
            const own = String(MODELS.indexOf(order[index]!));
            for (const request of server.requests) {
              const seen = [...JSON.stringify(request.body).matchAll(markerOf)].map((match) => match[1]);
              expect(seen.filter((producer) => producer !== own)).toEqual([]);
            }
          }
        } finally {
          await Promise.all(servers.map((server) => server.close()));
        }
      }),
      { numRuns: 40 },
    );
    // The property is about the whole path: most runs must reach an answer.
    expect(answered).toBeGreaterThan(20);
  }, 120_000);
});

describe('parts whose required providerData is missing', () => {
  it('every reader passes over them without an untyped error', () => {
    fc.assert(
      fc.property(transcriptSpec, fc.constantFrom<ModelIndex>(0, 1, 2, 3), (spec, targetIndex) => {
        const target = MODELS[targetIndex];
        // What a user-written strip may hand over: required opaque data taken off entirely.
        const messages = transcript(spec).map((message): Message => {
          if (message.role !== 'assistant') return message;
          const content = message.content.map((value) => {
            if (value.type !== 'provider-tool' && value.type !== 'compaction') return value;
            const { providerData: _dropped, ...rest } = value;
            return rest as AssistantPart;
          });
          return { ...message, content };
        });
        const stripped = stripForeignReasoning(messages, target).messages;
        const { messages: cut } = messagesAfterCompaction(stripped, target);
        const counter = createTokenCounter();
        for (const message of cut) expect(counter.countMessage(message)).toBeGreaterThan(0);
        packContext({ messages: cut, budget: 100_000, tokenizer: counter });
        leftOutProviderTools(cut, target);
        for (const message of cut) if (message.role === 'assistant') messageFieldsFor(message, target);
      }),
      { numRuns: 100 },
    );
  });
});
