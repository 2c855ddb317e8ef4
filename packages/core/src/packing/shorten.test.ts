/**
 * Shortening tool results with progressive counts: a result that is cut is never
 * tokenized whole, and the shortened text's count (taken from its parts, or counted
 * anew around forced cuts) is what a fresh counter says, within the cap.
 */
import { get_encoding } from 'tiktoken';
import { describe, expect, it } from 'vitest';
import { words } from '../../../../test/support/transcripts.js';
import type { ToolMessage } from '../message/message.js';
import { packedFormsFor, partsAsText } from './packed-forms.js';
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

/** The marker of a form made with a reader, parsed: what it says was cut and how to read it. */
function readerMarker(content: string) {
  const found =
    /\[\.\.\. (\d+) characters cut from the middle of this tool result \(characters (\d+) to (\d+)\); to read them call (\w+) with (\{[^}]*\}) \.\.\.\]/.exec(
      content,
    );
  if (!found) throw new Error(`no reader marker in ${content.slice(0, 200)}`);
  const [, cut, from, to, tool, args] = found;
  const at = found.index;
  return { at, end: at + found[0].length, cut: Number(cut), from: Number(from), to: Number(to), tool, args: JSON.parse(args!) };
}

describe('shortened tool results with a reader of cut results', () => {
  const message: ToolMessage = { role: 'tool', toolCallId: 'call_abc', toolName: 'read', content: log };

  it('names the reader, the call and the cut characters of the original text, within the cap', () => {
    for (const cap of [200, 2_000]) {
      const counter = createTokenCounter();
      const form = packedFormsFor(counter, 'read_cut_result').tool(message, cap);
      const content = form.content as string;
      const marker = readerMarker(content);
      expect(marker.tool).toBe('read_cut_result');
      expect(marker.args).toEqual({ toolCallId: 'call_abc', offset: marker.from });
      expect(marker.cut).toBe(marker.to - marker.from);
      // Head and tail are the original text before `from` and from `to` on, around the marker line.
      expect(content.slice(0, marker.at).replace(/\n$/, '')).toBe(log.slice(0, marker.from).replace(/\n$/, ''));
      expect(content.slice(marker.end).replace(/^\n/, '')).toBe(log.slice(marker.to));
      expect(createTokenCounter().countText(content)).toBeLessThanOrEqual(cap);
      expect(form.truncated).toBe(true);
    }
  });

  it('is a pure function of the message, the cap and the reader (a fresh counter packs the same bytes)', () => {
    const first = packedFormsFor(createTokenCounter(), 'read_cut_result').tool(message, 1_000).content;
    const warm = createTokenCounter();
    warm.countMessage(message);
    packedFormsFor(warm).tool(message, 1_000);
    expect(packedFormsFor(warm, 'read_cut_result').tool(message, 1_000).content).toBe(first);
  });

  it('leaves the marker as it was without a reader, in its own cache', () => {
    const counter = createTokenCounter();
    const plain = packedFormsFor(counter).tool(message, 1_000);
    const read = packedFormsFor(counter, 'read_cut_result').tool(message, 1_000);
    expect(plain).not.toBe(read);
    expect(plain.content).toMatch(/\n\[\.\.\. \d+ characters cut from the middle of this tool result \.\.\.\]\n/);
    expect(plain.content).not.toContain('read_cut_result');
    expect(packedFormsFor(counter).tool(message, 1_000)).toBe(plain);
  });

  it('gives offsets into the joined text of a result with content parts, and without progressive counts', () => {
    const parts: ToolMessage = {
      role: 'tool',
      toolCallId: 'call_parts',
      toolName: 'screenshot',
      content: [
        { type: 'text', text: log.slice(0, 30_000) },
        { type: 'image', data: 'AAAA', mediaType: 'image/png' },
        { type: 'text', text: log.slice(30_000, 60_000) },
      ],
    };
    const joined = partsAsText(parts.content as Exclude<ToolMessage['content'], string>);
    const plainString: ToolMessage = { ...message, toolCallId: 'call_plain' };
    // A counter whose progressive counts are switched off takes the other shortening path.
    const counter = Object.create(createTokenCounter(), { tally: { value: undefined } }) as ReturnType<typeof createTokenCounter>;
    for (const [source, original] of [
      [parts, joined],
      [plainString, log],
    ] as const) {
      const content = packedFormsFor(counter, 'read_cut_result').tool(source, 800).content as string;
      const marker = readerMarker(content);
      expect(marker.args).toEqual({ toolCallId: source.toolCallId, offset: marker.from });
      expect(content.slice(0, marker.at).replace(/\n$/, '')).toBe(original.slice(0, marker.from).replace(/\n$/, ''));
      expect(content.slice(marker.end).replace(/^\n/, '')).toBe(original.slice(marker.to));
      expect(createTokenCounter().countText(content)).toBeLessThanOrEqual(800);
    }
  });

  it('falls back to the plain marker alone when the cap cannot hold the reader\'s', () => {
    const content = packedFormsFor(createTokenCounter(), 'read_cut_result').tool(message, 30).content;
    expect(content).toBe(`[... ${log.length} characters cut from the middle of this tool result ...]`);
  });
});
