/**
 * Property tests of chunked counting against tiktoken's exact counts: equal when no
 * cut was forced (the cuts fall between pieces), never below otherwise, for both
 * encodings, on text built from the character classes that decide where pieces end.
 */
import fc from 'fast-check';
import { get_encoding, type TiktokenEncoding } from 'tiktoken';
import { describe, expect, it } from 'vitest';
import { isHeadCut, isPieceBoundary, isTailStart } from './piece-boundaries.js';
import { countInChunks } from './text-tally.js';
import { MAX_RUN, nextChunk } from './text-chunks.js';

const encoders = {
  o200k_base: get_encoding('o200k_base' as TiktokenEncoding),
  cl100k_base: get_encoding('cl100k_base' as TiktokenEncoding),
};
const exact = (encoding: keyof typeof encoders, text: string) => encoders[encoding].encode_ordinary(text).length;
const indexes = (value: string) => Array.from({ length: value.length + 1 }, (_, index) => index);
const chunkEncoder = (encoding: keyof typeof encoders) => (chunk: string) => exact(encoding, chunk);

/** Fragments that sit on the edges of the pre-tokenizer's rules. */
const fragment = fc.oneof(
  fc.constantFrom(
    ' ', '  ', '\n', '\n\n', '\r\n', '\t', ' \n', '/', '//', "'", "'s", "'t", "'ll", '.', ',', ';', '(', ')', '[', ']',
    '{', '}', '"', '=', '-', '_', '*', '#', '...', '=>', '->', 'é', 'e\u0301', 'Ñ', 'ß', 'Привет', 'мир', '今日は',
    '天気', '😀', '١٢٣', '½', 'Ⅻ', '\u00a0', '\u3000', '\u0085', 'I', 'DON', 'Don', 'x', 'HTTPServer',
  ),
  fc.stringMatching(/^[a-zA-Z]{1,12}$/),
  fc.stringMatching(/^[0-9]{1,7}$/),
  fc.stringMatching(/^[A-Za-z0-9+/]{1,40}={0,2}$/),
  fc.string({ unit: 'grapheme', maxLength: 6 }),
  // A newline after punctuation takes a following slash into its piece.
  fc.constantFrom('.\n/', ';\n//', '},\n/*', '*\n/usr', '-->\n/'),
  // Words whose contraction is one o200k token ("don't" is 1 token, "don" + "'t" are 2).
  fc.tuple(fc.constantFrom('don', 'it', 'can', 'I', 'wouldn', 'DON'), fc.constantFrom("'t", "'s", "'m", "'ll")).map(
    ([word, ending]) => word + ending,
  ),
);
/** A long run of one character, or of a few characters of one class. */
const run = fc.oneof(
  fc.tuple(fc.constantFrom('a', ' ', '=', '-', '\n', 'é', '.', 'ab', ' .', '語'), fc.integer({ min: 1, max: 700 })).map(
    ([unit, count]) => unit.repeat(count),
  ),
  fc.stringMatching(/^[a-z]{150,450}$/),
);
const text = fc.array(fc.oneof({ weight: 6, arbitrary: fragment }, { weight: 1, arbitrary: run }), {
  maxLength: 120,
}).map((parts) => parts.join(''));

describe('chunked counting', () => {
  for (const encoding of ['o200k_base', 'cl100k_base'] as const) {
    it(`equals the exact ${encoding} count without forced cuts and is never below it (${encoding})`, () => {
      fc.assert(
        fc.property(text, (sample) => {
          const counted = countInChunks(sample, chunkEncoder(encoding));
          const truth = exact(encoding, sample);
          if (counted.forced) expect(counted.tokens).toBeGreaterThanOrEqual(truth);
          else expect(counted.tokens).toBe(truth);
        }),
        { numRuns: 400 },
      );
    });

    it(`splits at every piece boundary at once without changing the count (${encoding})`, () => {
      fc.assert(
        fc.property(text, (sample) => {
          let sum = 0;
          let from = 0;
          for (let index = 1; index <= sample.length; index += 1) {
            if (index < sample.length && !isPieceBoundary(sample, index)) continue;
            sum += exact(encoding, sample.slice(from, index));
            from = index;
          }
          expect(sum).toBe(exact(encoding, sample));
        }),
        { numRuns: 400 },
      );
    });

    it(`joins a head and a tail around a marker line without changing their counts (${encoding})`, () => {
      fc.assert(
        fc.property(text, text, fc.nat(), fc.nat(), (first, second, pickHead, pickTail) => {
          const heads = indexes(first).filter((index) => index > 0 && isHeadCut(first, index));
          const tails = indexes(second).filter((index) => isTailStart(second, index));
          if (heads.length === 0 || tails.length === 0) return;
          const head = first.slice(0, heads[pickHead % heads.length]);
          const tail = second.slice(tails[pickTail % tails.length]);
          // As the packer joins them: the marker on a line of its own.
          const middle = `${head.endsWith('\n') ? '' : '\n'}[... 12 characters cut ...]\n`;
          const joined = head + middle + tail;
          const parts = exact(encoding, head) + exact(encoding, middle) + exact(encoding, tail);
          expect(exact(encoding, joined)).toBe(parts);
        }),
        { numRuns: 400 },
      );
    });
  }

  it('never ends a chunk inside a surrogate pair and always moves forward', () => {
    fc.assert(
      fc.property(text, (sample) => {
        for (let from = 0; from < sample.length;) {
          const { end } = nextChunk(sample, from, 16);
          expect(end).toBeGreaterThan(from);
          const before = sample.charCodeAt(end - 1);
          expect(before >= 0xd800 && before < 0xdc00 && end < sample.length).toBe(false);
          from = end;
        }
      }),
      { numRuns: 300 },
    );
  });

  it('cuts a long run into pieces of at most MAX_RUN characters', () => {
    const sample = `start ${'a'.repeat(5 * MAX_RUN + 17)} end`;
    const ends: number[] = [];
    for (let from = 0; from < sample.length;) {
      const chunk = nextChunk(sample, from);
      ends.push(chunk.end);
      expect(chunk.end - from).toBeLessThanOrEqual(MAX_RUN + 6);
      from = chunk.end;
    }
    expect(ends.length).toBeGreaterThanOrEqual(6);
  });
});
