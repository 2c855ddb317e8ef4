import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EchoFilter, suppressEcho } from './echo-filter.js';

/** A text split into deltas at arbitrary points. */
function streamed(text: string, cuts: number[], options = {}): string {
  const filter = new EchoFilter(options);
  const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
  let out = '';
  let from = 0;
  for (const point of [...points, text.length]) {
    out += filter.push(text.slice(from, point));
    from = point;
  }
  return out + filter.flush();
}

/** True when some run of `n` or more words is followed at once by the same run. */
function hasImmediateRepeat(words: readonly string[], n: number): boolean {
  for (let length = n; 2 * length <= words.length; length += 1)
    for (let start = 0; start + 2 * length <= words.length; start += 1)
      if (words.slice(start, start + length).join(' ') === words.slice(start + length, start + 2 * length).join(' ')) return true;
  return false;
}

const word = fc.constantFrom('the', 'test', 'times', 'out', 'after', 'one', 'second', 'so', 'raise', 'it', 'a', 'b');
const separator = fc.constantFrom(' ', ' ', '\n', '  ');

describe('echo filter, property-based', () => {
  it('does not depend on where the stream cuts its deltas', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(word, separator), { maxLength: 60 }), fc.array(fc.nat(), { maxLength: 12 }), (pairs, cuts) => {
        const text = pairs.map(([w, s]) => w + s).join('');
        expect(streamed(text, cuts)).toBe(suppressEcho(text));
      }),
    );
  });

  it('leaves text without an immediately repeated run of n words unchanged', () => {
    fc.assert(
      fc.property(fc.array(word, { maxLength: 60 }), fc.array(fc.nat(), { maxLength: 12 }), (words, cuts) => {
        fc.pre(!hasImmediateRepeat(words, 3));
        const text = words.join(' ');
        expect(streamed(text, cuts)).toBe(text);
      }),
    );
  });

  it('removes every burst a server sent twice', () => {
    // Distinct words: the only repeats are the echoes.
    const bursts = fc
      .uniqueArray(fc.stringMatching(/^[a-z]{1,6}$/), { minLength: 3, maxLength: 80 })
      .chain((words) =>
        fc.array(fc.integer({ min: 3, max: 10 }), { minLength: 1, maxLength: 20 }).map((sizes) => {
          const groups: string[][] = [];
          let at = 0;
          for (const size of sizes) {
            if (at >= words.length) break;
            groups.push(words.slice(at, at + size));
            at += size;
          }
          return groups.filter((group) => group.length >= 3);
        }),
      );
    fc.assert(
      fc.property(bursts, fc.array(fc.boolean(), { minLength: 20, maxLength: 20 }), (groups, echoed) => {
        const filter = new EchoFilter();
        let out = '';
        groups.forEach((group, index) => {
          const delta = group.map((w) => `${w} `).join('');
          out += filter.push(delta);
          if (echoed[index]) out += filter.push(delta);
        });
        out += filter.flush();
        expect(out).toBe(groups.flat().map((w) => `${w} `).join(''));
      }),
    );
  });

  it('keeps single-word stutters and repeats that are not immediate', () => {
    expect(suppressEcho('it is very very slow')).toBe('it is very very slow');
    expect(suppressEcho('run the test, then run the test again')).toBe('run the test, then run the test again');
    expect(suppressEcho('raise the timeout raise the timeout now')).toBe('raise the timeout now');
  });

  it('refuses settings that cannot work', () => {
    expect(() => new EchoFilter({ n: 1 })).toThrow(/n must be a whole number of at least 2/);
    expect(() => new EchoFilter({ n: 5, window: 4 })).toThrow(/window a whole number of at least n/);
  });
});
