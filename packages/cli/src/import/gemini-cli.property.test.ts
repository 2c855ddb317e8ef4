/**
 * The Gemini CLI importer against what Gemini CLI's own types allow
 * (`chatRecordingTypes.ts`: `content: PartListUnion`, `result?: PartListUnion | null`,
 * `tokens?: TokensSummary | null`, thoughts as `ThoughtSummary` objects) and what a
 * hostile file adds (prototype names as types, nulls, deep nesting): every chat either
 * imports without losing a word unreported, or fails with a typed error.
 */
import { Readable } from 'node:stream';
import { EpisodicError, type Message } from '@episodic/core';
import { readTranscript } from '@episodic/core/node';
import { formatTranscript } from '@episodic/core/transcript';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { importGeminiCli } from './gemini-cli.js';
import { ImportError, LossyImportError } from './import-result.js';
import { importSession, importSummary } from './import-session.js';

const chat = (messages: unknown[]) => JSON.stringify({ sessionId: 's1', projectHash: 'ab', startTime: 't', lastUpdated: 't', messages }, null, 2);

/** Every text a message of the transcript holds, joined. */
function transcriptText(messages: readonly Message[]): string {
  return JSON.stringify(messages);
}

describe('importGeminiCli on the forms Gemini CLI records', () => {
  it('reads content given as a single Part object, for a prompt and an answer (attack: dropped and reported "nothing dropped")', async () => {
    const text = chat([
      { id: 'u1', type: 'user', content: { text: 'Transfer 999 to account 42' } },
      { id: 'g1', type: 'gemini', content: { text: 'Done: sent 999.' }, model: 'gemini-2.5-pro' },
    ]);
    const result = importGeminiCli(text, 'chat.json');
    expect(result.messages).toMatchObject([
      { role: 'user', content: 'Transfer 999 to account 42' },
      { role: 'assistant', content: [{ type: 'text', text: 'Done: sent 999.' }] },
    ]);
    expect(result.dropped).toEqual([]);
    const imported = await importSession('gemini-cli', '-', Readable.from([text]));
    expect(importSummary(imported)).toContain('nothing dropped');
    expect(transcriptText(imported.messages)).toContain('Transfer 999');
  });

  it('reads a list mixing strings and Parts, a thought part, and results given as one Part, a string or null', () => {
    const result = importGeminiCli(
      chat([
        { id: 'u1', type: 'user', content: ['Read ', { text: 'a.txt' }] },
        {
          id: 'g1',
          type: 'gemini',
          content: [{ text: 'Plan first.', thought: true }, 'Reading it.'],
          thoughts: null,
          tokens: null,
          toolCalls: [
            { id: 'c1', name: 'read_file', args: { path: 'a.txt' }, result: { functionResponse: { id: 'c1', name: 'read_file', response: { output: 'hello' } } }, status: 'success' },
            { id: 'c2', name: 'read_file', args: { path: 'b.txt' }, result: 'plain string', status: 'success' },
            { id: 'c3', name: 'read_file', args: { path: 'c.txt' }, result: null, status: 'cancelled' },
          ],
        },
      ]),
      'chat.json',
    );
    expect(result.messages[0]).toMatchObject({ role: 'user', content: [{ type: 'text', text: 'Read ' }, { type: 'text', text: 'a.txt' }] });
    expect(result.messages[1]).toMatchObject({
      content: [{ type: 'reasoning', text: 'Plan first.' }, { type: 'text', text: 'Reading it.' }, { type: 'tool-call' }, { type: 'tool-call' }, { type: 'tool-call' }],
    });
    expect(result.messages.slice(2).map((message) => (message as { content: string }).content)).toEqual(['hello', 'plain string', '']);
  });

  it('reports null parts and null thoughts as empty, not as an unexpected error', () => {
    const result = importGeminiCli(
      chat([
        { id: 'u1', type: 'user', content: [null, { text: 'hi' }] },
        { id: 'g1', type: 'gemini', content: [null], thoughts: [null, { subject: 'S', description: 'D' }] },
      ]),
      'chat.json',
    );
    expect(result.messages[1]).toMatchObject({ content: [{ type: 'reasoning', text: '**S**\nD' }] });
    expect(result.dropped.map((item) => [item.what, item.lossy ?? false])).toEqual([
      ['null parts', false],
      ['empty thoughts', false],
    ]);
  });

  it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty'])(
    'takes a message typed %s for unknown content, not for a terminal note',
    (type) => {
      const result = importGeminiCli(`{"sessionId":"s","messages":[{"id":"x","type":${JSON.stringify(type)},"content":"secret"}]}`, 'chat.json');
      expect(result.dropped).toMatchObject([{ what: `messages of type ${type}`, lossy: true }]);
    },
  );

  it('refuses a result nested 20,000 levels deep with a typed error naming the message', () => {
    const deep = `${'['.repeat(20_000)}1${']'.repeat(20_000)}`;
    const text = `{"sessionId":"s","messages":[{"id":"u","type":"user","content":"x"},{"id":"g","type":"gemini","content":"ok","toolCalls":[{"id":"c","name":"t","args":{},"result":[{"functionResponse":{"response":${deep}}}]}]}]}`;
    expect(() => importGeminiCli(text, 'chat.json')).toThrow(ImportError);
    expect(() => importGeminiCli(text, 'chat.json')).toThrow(/chat\.json, line 2: toolCalls.* more than 100 levels deep/);
  });
});

/** Strings that are also the names of Object.prototype's members. */
const prototypeNames = fc.constantFrom('constructor', '__proto__', 'toString', 'valueOf', 'hasOwnProperty');
const word = fc.oneof(fc.stringMatching(/^[a-z]{1,8}$/), prototypeNames);
/** A `Part` of `@google/genai` as Gemini CLI records it, plus hostile variants. */
const part = fc.oneof(
  fc.record({ text: word }),
  fc.record({ text: word, thought: fc.constant(true) }),
  fc.record({ inlineData: fc.record({ mimeType: fc.constant('image/png'), data: fc.constant('iVBORw0=') }) }),
  fc.record({ functionCall: fc.record({ name: word, args: fc.dictionary(word, word) }) }),
  fc.dictionary(prototypeNames, word, { minKeys: 1, maxKeys: 2 }),
  fc.constant(null),
);
/** `PartListUnion`: a string, one Part, or a list of both. */
const partListUnion = fc.oneof(word, part, fc.array(fc.oneof(word, part), { maxLength: 4 }));
const nested = fc.integer({ min: 1, max: 300 }).map((depth) => JSON.parse(`${'['.repeat(depth)}1${']'.repeat(depth)}`) as unknown);
const toolCall = fc.record({
  id: word,
  name: word,
  args: fc.oneof(fc.dictionary(word, word), nested),
  result: fc.oneof(partListUnion, fc.constant(null), nested.map((value) => [{ functionResponse: { response: value } }])),
  status: fc.constantFrom('success', 'error', 'cancelled'),
});
const message = fc.oneof(
  fc.record({ id: word, type: fc.constant('user'), content: partListUnion }),
  fc.record({
    id: word,
    type: fc.constant('gemini'),
    content: partListUnion,
    thoughts: fc.oneof(
      fc.constant(null),
      fc.array(fc.oneof(fc.constant(null), fc.record({ subject: word, description: word })), { maxLength: 2 }),
    ),
    tokens: fc.oneof(fc.constant(null), fc.constant({ input: 10, output: 2, cached: 0, total: 12 })),
    toolCalls: fc.array(toolCall, { maxLength: 2 }),
  }),
  fc.record({ id: word, type: fc.oneof(fc.constantFrom('info', 'error', 'warning'), prototypeNames), content: partListUnion }),
);

describe('importGeminiCli property', () => {
  it('imports any chat of these forms with every loss reported, or fails with a typed error', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(message, { maxLength: 6 }), async (messages) => {
        const text = JSON.stringify({ sessionId: 's', projectHash: 'h', messages });
        let result;
        try {
          result = await importSession('gemini-cli', '-', Readable.from([text]));
        } catch (error) {
          // A typed refusal: bad input named, or lost content the user must accept.
          expect(EpisodicError.isInstance(error), String(error)).toBe(true);
          if (error instanceof LossyImportError) expect(error.dropped.length).toBeGreaterThan(0);
          return;
        }
        // Nothing lost unreported: every prompt and answer text arrives.
        const kept = transcriptText(result.messages);
        for (const entry of messages) {
          if (entry.type !== 'user' && entry.type !== 'gemini') continue;
          for (const item of [entry.content].flat() as unknown[]) {
            const text = (item as { text?: unknown } | null)?.text;
            const body = typeof item === 'string' ? item : typeof text === 'string' ? text : undefined;
            if (body !== undefined) expect(kept).toContain(JSON.stringify(body).slice(1, -1));
          }
        }
        // What it wrote reads back.
        const back = await readTranscript(Readable.from([formatTranscript(result.messages)]), { file: 'imported' });
        expect(back).toHaveLength(result.messages.length);
      }),
      { numRuns: 300 },
    );
  });
});
