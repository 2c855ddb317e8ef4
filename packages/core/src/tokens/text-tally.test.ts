/**
 * A tally whose encoder counts a text whole (the built-in one) against one that counts
 * it in chunks only: the same counts, and the same heads and tails, whichever asked first.
 */
import fc from 'fast-check';
import { get_encoding, type TiktokenEncoding } from 'tiktoken';
import { describe, expect, it } from 'vitest';
import { type PieceEncoder, pieceCounting } from './piece-counts.js';
import { type ChunkEncoder, TextTally } from './text-tally.js';

const tiktoken = get_encoding('o200k_base' as TiktokenEncoding);
const pieces = pieceCounting({ count: (text) => tiktoken.encode_ordinary(text).length }, 'o200k_base') as PieceEncoder;

const line = fc
  .tuple(fc.nat(99_999), fc.constantFrom('build', 'failed', 'Test', 'timed out', 'HTTPServer', "it's", '==>', '  '), fc.nat(999))
  .map(([id, words, code]) => `${String(id).padStart(5, '0')} ${words} ${code}`);
const text = fc.array(fc.oneof(line, fc.constantFrom('x'.repeat(250), ' '.repeat(300), 'é')), { maxLength: 80 }).map((lines) => lines.join('\n'));

describe('a tally counted whole', () => {
  it('gives the counts, heads and tails of a tally counted in chunks', () => {
    let counted = 0;
    fc.assert(
      fc.property(text, fc.integer({ min: 1, max: 3000 }), fc.integer({ min: 0, max: 400 }), (sample, limit, keep) => {
        const chunks: ChunkEncoder = (chunk) => pieces.count(chunk);
        const whole: ChunkEncoder = (chunk) => pieces.count(chunk);
        whole.whole = (all) => {
          const tokens = pieces.countUnchunked(all);
          if (tokens !== undefined) counted += 1;
          return tokens;
        };
        const a = new TextTally(sample, chunks);
        const b = new TextTally(sample, whole);
        expect(b.within(limit)).toBe(a.within(limit));
        const head = a.head(keep);
        expect(b.head(keep)).toEqual(head);
        expect(b.tail(keep, head.at)).toEqual(a.tail(keep, head.at));
        expect(new TextTally(sample, whole).total()).toBe(new TextTally(sample, chunks).total());
      }),
      { numRuns: 500 },
    );
    expect(counted).toBeGreaterThan(100);
  });
});
