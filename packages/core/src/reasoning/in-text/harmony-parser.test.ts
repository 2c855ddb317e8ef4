import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createHarmonyParser, type HarmonyPiece, parseHarmonyHeader } from './harmony-parser.js';
import { HARMONY_SERVICE_TOKENS } from './markers.js';
import { normalizePieces, type StreamSplitter } from './stream-splitter.js';

/** `<|constrain|>` and `<|endoftext|>` are the longest tokens: 13 characters. */
const LONGEST_TOKEN = Math.max(...HARMONY_SERVICE_TOKENS.map((token) => token.length));

function expectedHoldBack(seen: string): number {
  for (let length = Math.min(LONGEST_TOKEN - 1, seen.length); length > 0; length -= 1) {
    const suffix = seen.slice(seen.length - length);
    if (HARMONY_SERVICE_TOKENS.some((token) => token.length > length && token.startsWith(suffix))) return length;
  }
  return 0;
}

/** Feeds the chunks, checking the hold-back after every push; returns every piece. */
function run(parser: StreamSplitter<HarmonyPiece>, chunks: readonly string[]): HarmonyPiece[] {
  const pieces: HarmonyPiece[] = [];
  let seen = '';
  for (const chunk of chunks) {
    pieces.push(...parser.push(chunk));
    seen += chunk;
    expect(parser.heldBack).toBe(expectedHoldBack(seen));
  }
  pieces.push(...parser.end());
  return pieces;
}

function cut(text: string, positions: readonly number[]): string[] {
  const sorted = [...new Set(positions.map((position) => position % (text.length + 1)))].sort((a, b) => a - b);
  return [...sorted, text.length].map((position, index) => text.slice(index === 0 ? 0 : sorted[index - 1], position));
}

const whole = (text: string) => normalizePieces(run(createHarmonyParser(), [text]));

// The cookbook's examples of model output.
const ANSWER =
  '<|channel|>analysis<|message|>User asks: "What is 2 + 2?" Simple arithmetic. Provide answer.<|end|>' +
  '<|start|>assistant<|channel|>final<|message|>2 + 2 = 4.<|return|>';
const TOOL_CALL =
  '<|channel|>analysis<|message|>Need to use function get_weather.<|end|>' +
  '<|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"location":"San Francisco"}<|call|>';

describe('createHarmonyParser', () => {
  it('maps analysis to reasoning and final to text', () => {
    expect(whole(ANSWER)).toEqual([
      { kind: 'reasoning', text: 'User asks: "What is 2 + 2?" Simple arithmetic. Provide answer.' },
      { kind: 'text', text: '2 + 2 = 4.' },
    ]);
  });

  it('keeps the recipient and content type of a tool call on the commentary channel', () => {
    expect(whole(TOOL_CALL)).toEqual([
      { kind: 'reasoning', text: 'Need to use function get_weather.' },
      {
        kind: 'commentary',
        text: '{"location":"San Francisco"}',
        recipient: 'functions.get_weather',
        contentType: 'json',
      },
    ]);
  });

  it('reads a recipient placed in the role part of the header', () => {
    expect(whole('<|start|>assistant to=functions.lookup<|channel|>commentary json<|message|>{}<|call|>')).toEqual([
      { kind: 'commentary', text: '{}', recipient: 'functions.lookup', contentType: 'json' },
    ]);
  });

  it('keeps separate tool calls separate, and a preamble without recipient', () => {
    const text =
      '<|start|>assistant<|channel|>commentary<|message|>Plan: two calls<|end|>' +
      '<|start|>assistant<|channel|>commentary to=functions.a<|constrain|>json<|message|>{"x":1}<|call|>' +
      '<|start|>assistant<|channel|>commentary to=functions.b<|constrain|>json<|message|>{"y":2}<|call|>';
    expect(whole(text)).toEqual([
      { kind: 'commentary', text: 'Plan: two calls' },
      { kind: 'commentary', text: '{"x":1}', recipient: 'functions.a', contentType: 'json' },
      { kind: 'commentary', text: '{"y":2}', recipient: 'functions.b', contentType: 'json' },
    ]);
  });

  it('removes stray service tokens from visible text', () => {
    expect(whole('Hello<|end|> wor<|message|>ld<|constrain|>!<|endoftext|>')).toEqual([
      { kind: 'text', text: 'Hello world!' },
    ]);
    expect(whole('<|channel|>final<|message|>a<|message|>b<|constrain|>c<|return|><|return|>')).toEqual([
      { kind: 'text', text: 'abc' },
    ]);
  });

  it('treats text outside any message as visible text, verbatim', () => {
    expect(whole('before <|channel|>analysis<|message|>r<|end|> after')).toEqual([
      { kind: 'text', text: 'before ' },
      { kind: 'reasoning', text: 'r' },
      { kind: 'text', text: ' after' },
    ]);
  });

  it('closes a message left without terminator at the next header', () => {
    expect(whole('<|channel|>analysis<|message|>think<|start|>assistant<|channel|>final<|message|>done')).toEqual([
      { kind: 'reasoning', text: 'think' },
      { kind: 'text', text: 'done' },
    ]);
    expect(whole('<|channel|>analysis<|message|>think<|channel|>final<|message|>done')).toEqual([
      { kind: 'reasoning', text: 'think' },
      { kind: 'text', text: 'done' },
    ]);
  });

  it('hides unknown channels and shows messages without a channel', () => {
    expect(
      whole('<|start|>assistant<|channel|>scratch<|message|>x<|end|><|start|>assistant<|message|>y<|end|>'),
    ).toEqual([
      { kind: 'reasoning', text: 'x' },
      { kind: 'text', text: 'y' },
    ]);
  });

  it('drops an unfinished or abandoned header', () => {
    expect(whole('a<|start|>assistant<|channel|>fin')).toEqual([{ kind: 'text', text: 'a' }]);
    expect(whole('<|start|>assistant<|channel|>final<|end|>b')).toEqual([{ kind: 'text', text: 'b' }]);
  });

  it('gives the same pieces when the stream is cut at every position, and one character at a time', () => {
    const expected = whole(TOOL_CALL);
    for (let position = 0; position <= TOOL_CALL.length; position += 1) {
      const chunks = [TOOL_CALL.slice(0, position), TOOL_CALL.slice(position)];
      expect(normalizePieces(run(createHarmonyParser(), chunks))).toEqual(expected);
    }
    expect(normalizePieces(run(createHarmonyParser(), [...TOOL_CALL]))).toEqual(expected);
  });

  it('emits content at once, holding back only a possible token start', () => {
    const parser = createHarmonyParser();
    expect(parser.push('<|channel|>final<|message|>x <| y <|ret')).toEqual([{ kind: 'text', text: 'x <| y ' }]);
    expect(parser.heldBack).toBe(5);
    expect(parser.push('urn|>')).toEqual([]);
    expect(parser.end()).toEqual([]);
  });

  it('parses headers', () => {
    expect(parseHarmonyHeader({ role: 'assistant', channel: 'analysis to=python code', constrain: '' })).toEqual({
      kind: 'reasoning',
      recipient: 'python',
      contentType: 'code',
    });
    expect(parseHarmonyHeader({ role: 'assistant', channel: '', constrain: '' })).toEqual({ kind: 'text' });
  });
});

/** A Harmony message as the model would write it, and the piece it should give. */
const message = fc.record({
  channel: fc.constantFrom('analysis', 'final', 'commentary'),
  recipient: fc.option(fc.constantFrom('functions.get_weather', 'browser.search', 'python'), { nil: undefined }),
  constrain: fc.boolean(),
  content: fc.string({ unit: 'grapheme-ascii', maxLength: 20 }),
  terminator: fc.constantFrom('<|end|>', '<|return|>', '<|call|>'),
  withStart: fc.boolean(),
});
type Generated = typeof message extends fc.Arbitrary<infer T> ? T : never;

function render(item: Generated): string {
  const to = item.recipient ? ` to=${item.recipient}` : '';
  const constrain = item.constrain ? '<|constrain|>json' : '';
  const start = item.withStart ? '<|start|>assistant' : '';
  return `${start}<|channel|>${item.channel}${to} ${constrain}<|message|>${item.content}${item.terminator}`;
}

function expectedPiece(item: Generated): HarmonyPiece {
  const kinds = { analysis: 'reasoning', final: 'text', commentary: 'commentary' } as const;
  const piece: HarmonyPiece = { kind: kinds[item.channel], text: item.content };
  if (item.recipient) piece.recipient = item.recipient;
  if (item.constrain) piece.contentType = 'json';
  return piece;
}

const tokenFragment = fc.constantFrom(
  ...HARMONY_SERVICE_TOKENS,
  '<|',
  '<|sta',
  '<|end',
  '|>',
  '<',
  'analysis',
  'final',
);
const cuts = fc.array(fc.nat(), { maxLength: 40 });

describe('createHarmonyParser properties', () => {
  it('gives the same normalised pieces for every way of cutting the stream', () => {
    const fragment = fc.oneof(tokenFragment, fc.string({ unit: 'grapheme-ascii', maxLength: 12 }), fc.string());
    fc.assert(
      fc.property(fc.array(fragment, { maxLength: 30 }), cuts, (fragments, positions) => {
        const text = fragments.join('');
        expect(normalizePieces(run(createHarmonyParser(), cut(text, positions)))).toEqual(whole(text));
      }),
      { numRuns: 400 },
    );
  });

  it('recovers every message of a rendered conversation', () => {
    fc.assert(
      fc.property(fc.array(message, { maxLength: 8 }), cuts, (messages, positions) => {
        const expected = normalizePieces(messages.map(expectedPiece));
        fc.pre(expected.every((piece) => !HARMONY_SERVICE_TOKENS.some((token) => piece.text.includes(token))));
        const text = messages.map(render).join('');
        expect(normalizePieces(run(createHarmonyParser(), cut(text, positions)))).toEqual(expected);
      }),
      { numRuns: 400 },
    );
  });
});
