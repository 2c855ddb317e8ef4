/**
 * Shortening tool results with progressive counts: a result that is cut is never
 * tokenized whole, and the shortened text's count (taken from its parts, or counted
 * anew around forced cuts) is what a fresh counter says, within the cap.
 */
import { get_encoding } from 'tiktoken';
import { describe, expect, it } from 'vitest';
import { words } from '../../../../test/support/transcripts.js';
import type { ToolMessage } from '../message/message.js';
import { packedFormsFor } from './packed-forms.js';
import { createTokenCounter } from '../tokens/token-counter.js';

function base64(bytes: number): string {
  const data = Buffer.alloc(bytes);
  for (let index = 0; index < bytes; index += 1) data[index] = (index * 7919 + 13) % 251;
  return data.toString('base64');
}

const log = Array.from({ length: 3000 }, (_, index) => `line ${index}: ${words(9, index)}`).join('\n');
const samples: [string, string][] = [
  ['a log', log],
  ['one character', 'x'.repeat(300_000)],
  ['base64', base64(200_000)],
  ['a log around a run of spaces', `${log.slice(0, 20_000)}${' '.repeat(50_000)}${log.slice(-20_000)}`],
];

describe('shortened tool results', () => {
  for (const [name, content] of samples) {
    it(`counts the shortened form of ${name} as a fresh counter does, within the cap`, () => {
      const counter = createTokenCounter();
      const message: ToolMessage = { role: 'tool', toolCallId: 'c', toolName: 'read', content };
      for (const cap of [80, 2_000, 16_000]) {
        const form = packedFormsFor(counter).tool(message, cap);
        const fresh = createTokenCounter();
        if (fresh.countText(content) <= cap) {
          expect(form).toBe(message);
          continue;
        }
        expect(form.content).toMatch(/\[\.\.\. \d+ characters cut from the middle of this tool result \.\.\.\]/);
        expect(counter.countMessage(form)).toBe(fresh.countMessage(form));
        expect(fresh.countText(form.content as string)).toBeLessThanOrEqual(cap);
      }
    });
  }

  it('never tokenizes a result that is cut whole', () => {
    // An encoder of its own sees every text the counter encodes (the default one may
    // know pieces from earlier counts and ask tiktoken for less).
    const tiktoken = get_encoding('o200k_base');
    const encoded: string[] = [];
    const encoder = { count: (text: string) => (encoded.push(text), tiktoken.encode_ordinary(text).length) };
    const counter = createTokenCounter({ encoder });
    const message: ToolMessage = { role: 'tool', toolCallId: 'c', toolName: 'read', content: log };
    const form = packedFormsFor(counter).tool(message, 2_000);
    counter.countMessage(form);
    const characters = encoded.reduce((total, text) => total + text.length, 0);
    // Counted up to the cap and the tail from the end: well under the whole result.
    expect(characters).toBeLessThan(log.length / 4);
    expect(characters).toBeGreaterThan(form.content.length / 2);
    tiktoken.free();
  });

  it('cuts a result the same way whatever the counter counted of it before', () => {
    // A long-running process and a fresh one must pack the same bytes, or the provider's cache misses.
    const message: ToolMessage = { role: 'tool', toolCallId: 'c', toolName: 'read', content: log };
    const before: Record<string, (counter: ReturnType<typeof createTokenCounter>) => void> = {
      nothing: () => {},
      'the whole message': (counter) => counter.countMessage(message),
      'a form at a larger cap': (counter) => packedFormsFor(counter).tool(message, 1_000_000),
      'a form at a smaller cap': (counter) => packedFormsFor(counter).tool(message, 500),
    };
    const forms = Object.entries(before).map(([name, warm]) => {
      const counter = createTokenCounter();
      warm(counter);
      return [name, packedFormsFor(counter).tool(message, 2_000).content] as const;
    });
    for (const [name, content] of forms) expect(content, name).toBe(forms[0]![1]);
  });
});
