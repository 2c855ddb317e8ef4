/**
 * What the transcript readers refuse beyond a line's own shape: lines that contradict
 * each other, nesting deep enough to overflow the stack later, lines longer than the
 * cap (a source without newlines), and bytes that are not UTF-8.
 */
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { TranscriptError } from '../errors/input-errors.js';
import type { Message } from './message.js';
import { copyMessage, formatTranscript } from './transcript.js';
import { readTranscript } from './transcript-file.js';
import { checkConsistency } from './transcript-consistency.js';
import { splitTranscriptLines } from './transcript-lines.js';

const user: Message = { role: 'user', content: 'go' };
const call = (...ids: string[]): Message => ({
  role: 'assistant',
  content: ids.map((id) => ({ type: 'tool-call', id, name: 't', args: {} })),
});
const result = (id: string): Message => ({ role: 'tool', toolCallId: id, toolName: 't', content: `result ${id}` });
const done: Message = { role: 'assistant', content: [{ type: 'text', text: 'ok' }] };

async function refusal(source: string | Buffer | Message[]): Promise<TranscriptError> {
  const text = Array.isArray(source) ? formatTranscript(source) : source;
  const error = await readTranscript(Readable.from([Buffer.from(text)]), { file: 't.jsonl' }).catch((caught) => caught);
  expect(error).toBeInstanceOf(TranscriptError);
  return error as TranscriptError;
}

describe('transcript consistency', () => {
  it.each([
    ['an orphan result', [user, result('nobody'), done], 2, 'a result for tool call "nobody", but no earlier line makes that call'],
    ['a second result for one call', [user, call('a'), result('a'), result('a'), done], 4, 'tool call "a" already has its result on line 3'],
    ['a reused tool-call id', [user, call('a'), result('a'), call('a'), result('a')], 4, 'tool call id "a" is already used on line 2'],
    ['one id twice in a message', [user, call('a', 'a'), result('a')], 2, 'tool call id "a" is already used on line 2 (this message)'],
    ['a result before its call', [user, result('a'), call('a')], 2, 'a result for tool call "a", but no earlier line makes that call'],
  ])('refuses %s, naming both lines', async (_name, messages, line, detail) => {
    const error = await refusal(messages as Message[]);
    expect(error.line).toBe(line);
    expect(error.message).toContain(`t.jsonl, line ${line}: ${detail}`);
  });

  it('checks a message list the same way (a loaded session, a history)', () => {
    expect(() => checkConsistency([user, call('a'), result('a'), result('a')], 'history')).toThrow(
      'history, line 4: tool call "a" already has its result on line 3',
    );
    expect(() => checkConsistency([user, call('a'), result('a'), call('b')], 'history')).not.toThrow();
  });
});

describe('transcript limits', () => {
  const deepArgs = (depth: number) =>
    `{"role":"assistant","content":[{"type":"tool-call","id":"c","name":"t","args":{"a":${'['.repeat(depth)}${']'.repeat(depth)}}}]}`;

  it('refuses arguments nested 5,000 deep at the edge, naming the field, without overflowing', async () => {
    const error = await refusal(`{"role":"user","content":"go"}\n${deepArgs(5_000)}\n`);
    expect(error.message).toBe(
      't.jsonl, line 2: content[0].args nests arrays and objects more than 100 levels deep',
    );
    expect(error.field).toBe('content[0].args');
    // 90 levels of arguments (95 with the message around them) are fine.
    const messages = await readTranscript(Readable.from([`{"role":"user","content":"go"}\n${deepArgs(90)}\n`]));
    expect(messages).toHaveLength(2);
  });

  it('checks the nesting of an object before serialising it (which would overflow)', () => {
    let deep: unknown = 'leaf';
    for (let level = 0; level < 50_000; level += 1) deep = [deep];
    const message = { role: 'assistant', content: [{ type: 'tool-call', id: 'c', name: 't', args: { deep } }] };
    expect(() => copyMessage(message, 1, 'history')).toThrow(
      'history, line 1: content[0].args nests arrays and objects more than 100 levels deep',
    );
  });

  it('stops reading a line at the cap instead of holding it whole (a source with no newline)', async () => {
    let sent = 0;
    const endless = new Readable({
      read() {
        sent += 65_536;
        this.push(Buffer.alloc(65_536, 0x61));
      },
    });
    const error = await readTranscript(endless, { file: 'zeros', maxLineBytes: 1_000_000 }).catch((caught) => caught);
    expect(error).toBeInstanceOf(TranscriptError);
    expect((error as Error).message).toMatch(/^zeros, line 1: the line is longer than 1000000 bytes/);
    expect(sent).toBeLessThan(2_000_000);
  });

  it('refuses bytes that are not UTF-8 instead of replacing them, naming the byte', async () => {
    const bytes = Buffer.concat([Buffer.from('{"role":"user","content":"ok"}\n{"role":"user","content":"caf'), Buffer.from([0xff]), Buffer.from('"}\n')]);
    const error = await refusal(bytes);
    expect(error.message).toBe('t.jsonl, line 2: not valid UTF-8 (byte 30 of the line, 0xff); the file is damaged or not UTF-8 text');
  });

  it('reads multi-byte characters split across chunks, and CRLF line ends', async () => {
    const text = Buffer.from('{"role":"user","content":"café ☕"}\r\n{"role":"user","content":"again"}\r\n');
    const chunks = [...text].map((byte) => Buffer.from([byte]));
    const messages = await readTranscript(Readable.from(chunks));
    expect(messages).toEqual([{ role: 'user', content: 'café ☕' }, { role: 'user', content: 'again' }]);
  });

  it('splits a buffer into numbered lines, marking the last one without a newline', () => {
    const lines = splitTranscriptLines(Buffer.from('a\n\nbb\ncc'));
    expect(lines.map(({ number, bytes, terminated }) => [number, bytes.toString(), terminated])).toEqual([
      [1, 'a', true],
      [2, '', true],
      [3, 'bb', true],
      [4, 'cc', false],
    ]);
  });
});
