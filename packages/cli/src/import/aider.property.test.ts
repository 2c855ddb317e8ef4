/**
 * The aider importer against what a chat log can hold, hostile or not: unclosed and
 * stray thinking tags, prototype names as models and commands, Tokens lines in any
 * place. Every log imports with each prompt and answer line kept (or reported), or
 * fails with a typed error; and a log full of unclosed tags parses in linear time.
 */
import { Readable } from 'node:stream';
import { EpisodicError } from '@episodic/core';
import { readTranscript } from '@episodic/core/node';
import { formatTranscript } from '@episodic/core/transcript';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { importAider } from './aider.js';

const start = '# aider chat started at 2026-04-22 22:40:12';
const open = '<thinking-content-7bbeb8e1>';
const close = '</thinking-content-7bbeb8e1>';

describe('importAider on hostile logs', () => {
  it('parses 1.5 MB of unclosed thinking tags in linear time (attack: quadratic, 24 s)', () => {
    const tags = Array.from({ length: 50_000 }, (_, index) => `<thinking-content-${index.toString(16).padStart(8, '0')}>x`);
    const log = `${start}\n\n#### hi\n\n${tags.join('\n')}\n`;
    expect(log.length).toBeGreaterThan(1_400_000);
    const began = performance.now();
    const result = importAider(log, 'h.md');
    // Linear is well under a second here; the quadratic scan took tens of seconds.
    expect(performance.now() - began).toBeLessThan(5_000);
    expect(result.messages.at(-1)).toMatchObject({ role: 'assistant', content: [{ type: 'text' }] });
  });

  it('keeps an unclosed tag as text, and reads a block that closes after a stray opening', () => {
    const result = importAider(`${start}\n\n#### hi\n\n${open}\nstill thinking\n\n#### next\n\n<thinking-content-ab>\n${open}\nplan\n${close}\nanswer\n`, 'h.md');
    expect(result.messages[1]).toMatchObject({ content: [{ type: 'text', text: `${open}\nstill thinking` }] });
    expect(result.messages[3]).toMatchObject({
      content: [
        { type: 'text', text: '<thinking-content-ab>' },
        { type: 'reasoning', text: 'plan' },
        { type: 'text', text: 'answer' },
      ],
    });
  });
});

/** Words, Object.prototype's member names among them. */
const word = fc.oneof(fc.stringMatching(/^[a-z]{1,8}$/), fc.constantFrom('constructor', '__proto__', 'toString', 'valueOf'));
// Aider logs each input as its own block of `####` lines, a blank line after it.
const line = fc.oneof(
  word.map((text) => `#### ${text}\n`),
  word.map((text) => `#### /${text} ${text}\n`),
  word.map((text) => `> Model: ${text}`),
  word.map((text) => `> ${text}`),
  fc.constant('> Tokens: 1.8k sent, 653 received. Cost: $0.01 message, $0.01 session.'),
  fc.constant(open),
  fc.constant(close),
  fc.constant(''),
  fc.constant(start),
  word.map((text) => `answer ${text}`),
);

describe('importAider property', () => {
  it('keeps every prompt and answer line of any log, or fails with a typed error', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(line, { maxLength: 30 }), async (lines) => {
        const log = [start, ...lines].join('\n');
        let result;
        try {
          result = importAider(log, 'h.md');
        } catch (error) {
          expect(EpisodicError.isInstance(error), String(error)).toBe(true);
          return;
        }
        const kept = JSON.stringify(result.messages);
        for (const text of lines) {
          if (text.startsWith('answer ')) expect(kept).toContain(text);
          const prompt = /^#### ([a-z_]+)\n$/.exec(text);
          if (prompt) expect(kept).toContain(prompt[1]);
        }
        const back = await readTranscript(Readable.from([formatTranscript(result.messages)]), { file: 'imported' });
        expect(back).toHaveLength(result.messages.length);
      }),
      { numRuns: 300 },
    );
  });
});
