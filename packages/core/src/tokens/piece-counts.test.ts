/**
 * Piece-by-piece counts against tiktoken's own counts of the whole text: on generated
 * ASCII text built from the fragments that decide where pieces end, on this
 * repository's source files, and on text the piece split leaves to tiktoken.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { get_encoding, type TiktokenEncoding } from 'tiktoken';
import { describe, expect, it } from 'vitest';
import { type PieceEncoder, pieceCounting } from './piece-counts.js';
import { countInChunks } from './text-tally.js';
import { MAX_CHUNK, MAX_RUN } from './text-chunks.js';
import type { TokenEncoder } from './token-encoder.js';

const tiktoken = get_encoding('o200k_base' as TiktokenEncoding);
const exact = (text: string) => tiktoken.encode_ordinary(text).length;

/** tiktoken's count, recording every text it was asked for. */
function recordingEncoder(): TokenEncoder & { seen: string[] } {
  const seen: string[] = [];
  return { seen, count: (text) => (seen.push(text), exact(text)) };
}

/** ASCII fragments on the edges of the pre-tokenizer's rules. */
const fragment = fc.oneof(
  fc.constantFrom(
    ' ', '  ', '   ', '\n', '\n\n', '\r\n', '\r', '\t', ' \n', '\t\n ', '/', '//', "'", "'s", "'S", "'t", "'ll", "'LL",
    "'Re", "'ve", "'d", "'m", '.', ',', ';', '(', ')', '[', ']', '{', '}', '"', '=', '-', '_', '*', '#', '...', '=>',
    '->', '\u0000', '\u001f', '\u007f', '\u000b', '\u000c', 'I', 'DON', 'Don', 'x', 'HTTPServer', 'camelCase',
  ),
  fc.stringMatching(/^[a-zA-Z]{1,12}$/),
  fc.stringMatching(/^[0-9]{1,7}$/),
  fc.stringMatching(/^[A-Za-z0-9+/]{1,40}={0,2}$/),
  fc.string({ unit: fc.integer({ min: 0, max: 0x7f }).map((code) => String.fromCharCode(code)), maxLength: 12 }),
  fc.constantFrom('.\n/', ';\n//', '},\n/*', '*\n/usr', '-->\n/'),
  fc.tuple(fc.constantFrom('don', 'it', 'can', 'I', 'wouldn', 'DON'), fc.constantFrom("'t", "'s", "'M", "'ll")).map(
    ([word, ending]) => word + ending,
  ),
  // Runs longer than the longest cached piece, and of one character class.
  fc.tuple(fc.constantFrom('a', ' ', '=', '7', '\n', 'Ab'), fc.integer({ min: 40, max: 300 })).map(([unit, times]) =>
    unit.repeat(times),
  ),
);
const asciiText = fc.array(fragment, { maxLength: 60 }).map((parts) => parts.join(''));

/**
 * Runs around `MAX_RUN` characters of one class, spelled so that the pre-tokenizer
 * splits them into short pieces or hands them to the piece before: letters changing
 * case, whitespace with newlines inside, slashes after a newline, apostrophes.
 */
const nearRun = fc
  .tuple(
    fc.constantFrom('aB', 'Ab', 'a', 'xY', ' ', '\t', ' \n', '\n ', '\n', '\r\n', '/', '!', "'", "'s", '.', '\u0001', 'a\u0001'),
    fc.integer({ min: MAX_RUN / 2 - 10, max: MAX_RUN + 10 }),
    fc.constantFrom('', 'x', 'X', ' ', '\n', '!', '7', "'t", ' x'),
    fc.constantFrom('', 'x', '!\n', ' ', "it's", '7'),
  )
  .map(([unit, times, after, before]) => before + unit.repeat(Math.ceil(times / unit.length)) + after);
const runText = fc
  .array(fc.oneof({ weight: 3, arbitrary: fragment }, { weight: 1, arbitrary: nearRun }), { maxLength: 20 })
  .map((parts) => parts.join(''));

describe('piece-by-piece counts', () => {
  it("equal tiktoken's count of the whole on generated ASCII text", () => {
    const encoder = pieceCounting(recordingEncoder(), 'o200k_base');
    fc.assert(
      fc.property(asciiText, (text) => {
        expect(encoder.count(text)).toBe(exact(text));
      }),
      { numRuns: 3000 },
    );
  });

  it("equal tiktoken's count on this repository's source files", () => {
    const encoder = pieceCounting(recordingEncoder(), 'o200k_base');
    const folder = new URL('.', import.meta.url).pathname;
    const sources = readdirSync(join(folder, '..'), { recursive: true, encoding: 'utf8' }).filter((name) =>
      name.endsWith('.ts'),
    );
    expect(sources.length).toBeGreaterThan(50);
    for (const name of sources) {
      const text = readFileSync(join(folder, '..', name), 'utf8');
      expect(encoder.count(text), name).toBe(exact(text));
    }
  });

  it('asks tiktoken only for pieces it has not seen, and for non-ASCII text whole', () => {
    const inner = recordingEncoder();
    const encoder = pieceCounting(inner, 'o200k_base');
    const log = '00412 build failed retry 17\n00413 build passed retry 18\n';
    expect(encoder.count(log)).toBe(exact(log));
    expect(inner.seen).toContain(' build');
    expect(inner.seen).not.toContain(log);
    inner.seen.length = 0;
    expect(encoder.count(log)).toBe(exact(log));
    expect(inner.seen).toEqual([]);
    const accented = 'café résumé naïve';
    expect(encoder.count(accented)).toBe(exact(accented));
    expect(inner.seen).toEqual([accented]);
  });

  it('counts single characters and digit runs as one token without asking tiktoken, as o200k_base has them', () => {
    // The vocabulary facts the shortcut rests on: every ASCII character and every
    // string of 1 to 3 ASCII digits is one o200k_base token.
    for (let code = 0; code < 128; code += 1) expect(exact(String.fromCharCode(code))).toBe(1);
    for (let digits = 1; digits <= 3; digits += 1) {
      for (let value = 0; value < 10 ** digits; value += 1) expect(exact(String(value).padStart(digits, '0'))).toBe(1);
    }
    const inner = recordingEncoder();
    const encoder = pieceCounting(inner, 'o200k_base');
    const line = '00412 7\n1234567 ';
    expect(encoder.count(line)).toBe(exact(line));
    expect(inner.seen).toEqual([]);
  });

  it('count whole exactly what the chunks add up to, and only texts chunking would not cut by force', () => {
    const encoder = pieceCounting(recordingEncoder(), 'o200k_base') as PieceEncoder;
    const chunked = (text: string) => countInChunks(text, (chunk) => encoder.count(chunk));
    let whole = 0;
    fc.assert(
      fc.property(fc.oneof(asciiText, runText), (text) => {
        const unchunked = encoder.countUnchunked(text);
        if (unchunked === undefined) return;
        whole += 1;
        const counted = chunked(text);
        expect(counted.forced).toBe(false);
        expect(unchunked).toBe(counted.tokens);
        expect(unchunked).toBe(exact(text));
      }),
      { numRuns: 3000 },
    );
    // Most samples are counted whole: the check above is not vacuous.
    expect(whole).toBeGreaterThan(1000);
    // Texts with a run chunking cuts by force, long ones and non-ASCII ones are left to the chunks.
    for (const text of ['aB'.repeat(MAX_RUN), `x ${'aB'.repeat(MAX_RUN / 2)}`, ' '.repeat(MAX_RUN), '!'.repeat(MAX_RUN)]) {
      expect(chunked(text).forced, JSON.stringify(text.slice(0, 12))).toBe(true);
      expect(encoder.countUnchunked(text)).toBeUndefined();
    }
    expect(encoder.countUnchunked('word '.repeat(MAX_CHUNK / 5 + 1))).toBeUndefined();
    expect(encoder.countUnchunked('café')).toBeUndefined();
    expect(encoder.countUnchunked('00412 build failed retry 17\n')).toBe(exact('00412 build failed retry 17\n'));
  });

  it('leaves an encoding without a pattern here to its encoder', () => {
    const inner = recordingEncoder();
    expect(pieceCounting(inner, 'cl100k_base')).toBe(inner);
  });
});
