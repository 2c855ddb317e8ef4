/**
 * Property: across the packer and the provider's own edits, the model never reads a
 * tool call without its result (or a result without its call), and never reads the
 * history a compaction replaced. Random transcripts (episodes, tool steps, compactions
 * by this model or another) go through the whole path a call takes: the compaction cut,
 * the packer at a random budget, the Anthropic adapter's wire conversion, the loopback
 * server's validation, and its model of context editing and compaction.
 */
import { createTokenCounter, type Message, type ModelRequest } from '@episodic/core';
import { messagesAfterCompaction, packContext } from '@episodic/core/packing';
import { createAnthropicAdapter } from '@episodic/providers/anthropic';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { manageContext } from '../servers/anthropic-context-rules.js';
import { type AnthropicBody, normalizeBody, validateAnthropicRequest } from '../servers/anthropic-validation.js';
import { words } from '../support/transcripts.js';

const model = { provider: 'anthropic', id: 'claude-sonnet-4-6' };
const stepArbitrary = fc.record({
  calls: fc.array(fc.record({ size: fc.integer({ min: 1, max: 400 }), tool: fc.constantFrom('read', 'keep') }), { maxLength: 3 }),
  text: fc.integer({ min: 0, max: 20 }),
  compaction: fc.constantFrom('none', 'none', 'none', 'own', 'other'),
});
const transcriptArbitrary = fc.array(
  fc.record({ user: fc.integer({ min: 1, max: 30 }), steps: fc.array(stepArbitrary, { maxLength: 5 }) }),
  { minLength: 1, maxLength: 6 },
);

type TranscriptSpec = typeof transcriptArbitrary extends fc.Arbitrary<infer Value> ? Value : never;

function build(spec: TranscriptSpec): Message[] {
  const messages: Message[] = [];
  let ids = 0;
  for (const [index, episode] of spec.entries()) {
    messages.push({ role: 'user', content: `question ${index}: ${words(episode.user, index + 1)}` });
    for (const step of episode.steps) {
      const producer = step.compaction === 'other' ? 'claude-opus-4-6' : model.id;
      const compaction =
        step.compaction === 'none'
          ? []
          : [{ type: 'compaction' as const, text: `summary ${ids}`, providerData: { provider: 'anthropic', model: producer, block: { type: 'compaction', content: `summary ${ids}` } } }];
      const calls = step.calls.map((call) => ({ type: 'tool-call' as const, id: `toolu_${++ids}`, name: call.tool, args: {}, size: call.size }));
      const text = step.text > 0 || calls.length === 0 ? [{ type: 'text' as const, text: `answer ${ids} ${words(step.text + 1, ids)}` }] : [];
      messages.push({ role: 'assistant', content: [...compaction, ...text, ...calls.map(({ size: _size, ...call }) => call)], model });
      for (const call of calls)
        messages.push({ role: 'tool', toolCallId: call.id, toolName: call.name, content: `result ${call.id} ${words(call.size, ids)}` });
      if (calls.length > 0) messages.push({ role: 'assistant', content: [{ type: 'text', text: `done ${ids}` }], model });
    }
  }
  return messages;
}

const accepting = {
  signatures: { valid: () => true, bound: () => false, issuedFor: () => undefined },
  issued: new Map(),
  adaptiveOnly: () => false,
  adaptiveSupported: () => true,
};

/** Tool-use ids without a result and result ids without a call, in what the model read. */
function unpaired(body: AnthropicBody): string[] {
  const uses = new Set<string>();
  const results = new Set<string>();
  for (const message of body.messages)
    for (const block of message.content) {
      if (block.type === 'tool_use') uses.add(String(block.id));
      if (block.type === 'tool_result') results.add(String(block.tool_use_id));
    }
  return [...[...uses].filter((id) => !results.has(id)), ...[...results].filter((id) => !uses.has(id))];
}

describe('native context management keeps every tool call paired', () => {
  it('cut + pack + wire + provider edits: no orphan, nothing from before an own compaction', () => {
    const adapter = createAnthropicAdapter({ model: model.id, apiKey: 'k', baseURL: 'http://127.0.0.1:9', thinking: { type: 'disabled' } });
    const tokenizer = createTokenCounter();
    fc.assert(
      fc.property(transcriptArbitrary, fc.integer({ min: 1_500, max: 20_000 }), fc.integer({ min: 0, max: 3 }), (spec, budget, keep) => {
        const messages = build(spec);
        const cut = messagesAfterCompaction(messages, model);
        let packed;
        try {
          packed = packContext({ messages: cut.messages, budget, tokenizer });
        } catch {
          return; // ContextOverflowError: the current episode alone does not fit; nothing is sent.
        }
        const request: ModelRequest = {
          messages: packed.messages,
          nativeContext: { clearToolUses: { trigger: 0, keep, excludeTools: ['keep'] }, compaction: { threshold: 10_000_000 } },
        };
        const prepared = adapter.prepare(request);
        const body = normalizeBody(JSON.parse(JSON.stringify(prepared.body)) as AnthropicBody);
        expect(validateAnthropicRequest(body, prepared.headers, accepting)).toBeUndefined();
        const seen = manageContext(body, new Set()).body;
        expect(unpaired(seen)).toEqual([]);
        // Nothing the latest own compaction replaced reaches the wire (the opening question, which the API drops, aside).
        if (cut.at !== undefined) {
          const replaced = messages.slice(0, cut.at).filter((message) => message.role !== 'user');
          const wire = JSON.stringify(body.messages);
          for (const message of replaced)
            if (message.role === 'tool') expect(wire).not.toContain(`"${message.toolCallId}"`);
        }
      }),
      { numRuns: 80 },
    );
  });
});
