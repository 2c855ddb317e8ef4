/**
 * The ASCII piece scan against V8 running o200k_base's pattern (tiktoken's
 * `tiktoken_ext/openai_public.py`) itself: the same pieces, on generated text over
 * every ASCII character, on text built from the pattern's edge cases, and on this
 * repository's source files.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { asciiPieceEnd } from './ascii-pieces.js';

const CONTRACTION = "(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])?";
const O200K_PIECE = new RegExp(
  [
    `[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]*[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]+${CONTRACTION}`,
    `[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]+[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]*${CONTRACTION}`,
    '\\p{N}{1,3}',
    ' ?[^\\s\\p{L}\\p{N}]+[\\r\\n/]*',
    '\\s*[\\r\\n]+',
    '\\s+(?!\\S)',
    '\\s+',
  ].join('|'),
  'uy',
);

/** The pieces by the pattern and by the scan, as [start, end] pairs. */
function pieces(text: string): { pattern: number[][]; scan: number[][] } {
  const pattern: number[][] = [];
  for (let start = 0; start < text.length;) {
    O200K_PIECE.lastIndex = start;
    if (!O200K_PIECE.test(text)) throw new Error(`the pattern leaves a gap at ${start} of ${JSON.stringify(text)}`);
    pattern.push([start, O200K_PIECE.lastIndex]);
    start = O200K_PIECE.lastIndex;
  }
  const scan: number[][] = [];
  for (let start = 0; start < text.length; start = asciiPieceEnd(text, start)) scan.push([start, asciiPieceEnd(text, start)]);
  return { pattern, scan };
}

const ascii = fc.integer({ min: 0, max: 0x7f }).map((code) => String.fromCharCode(code));
/** Characters that decide where pieces end, drawn from a few at a time so that runs and pairs occur. */
const edgy = [..."aAzZsStTmMdDrReEvVlL'09 \t\n\r\u000b\u000c/!.-_\"\\\u0000\u001f\u007f"];
const fromFew = fc
  .tuple(fc.subarray(edgy, { minLength: 1, maxLength: 6 }), fc.array(fc.nat(), { maxLength: 40 }))
  .map(([alphabet, picks]) => picks.map((pick) => alphabet[pick % alphabet.length]).join(''));
const fragment = fc.oneof(
  fc.constantFrom("don't", "DON'T", "it's", "I'M", "we'Re", "they've", "you'll", "'s", "'", "''", ' \n ', '\r\n\r\n', ' /x'),
  fc.stringMatching(/^[a-zA-Z]{1,8}$/),
  fc.stringMatching(/^[0-9]{1,5}$/),
  fc.string({ unit: ascii, maxLength: 8 }),
  fromFew,
);

describe('the ASCII piece scan', () => {
  it('cuts the pieces the pattern cuts, on generated ASCII text', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: ascii, maxLength: 60 }), fromFew, fc.array(fragment, { maxLength: 12 }).map((parts) => parts.join(''))), (text) => {
        const { pattern, scan } = pieces(text);
        expect(scan).toEqual(pattern);
      }),
      { numRuns: 20_000 },
    );
  });

  it('cuts the pieces the pattern cuts, on this repository\'s ASCII source files', () => {
    const folder = join(new URL('.', import.meta.url).pathname, '..');
    const sources = readdirSync(folder, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.ts'));
    let checked = 0;
    for (const name of sources) {
      const text = readFileSync(join(folder, name), 'utf8');
      // eslint-disable-next-line no-control-regex
      if (/[^\u0000-\u007f]/.test(text)) continue;
      const { pattern, scan } = pieces(text);
      expect(scan, name).toEqual(pattern);
      checked += 1;
    }
    expect(checked).toBeGreaterThan(50);
  });

  it('spells out the pattern on its edge cases', () => {
    const cut = (text: string) => pieces(text).scan.map(([start, end]) => text.slice(start, end));
    expect(cut("DON'T stop, it'S fine")).toEqual(["DON'T", ' stop', ',', " it'S", ' fine']);
    expect(cut('HTTPServer x1234')).toEqual(['HTTPServer', ' x', '123', '4']);
    expect(cut('a  b\n\n  c   ')).toEqual(['a', ' ', ' b', '\n\n', ' ', ' c', '   ']);
    expect(cut('x;\n//y !!\n')).toEqual(['x', ';\n//', 'y', ' !!\n']);
  });
});
