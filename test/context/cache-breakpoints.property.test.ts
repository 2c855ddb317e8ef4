/**
 * Property: no Anthropic request carries more than the API's 4 cache breakpoints, and no
 * request builder writes one into the stored transcript. Random long sessions (episodes of
 * tool steps with signed thinking, kept server-tool blocks, compactions of this model, some
 * failed) whose stored blocks still carry a `cache_control` (as a transcript written before
 * the fix kept one) go through the compaction cut, the packer at a random budget with a
 * system prompt and tools (so the packer suggests its own breakpoints), and every request
 * builder of the Anthropic adapter: the conversation call and the on-demand compaction call
 * made from it. The transcript is deep-frozen, so a write anywhere throws; each body passes
 * the loopback server's validation (which counts breakpoints as the API does).
 */
import { createTokenCounter, type Message, type ModelRequest } from '@episodic/core';
import { messagesAfterCompaction, packContext } from '@episodic/core/packing';
import { createAnthropicAdapter } from '@episodic/providers/anthropic';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compactionBody } from '../../packages/providers/src/anthropic/anthropic-on-demand.js';
import { type AnthropicBody, normalizeBody, validateAnthropicRequest } from '../servers/anthropic-validation.js';
import { words } from '../support/transcripts.js';

const model = { provider: 'anthropic', id: 'claude-sonnet-4-6' };
const tag = { provider: model.provider, model: model.id };
const stale = { cache_control: { type: 'ephemeral' } };

const stepArbitrary = fc.record({
  thinking: fc.integer({ min: 0, max: 60 }),
  calls: fc.array(fc.integer({ min: 1, max: 300 }), { maxLength: 3 }),
  server: fc.boolean(),
  compaction: fc.constantFrom('none', 'none', 'none', 'own', 'failed'),
});
const sessionArbitrary = fc.array(
  fc.record({ user: fc.integer({ min: 1, max: 40 }), steps: fc.array(stepArbitrary, { maxLength: 6 }) }),
  { minLength: 1, maxLength: 10 },
);
type SessionSpec = typeof sessionArbitrary extends fc.Arbitrary<infer Value> ? Value : never;

function build(spec: SessionSpec): Message[] {
  const messages: Message[] = [];
  let ids = 0;
  for (const [index, episode] of spec.entries()) {
    messages.push({ role: 'user', content: `question ${index}: ${words(episode.user, index + 1)}` });
    for (const step of episode.steps) {
      ids += 1;
      const compaction =
        step.compaction === 'none'
          ? []
          : [
              {
                type: 'compaction' as const,
                ...(step.compaction === 'own' ? { text: `summary ${ids}` } : { failed: true }),
                providerData: { ...tag, block: { type: 'compaction', content: step.compaction === 'own' ? `summary ${ids}` : null, encrypted_content: `enc-${ids}`, ...stale } },
              },
            ];
      const thinking =
        step.thinking > 0 ? [{ type: 'reasoning' as const, text: words(step.thinking, ids), signature: `sig-${ids}`, providerData: { ...tag } }] : [];
      const server = step.server
        ? [
            { type: 'provider-tool' as const, name: 'web_search', kind: 'call' as const, id: `srvtoolu_${ids}`, providerData: { ...tag, block: { type: 'server_tool_use', id: `srvtoolu_${ids}`, name: 'web_search', input: { query: 'ci' }, ...stale } } },
            { type: 'provider-tool' as const, name: 'web_search_tool_result', kind: 'result' as const, id: `srvtoolu_${ids}`, providerData: { ...tag, block: { type: 'web_search_tool_result', tool_use_id: `srvtoolu_${ids}`, content: [], ...stale } } },
          ]
        : [];
      const calls = step.calls.map((size, call) => ({ id: `toolu_${ids}_${call}`, size }));
      const text = calls.length === 0 ? [{ type: 'text' as const, text: `answer ${ids} ${words(5, ids)}` }] : [];
      messages.push({
        role: 'assistant',
        model,
        content: [...compaction, ...thinking, ...server, ...text, ...calls.map((call) => ({ type: 'tool-call' as const, id: call.id, name: 'run', args: {} }))],
      });
      for (const call of calls) messages.push({ role: 'tool', toolCallId: call.id, toolName: 'run', content: `result ${call.id} ${words(call.size, ids)}` });
    }
  }
  return messages;
}

/** Freezes `value` and everything it holds, so a write anywhere throws (modules run in strict mode). */
function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  for (const child of Object.values(value)) deepFreeze(child);
  return Object.freeze(value);
}

const accepting = {
  signatures: { valid: () => true, bound: () => false, issuedFor: () => undefined },
  issued: new Map(),
  adaptiveOnly: () => false,
  adaptiveSupported: () => true,
};

/** Every `cache_control` in the body, nested ones included. */
const breakpoints = (body: unknown) => JSON.stringify(body).split('"cache_control"').length - 1;

const system = 'You are a terse CI assistant.';
const tools = [
  { name: 'run', description: 'Runs a command.', inputSchema: { type: 'object', properties: { command: { type: 'string' } } } },
  { name: 'read_cut_result', description: 'Reads a cut result.', inputSchema: { type: 'object', properties: { id: { type: 'string' } } } },
];

describe('anthropic cache breakpoints over long sessions', () => {
  it('cut + pack (its own breakpoints) + every request builder: at most 4 breakpoints, the frozen transcript unchanged', () => {
    const adapter = createAnthropicAdapter({ model: model.id, apiKey: 'k', baseURL: 'http://127.0.0.1:9', thinking: { type: 'disabled' } });
    const tokenizer = createTokenCounter();
    let checked = 0;
    fc.assert(
      fc.property(sessionArbitrary, fc.integer({ min: 2_000, max: 30_000 }), (spec, budget) => {
        const messages = deepFreeze(build(spec));
        const before = JSON.stringify(messages);
        const cut = messagesAfterCompaction(messages, model);
        let packed;
        try {
          packed = packContext({ messages: cut.messages, system, tools, budget, tokenizer });
        } catch {
          return; // ContextOverflowError: the current episode alone does not fit; nothing is sent.
        }
        const request: ModelRequest = deepFreeze({
          system,
          tools,
          messages: packed.messages,
          cacheBreakpoints: packed.stats.cacheBreakpoints,
          nativeContext: { compaction: { threshold: 60_000 } },
        });
        const prepared = adapter.prepare(request);
        const bodies = [prepared.body, compactionBody(prepared.body, undefined)];
        for (const body of bodies) {
          expect(breakpoints(body)).toBeLessThanOrEqual(4);
          const normal = normalizeBody(JSON.parse(JSON.stringify(body)) as AnthropicBody);
          expect(validateAnthropicRequest(normal, prepared.headers, accepting)).toBeUndefined();
        }
        expect(JSON.stringify(messages)).toBe(before);
        checked += 1;
      }),
      { numRuns: 120 },
    );
    expect(checked).toBeGreaterThan(60);
  });
});
