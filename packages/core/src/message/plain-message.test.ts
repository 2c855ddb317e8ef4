/**
 * The fast check of adapters' assistant messages against the full one: whatever it
 * accepts, the full check (depth limit, JSON round trip, zod schema) accepts too and
 * JSON writes back unchanged; the shapes adapters produce every step are accepted
 * (else the loop pays for the full check on each step); anything odd is left to the
 * full check.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AssistantMessage, UserMessage } from './message.js';
import { isPlainAssistantMessage, isPlainUserMessage, SCHEMA_FIELDS } from './plain-message.js';
import { copyMessage } from './transcript.js';
import { transcriptSchemas } from './transcript-schema.js';

const providerData = { provider: 'anthropic', model: 'claude-x', reasoningFields: ['signature'] };

/** Messages as the built-in adapters and the scripted model return them. */
const usual: AssistantMessage[] = [
  { role: 'assistant', content: [{ type: 'text', text: 'done' }] },
  { role: 'assistant', content: [] },
  {
    role: 'assistant',
    content: [
      { type: 'reasoning', text: 'think', signature: 'sig', providerData, tokens: 12 },
      { type: 'reasoning', text: '', redacted: true, providerData: { ...providerData, data: 'opaque' } },
      { type: 'text', text: 'calling', providerData: { provider: 'google', model: 'g', thoughtSignature: 'x' } },
      { type: 'tool-call', id: 'call_1', name: 'read_log', args: { run: 1, lines: [1, 2], deep: { a: null } } },
      { type: 'tool-call', id: 'call_2', name: 'raw', args: '{"not json' },
    ],
    model: { provider: 'openai', id: 'gpt-x' },
    usage: { inputTokens: 100, outputTokens: 10, cachedInputTokens: 80, reasoningTokens: 5, costUsd: 0.0012 },
  },
];

/** `values` with a hole in front (JSON writes it as null). */
function withHole(values: unknown[]): unknown[] {
  const array: unknown[] = [];
  array.length = 1;
  array.push(...values);
  return array;
}

/** Values that JSON writes differently, that the schema refuses, or that only the full check knows. */
const odd: unknown[] = [
  undefined, null, NaN, Infinity, -1, -0, 1.5, 2 ** 60, '', 0, 'text', true, [], {}, [undefined], new Date(0),
  new Map(), () => 1, Symbol('s'), 'toString', '__proto__', 'constructor', 10n, { toJSON: () => 'x' }, Object.create({ inherited: 1 }), withHole([1, 2]),
];

/** Field paths of the usual messages a mutation may change. */
const paths: (string | number)[][] = [
  ['role'], ['content'], ['model'], ['model', 'id'], ['model', 'provider'], ['usage'], ['usage', 'inputTokens'],
  ['usage', 'outputTokens'], ['usage', 'costUsd'], ['usage', 'reasoningTokens'], ['extra'], ['contextEdits'],
  ['fallback'], ['content', 0], ['content', 0, 'type'], ['content', 0, 'text'], ['content', 0, 'signature'],
  ['content', 0, 'redacted'], ['content', 0, 'tokens'], ['content', 0, 'providerData'],
  ['content', 0, 'providerData', 'provider'], ['content', 0, 'providerData', 'model'],
  ['content', 0, 'providerData', 'reasoningFields'], ['content', 0, 'providerData', 'reasoningFields', 0],
  ['content', 0, 'providerData', 'extra'], ['content', 2, 'extra'], ['content', 3, 'id'], ['content', 3, 'name'],
  ['content', 3, 'args'], ['content', 3, 'args', 'run'], ['content', 3, 'args', 'deep', 'a'], ['content', 9],
];

function mutated(message: AssistantMessage, path: (string | number)[], value: unknown): unknown {
  const copy = structuredClone(message) as unknown as Record<string | number, unknown>;
  let target = copy;
  for (const key of path.slice(0, -1)) {
    const next = target[key];
    if (typeof next !== 'object' || next === null) return copy;
    target = next as Record<string | number, unknown>;
  }
  target[path.at(-1) as string | number] = value;
  return copy;
}

function fullCheckAccepts(value: unknown): boolean {
  try {
    copyMessage(value, 1);
    return true;
  } catch {
    return false;
  }
}

/** Nested arrays `depth` levels deep. */
function nested(depth: number): unknown {
  let value: unknown = 1;
  for (let level = 0; level < depth; level += 1) value = [value];
  return value;
}

describe('isPlainAssistantMessage', () => {
  it('knows every field the transcript schemas know of the objects it reads', () => {
    const schemas = transcriptSchemas();
    for (const [name, listed] of Object.entries(SCHEMA_FIELDS)) {
      expect([...listed].sort(), name).toEqual(Object.keys(schemas[name as keyof typeof SCHEMA_FIELDS].shape).sort());
    }
  });

  it('accepts what adapters produce every step', () => {
    for (const message of usual) expect(isPlainAssistantMessage(message)).toBe(true);
  });

  it('accepts only messages the full check accepts and JSON writes back unchanged', () => {
    const value = fc.oneof(fc.constantFrom(...odd), fc.jsonValue({ maxDepth: 3 }), fc.string(), fc.integer());
    fc.assert(
      fc.property(fc.constantFrom(...usual), fc.constantFrom(...paths), value, (message, path, replacement) => {
        const candidate = mutated(message, path, replacement);
        if (!isPlainAssistantMessage(candidate)) return;
        expect(fullCheckAccepts(candidate)).toBe(true);
        expect(JSON.parse(JSON.stringify(candidate))).toEqual(candidate);
      }),
      { numRuns: 1500 },
    );
  });

  it('leaves malformed and unusual messages to the full check', () => {
    const base = usual[2] as AssistantMessage;
    const refused: [string, unknown][] = [
      ['empty tool-call id', mutated(base, ['content', 3, 'id'], '')],
      ['tool-call arguments undefined', mutated(base, ['content', 3, 'args'], undefined)],
      ['-0 in the arguments (JSON writes 0)', mutated(base, ['content', 3, 'args', 'run'], -0)],
      ['-0 output tokens', mutated(base, ['usage', 'outputTokens'], -0)],
      ['NaN input tokens', mutated(base, ['usage', 'inputTokens'], NaN)],
      ['fractional output tokens', mutated(base, ['usage', 'outputTokens'], 1.5)],
      ['text that is not a string', mutated(base, ['content', 2, 'text'], 7)],
      ['a Date in the arguments', mutated(base, ['content', 3, 'args', 'run'], new Date(0))],
      ['a hole in reasoningFields', mutated(base, ['content', 0, 'providerData', 'reasoningFields'], withHole(['x']))],
      ['an unknown part type', mutated(base, ['content', 0, 'type'], 'thinking')],
      ['a part type named like an Object method', mutated(base, ['content', 0, 'type'], 'toString')],
      ['a part type __proto__', mutated(base, ['content', 0, 'type'], '__proto__')],
      ['a provider-tool part', { role: 'assistant', content: [{ type: 'provider-tool', name: 'x', kind: 'call', providerData }] }],
      ['context edits', { ...base, contextEdits: [{ type: 'clear', clearedInputTokens: 3 }] }],
      ['arguments nested past the limit', mutated(base, ['content', 3, 'args'], nested(120))],
      ['a user message', { role: 'user', content: 'hi' }],
    ];
    for (const [what, message] of refused) expect(isPlainAssistantMessage(message), what).toBe(false);
    // A non-enumerable field that the schema would read but JSON leaves out.
    const hidden = structuredClone(base);
    Object.defineProperty(hidden.content[2] as object, 'text', { value: 'x', enumerable: false });
    expect(isPlainAssistantMessage(hidden)).toBe(false);
    expect(fullCheckAccepts(hidden)).toBe(false);
  });
});

/** User messages as applications send them. */
const usualUser: UserMessage[] = [
  { role: 'user', content: 'Why did the build fail?' },
  { role: 'user', content: [{ type: 'text', text: 'Look at run 7.' }, { type: 'text', text: '', providerData }] },
  { role: 'user', content: [] },
  { role: 'user', content: 'from a call', fromToolCall: { sessionId: 's', callId: 'c' } },
];

/** Field paths of the usual user messages a mutation may change. */
const userPaths: (string | number)[][] = [
  ['role'], ['content'], ['content', 0], ['content', 0, 'type'], ['content', 0, 'text'], ['content', 1, 'providerData'],
  ['content', 1, 'providerData', 'model'], ['content', 1, 'extra'], ['injected'], ['compaction'], ['extra'],
  ['fromToolCall'], ['fromToolCall', 'callId'], ['content', 5],
];

describe('isPlainUserMessage', () => {
  it('accepts text messages', () => {
    for (const message of usualUser) expect(isPlainUserMessage(message)).toBe(true);
  });

  it('accepts only messages the full check accepts and JSON writes back unchanged', () => {
    const value = fc.oneof(fc.constantFrom(...odd), fc.jsonValue({ maxDepth: 3 }), fc.string(), fc.integer());
    fc.assert(
      fc.property(fc.constantFrom(...usualUser), fc.constantFrom(...userPaths), value, (message, path, replacement) => {
        const candidate = mutated(message as unknown as AssistantMessage, path, replacement);
        if (!isPlainUserMessage(candidate)) return;
        expect(fullCheckAccepts(candidate)).toBe(true);
        expect(JSON.parse(JSON.stringify(candidate))).toEqual(candidate);
      }),
      { numRuns: 1500 },
    );
  });

  it('leaves images, v1.1 fields and odd values to the full check', () => {
    const refused: [string, unknown][] = [
      ['an image part', { role: 'user', content: [{ type: 'image', url: 'https://example.com/a.png' }] }],
      ['injected context', { role: 'user', content: 'ci log', injected: true }],
      ['a compaction', { role: 'user', content: 'summary', compaction: { keptMessages: 2 } }],
      ['text that is not a string', { role: 'user', content: [{ type: 'text', text: 7 }] }],
      ['content that is a number', { role: 'user', content: 7 }],
      ['a Date in an extra field', { role: 'user', content: 'hi', at: new Date(0) }],
      ['an extra field nested past the limit', { role: 'user', content: 'hi', deep: nested(120) }],
      ['an assistant message', { role: 'assistant', content: [] }],
    ];
    for (const [what, message] of refused) expect(isPlainUserMessage(message), what).toBe(false);
  });
});
