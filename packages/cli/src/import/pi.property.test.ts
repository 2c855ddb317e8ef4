/**
 * The pi importer against what pi's session types allow (a header, then `message`
 * entries whose content is a string or a list of text, thinking, toolCall and image
 * blocks; compactions; bookkeeping entries) and what a hostile file adds (nulls,
 * single objects where lists belong, Object.prototype names as types, roles and ids,
 * deep nesting): every session imports with each text kept or its loss reported, or
 * fails with a typed error.
 */
import { Readable } from 'node:stream';
import { EpisodicError } from '@episodic/core';
import { readTranscript } from '@episodic/core/node';
import { formatTranscript } from '@episodic/core/transcript';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { importSession } from './import-session.js';
import { importPi } from './pi.js';
import { recordingLines } from './recording-lines.js';

const header = { type: 'session', version: 1, id: 's', cwd: '/repo', timestamp: '2026-01-01T09:00:00.000Z' };
const load = (entries: readonly unknown[]) => [header, ...entries].map((entry) => JSON.stringify(entry)).join('\n');

describe('importPi on hostile entries', () => {
  it('takes an entry typed constructor for an unknown entry, with a reason in words', () => {
    const result = importPi(recordingLines(load([{ type: 'constructor' }, { type: '__proto__' }]), 's.jsonl'), 's.jsonl');
    expect(result.dropped.map((item) => [item.what, typeof item.why, item.why])).toEqual([
      ['constructor entries', 'string', 'an entry type this importer does not know'],
      ['__proto__ entries', 'string', 'an entry type this importer does not know'],
    ]);
  });

  it('refuses tool-call arguments nested 20,000 levels deep with a typed error naming the line', () => {
    const deep = `${'['.repeat(20_000)}1${']'.repeat(20_000)}`;
    const text = `${JSON.stringify(header)}\n{"type":"message","message":{"role":"assistant","content":[{"type":"toolCall","id":"t","name":"bash","arguments":${deep}}]}}`;
    expect(() => importPi(recordingLines(text, 's.jsonl'), 's.jsonl')).toThrow(/s\.jsonl, line 2: message\.content.* more than 100 levels deep/);
  });
});

const prototypeNames = fc.constantFrom('constructor', '__proto__', 'toString', 'valueOf', 'hasOwnProperty');
const word = fc.oneof(fc.stringMatching(/^[a-z]{1,8}$/), prototypeNames);
const nested = fc.integer({ min: 1, max: 300 }).map((depth) => JSON.parse(`${'['.repeat(depth)}1${']'.repeat(depth)}`) as unknown);
const block = fc.oneof(
  fc.record({ type: fc.constant('text'), text: word }),
  fc.record({ type: fc.constant('thinking'), thinking: word, thinkingSignature: fc.option(word, { nil: undefined }) }),
  fc.record({ type: fc.constant('toolCall'), id: word, name: word, arguments: fc.oneof(fc.dictionary(word, word), nested) }),
  fc.record({ type: fc.constant('image'), data: fc.constant('iVBORw0='), mimeType: fc.constant('image/png') }),
  fc.record({ type: prototypeNames, text: word }),
  fc.constant(null),
);
const content = fc.oneof(word, fc.array(block, { maxLength: 4 }), block, fc.constant(null));
const usage = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  fc.constant({ input: 5, output: 2, cacheRead: 0, cacheWrite: 0, cost: { total: 0.001 } }),
);
const message = fc.oneof(
  fc.record({ role: fc.constant('user'), content }),
  fc.record({ role: fc.constant('assistant'), content, provider: word, model: word, usage }),
  fc.record({ role: fc.constant('toolResult'), toolCallId: word, toolName: word, content }),
  fc.record({ role: fc.constant('bashExecution'), command: word, output: word, exitCode: fc.integer({ min: 0, max: 2 }) }),
  fc.record({ role: prototypeNames, content }),
);
const entry = fc.oneof(
  message.map((value) => ({ type: 'message', message: value })),
  fc.constant({ type: 'message', message: null }),
  fc.record({ type: fc.constant('compaction'), summary: word, firstKeptEntryIndex: fc.integer({ min: -1, max: 8 }) }),
  fc.record({ type: fc.oneof(fc.constantFrom('model_change', 'label', 'custom'), prototypeNames) }),
  fc.constant(null),
);

/** The texts an entry carries that the model read. */
function textsOf(value: unknown): string[] {
  const entryValue = value as { type?: unknown; message?: { role?: unknown; content?: unknown } | null } | null;
  const inner = entryValue?.type === 'message' ? entryValue.message : undefined;
  if (!inner || (inner.role !== 'user' && inner.role !== 'assistant')) return [];
  if (typeof inner.content === 'string') return [inner.content];
  if (!Array.isArray(inner.content)) return [];
  return (inner.content as ({ type?: unknown; text?: unknown } | null)[]).flatMap((item) =>
    item?.type === 'text' && typeof item.text === 'string' ? [item.text] : [],
  );
}

describe('importPi property', () => {
  it('imports any list session of these forms with every loss reported, or fails with a typed error', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(entry, { maxLength: 8 }), async (entries) => {
        let result;
        try {
          result = await importSession('pi', '-', Readable.from([load(entries)]), { lossy: true });
        } catch (error) {
          expect(EpisodicError.isInstance(error), String(error)).toBe(true);
          return;
        }
        const kept = JSON.stringify(result.messages);
        const lost = result.dropped.some((item) => item.lossy === true);
        // Before a compaction a text may be summarised away; pi's own compaction says so.
        const compacted = entries.some((value) => (value as { type?: unknown } | null)?.type === 'compaction');
        if (!lost && !compacted) {
          for (const value of entries) for (const text of textsOf(value)) expect(kept).toContain(JSON.stringify(text).slice(1, -1));
        }
        const back = await readTranscript(Readable.from([formatTranscript(result.messages)]), { file: 'imported' });
        expect(back).toHaveLength(result.messages.length);
      }),
      { numRuns: 300 },
    );
  });
});
