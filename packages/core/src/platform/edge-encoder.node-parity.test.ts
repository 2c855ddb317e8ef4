/**
 * The edge builds (js-tiktoken, plain-JavaScript SHA-1) must give exactly what the
 * Node builds give: token ids that count the same and digests that name the same
 * persisted entries. Random text of every kind, and real session text.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defaultEncoder as edgeEncoder } from './edge-encoder.js';
import { digestText as edgeDigest } from './edge-hash.js';
import { defaultEncoder as nodeEncoder } from './node-encoder.js';
import { digestText as nodeDigest } from './node-hash.js';

/** Text of the kinds sessions hold: words, code, unicode, whitespace runs, special-token text. */
const text = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 200 }),
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.array(fc.constantFrom('def ', 'return', '  ', '\n', '\t', '<|endoftext|>', '<|im_start|>', 'ü', '日本語', '🙂', '123', "'s", '=>'), { maxLength: 60 }).map((parts) => parts.join('')),
);

describe('edge platform modules equal the Node ones', () => {
  it(`js-tiktoken counts as tiktoken does (o200k_base)`, () => {
    const [edge, node] = [edgeEncoder('o200k_base'), nodeEncoder('o200k_base')];
    const same = (sample: string) => {
      expect(edge.count(sample)).toBe(node.count(sample));
    };
    fc.assert(fc.property(text, same), { numRuns: 120 });
  });

  it('names the encoder to pass for cl100k_base, whose ranks are not bundled', () => {
    expect(() => edgeEncoder('cl100k_base')).toThrow(/pass createTokenCounter\(\{ encoding, encoder \}\)/);
  });

  it('gives the same counts on real text (this repository README and a source file)', () => {
    const [edge, node] = [edgeEncoder('o200k_base'), nodeEncoder('o200k_base')];
    for (const file of ['../../../../README.md', './edge-hash.ts']) {
      const sample = readFileSync(new URL(file, import.meta.url), 'utf8');
      expect(edge.count(sample)).toBe(node.count(sample));
    }
  });

  for (const algorithm of ['sha1', 'sha256'] as const) {
    it(`computes node:crypto ${algorithm} digests, hex and base64url`, () => {
      const same = (sample: string) => {
        expect(edgeDigest(algorithm, sample, 'hex')).toBe(nodeDigest(algorithm, sample, 'hex'));
        expect(edgeDigest(algorithm, sample, 'base64url')).toBe(nodeDigest(algorithm, sample, 'base64url'));
      };
      for (const length of [0, 1, 55, 56, 63, 64, 65, 1000]) same('a'.repeat(length)); // one block, two blocks, many
      fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 500 }), same), { numRuns: 300 });
    });
  }
});
