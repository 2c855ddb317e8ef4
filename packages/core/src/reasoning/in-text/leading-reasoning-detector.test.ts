import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createLeadingReasoningDetector } from './leading-reasoning-detector.js';
import { normalizePieces } from './stream-splitter.js';

/** Cuts `text` at the given (sorted, deduplicated) positions. */
function cut(text: string, positions: readonly number[]): string[] {
  const points = [...new Set(positions.map((position) => position % (text.length + 1)))].sort((a, b) => a - b);
  const chunks: string[] = [];
  let from = 0;
  for (const point of points) {
    chunks.push(text.slice(from, point));
    from = point;
  }
  chunks.push(text.slice(from));
  return chunks;
}

function split(chunks: readonly string[]) {
  const detector = createLeadingReasoningDetector();
  const pieces = chunks.flatMap((chunk) => detector.push(chunk));
  pieces.push(...detector.end());
  return normalizePieces(pieces.map(({ kind, text }) => ({ kind, text })));
}

const cuts = fc.array(fc.nat(400), { maxLength: 12 });
/** Text with tags and Harmony tokens anywhere in it. */
const taggy = fc
  .array(fc.oneof(fc.string(), fc.constantFrom('<think>', '</think>', '<thinking>', '<reasoning>', '<|channel|>', '<|start|>', '<', ' ')))
  .map((parts) => parts.join(''));

describe('createLeadingReasoningDetector', () => {
  it('never changes an answer that does not open with a reasoning block, whatever it mentions later', () => {
    // The first non-blank character is a visible one, not `<`.
    const answer = fc.tuple(fc.stringMatching(/^\s{0,3}$/), fc.string({ minLength: 1 }).filter((s) => /^\s*[^\s<]/.test(s)), taggy);
    fc.assert(
      fc.property(answer, cuts, ([blank, head, rest], positions) => {
        const text = `${blank}${head}${rest}`;
        expect(split(cut(text, positions))).toEqual([{ kind: 'text', text }]);
      }),
    );
  });

  it('splits a leading <think> block from the answer, for any chunking and tag case', () => {
    const noTags = fc.string().filter((s) => !s.includes('<'));
    fc.assert(
      fc.property(
        fc.constantFrom('think', 'THINK', 'thinking', 'reasoning'),
        noTags,
        noTags,
        fc.stringMatching(/^\s{0,4}$/),
        cuts,
        (tag, reasoning, answer, blank, positions) => {
          const text = `${blank}<${tag}>${reasoning}</${tag}>${answer}`;
          const expected = [
            ...(reasoning ? [{ kind: 'reasoning', text: reasoning }] : []),
            ...(answer ? [{ kind: 'text', text: answer }] : []),
          ];
          expect(split(cut(text, positions))).toEqual(expected);
        },
      ),
    );
  });

  it('hands a stream opening with a Harmony token to the Harmony parser', () => {
    const raw = '<|channel|>analysis<|message|>user wants the log<|end|><|start|>assistant<|channel|>final<|message|>Here.<|return|>';
    expect(split(cut(raw, [3, 17, 40, 77]))).toEqual([
      { kind: 'reasoning', text: 'user wants the log' },
      { kind: 'text', text: 'Here.' },
    ]);
  });

  it('answers that start with other markup go through untouched; blank-only output stays text', () => {
    expect(split(['<b>bold</b> and <think>x</think>'])).toEqual([{ kind: 'text', text: '<b>bold</b> and <think>x</think>' }]);
    expect(split(['<thi', 'nker>'])).toEqual([{ kind: 'text', text: '<thinker>' }]);
    expect(split(['  ', '\n'])).toEqual([{ kind: 'text', text: '  \n' }]);
    expect(split([' '.repeat(100), 'hi'])).toEqual([{ kind: 'text', text: `${' '.repeat(100)}hi` }]);
  });
});
