import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../errors/input-errors.js';
import { DEFAULT_REASONING_TAGS } from './markers.js';
import { normalizePieces, type SplitPiece, type StreamSplitter } from './stream-splitter.js';
import { createTagSplitter } from './tag-splitter.js';

const MARKERS = DEFAULT_REASONING_TAGS.flatMap((name) => [`<${name}>`, `</${name}>`]);
/** `</reasoning>` is the longest default marker: 12 characters. */
const LONGEST_MARKER = Math.max(...MARKERS.map((marker) => marker.length));

/** Feeds the chunks, checking the hold-back after every push; returns every piece. */
function run(splitter: StreamSplitter<SplitPiece>, chunks: readonly string[]): SplitPiece[] {
  const pieces: SplitPiece[] = [];
  let seen = '';
  for (const chunk of chunks) {
    pieces.push(...splitter.push(chunk));
    seen += chunk;
    expect(splitter.heldBack).toBe(expectedHoldBack(seen));
    expect(splitter.heldBack).toBeLessThan(LONGEST_MARKER);
  }
  pieces.push(...splitter.end());
  return pieces;
}

/** Independent statement of the hold-back rule: the longest suffix that is a proper prefix of a marker. */
function expectedHoldBack(seen: string): number {
  // ASCII case only: a Kelvin sign must not fold into the "k" of a marker.
  const lower = seen.replace(/[A-Z]/g, (letter) => letter.toLowerCase());
  for (let length = Math.min(LONGEST_MARKER - 1, lower.length); length > 0; length -= 1) {
    const suffix = lower.slice(lower.length - length);
    if (MARKERS.some((marker) => marker.length > length && marker.startsWith(suffix))) return length;
  }
  return 0;
}

function cut(text: string, positions: readonly number[]): string[] {
  const sorted = [...new Set(positions.map((position) => position % (text.length + 1)))].sort((a, b) => a - b);
  const chunks: string[] = [];
  let from = 0;
  for (const position of sorted) {
    chunks.push(text.slice(from, position));
    from = position;
  }
  chunks.push(text.slice(from));
  return chunks;
}

const whole = (text: string, options = {}) => normalizePieces(run(createTagSplitter(options), [text]));

describe('createTagSplitter', () => {
  it('separates tagged reasoning from visible text', () => {
    expect(whole('Hello <think>plan the fix</think>The fix is X.')).toEqual([
      { kind: 'text', text: 'Hello ' },
      { kind: 'reasoning', text: 'plan the fix' },
      { kind: 'text', text: 'The fix is X.' },
    ]);
  });

  it.each(DEFAULT_REASONING_TAGS)('recognises <%s> in any ASCII case', (name) => {
    const upper = name.toUpperCase();
    expect(whole(`a<${upper}>b</${name}>c`)).toEqual([
      { kind: 'text', text: 'a' },
      { kind: 'reasoning', text: 'b' },
      { kind: 'text', text: 'c' },
    ]);
  });

  it('gives the same pieces when a tag is cut at every position', () => {
    const text = 'Intro <Thinking>step 1 < step 2</thinking> answer <reasoning>r</reasoning>!';
    const expected = whole(text);
    for (let position = 0; position <= text.length; position += 1) {
      expect(normalizePieces(run(createTagSplitter(), [text.slice(0, position), text.slice(position)]))).toEqual(
        expected,
      );
    }
    expect(normalizePieces(run(createTagSplitter(), [...text]))).toEqual(expected);
  });

  it('passes unknown and look-alike tags through as text', () => {
    const lookAlikes = ['<thinker>x</thinker>', '<b>bold</b>', '<think x="1">', '< think>', '<think', '<<think'];
    // U+212A KELVIN SIGN lower-cases to an ASCII "k": it must not complete a marker.
    for (const text of [...lookAlikes, '<thin\u212a>', '</THIN\u212a>']) {
      expect(whole(text)).toEqual([{ kind: 'text', text }]);
    }
  });

  it('emits "<" in ordinary text at once, holding back only a possible tag start', () => {
    const splitter = createTagSplitter();
    expect(splitter.push('if a < b then')).toEqual([{ kind: 'text', text: 'if a < b then' }]);
    expect(splitter.heldBack).toBe(0);
    expect(splitter.push(' x <')).toEqual([{ kind: 'text', text: ' x ' }]);
    expect(splitter.heldBack).toBe(1);
    expect(splitter.push('= y')).toEqual([{ kind: 'text', text: '<= y' }]);
    expect(splitter.push(' </reasonin')).toEqual([{ kind: 'text', text: ' ' }]);
    expect(splitter.heldBack).toBe('</reasonin'.length);
    expect(splitter.push('g>z')).toEqual([{ kind: 'text', text: 'z' }]);
  });

  it('flushes unclosed reasoning as reasoning at the end of the stream', () => {
    const splitter = createTagSplitter();
    expect(splitter.push('<think>still thinking </thin')).toEqual([{ kind: 'reasoning', text: 'still thinking ' }]);
    expect(splitter.end()).toEqual([{ kind: 'reasoning', text: '</thin' }]);
  });

  it('drops a stray closing tag instead of showing it, and merges the text around it', () => {
    expect(createTagSplitter().push('one</think> two')).toEqual([{ kind: 'text', text: 'one two' }]);
  });

  it('starts inside reasoning when the template opened it (DeepSeek-R1 style)', () => {
    expect(whole('weigh options</think>Answer.', { startInReasoning: true })).toEqual([
      { kind: 'reasoning', text: 'weigh options' },
      { kind: 'text', text: 'Answer.' },
    ]);
  });

  it('does not nest: any closing tag ends reasoning, inner markers are consumed', () => {
    expect(whole('<think>a<thought>b</thought>c</think>d')).toEqual([
      { kind: 'reasoning', text: 'ab' },
      { kind: 'text', text: 'cd' },
    ]);
  });

  it('resets after end() so the splitter can be reused', () => {
    const splitter = createTagSplitter({ startInReasoning: true });
    run(splitter, ['<think>open']);
    expect(normalizePieces(run(splitter, ['x</think>y']))).toEqual([
      { kind: 'reasoning', text: 'x' },
      { kind: 'text', text: 'y' },
    ]);
  });

  it('accepts custom tag names and rejects names that cannot be tags', () => {
    expect(whole('a<scratchpad>b</SCRATCHPAD>c<think>d', { tags: ['scratchpad'] })).toEqual([
      { kind: 'text', text: 'a' },
      { kind: 'reasoning', text: 'b' },
      { kind: 'text', text: 'c<think>d' },
    ]);
    expect(() => createTagSplitter({ tags: ['th>ink'] })).toThrow(InvalidArgumentError);
    expect(() => createTagSplitter({ tags: [] })).toThrow(InvalidArgumentError);
  });
});

/** Text fragments rich in near-misses: partial tags, stray `<` and `>`, unknown tags. */
const fragment = fc.oneof(
  fc.constantFrom(...MARKERS, '<THINK>', '</Analysis>', '<', '</', '<thi', '</reason', '>', '<thinker>', '<b>', '<|'),
  fc.string({ unit: 'grapheme-ascii', maxLength: 12 }),
  fc.string({ unit: 'grapheme', maxLength: 4 }),
);
const cuts = fc.array(fc.nat(), { maxLength: 40 });

describe('createTagSplitter properties', () => {
  it('gives the same normalised pieces for every way of cutting the stream', () => {
    fc.assert(
      fc.property(fc.array(fragment, { maxLength: 30 }), cuts, fc.boolean(), (fragments, positions, inReasoning) => {
        const text = fragments.join('');
        const options = { startInReasoning: inReasoning };
        const chunked = normalizePieces(run(createTagSplitter(options), cut(text, positions)));
        expect(chunked).toEqual(whole(text, options));
      }),
      { numRuns: 400 },
    );
  });

  it('recovers exactly the reasoning and text that were wrapped', () => {
    const segment = fc.record({
      kind: fc.constantFrom<SplitPiece['kind']>('text', 'reasoning'),
      text: fc.oneof(fc.string({ unit: 'grapheme-ascii', maxLength: 20 }), fc.constantFrom('a < b', '<thi', '</', '>')),
      tag: fc.constantFrom(...DEFAULT_REASONING_TAGS, 'THINK', 'Reasoning'),
    });
    const markerPattern = new RegExp(`</?(?:${DEFAULT_REASONING_TAGS.join('|')})>`, 'i');
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 12 }), cuts, (segments, positions) => {
        const expected = normalizePieces(segments.map(({ kind, text }) => ({ kind, text })));
        fc.pre(expected.every((piece) => !markerPattern.test(piece.text)));
        const text = segments
          .map(({ kind, text, tag }) => (kind === 'reasoning' ? `<${tag}>${text}</${tag}>` : text))
          .join('');
        expect(normalizePieces(run(createTagSplitter(), cut(text, positions)))).toEqual(expected);
      }),
      { numRuns: 400 },
    );
  });
});
