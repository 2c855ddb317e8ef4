/**
 * The first pack of a fresh counter, made by the byte bound without loading tiktoken,
 * must be the exact pack: the same messages, state and (counted when read) stats, over
 * random transcripts replayed call by call. A pack that does not fit by the bound is
 * made exactly, as before.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { words } from '../../../../test/support/transcripts.js';
import type { AssistantPart, Message, ToolSpec } from '../message/message.js';
import type { Retention } from '../message/retention.js';
import { checkMessageFits } from './message-fits.js';
import { packContext } from './pack-context.js';
import type { PackResult, PackState } from './pack-types.js';
import { Calibration } from '../tokens/calibration.js';
import { boundsOf, createTokenCounter } from '../tokens/token-counter.js';

const tools: ToolSpec[] = [{ name: 'probe', description: 'Reads a CI log', inputSchema: { type: 'object', properties: { n: { type: 'number' } } } }];

const episodes = fc.array(
  fc.record({
    user: fc.oneof(fc.integer({ min: 1, max: 30 }), fc.string({ unit: 'grapheme', maxLength: 40 })),
    steps: fc.array(
      fc.record({ reasoning: fc.integer({ min: 0, max: 60 }), results: fc.array(fc.integer({ min: 1, max: 400 }), { maxLength: 2 }) }),
      { maxLength: 3 },
    ),
  }),
  { minLength: 1, maxLength: 4 },
);

/** The transcript of the episodes and, for each call, the number of messages it packs. */
function transcript(spec: { user: number | string; steps: { reasoning: number; results: number[] }[] }[]) {
  const messages: Message[] = [];
  const calls: number[] = [];
  let seed = 1;
  let ids = 0;
  for (const episode of spec) {
    messages.push({ role: 'user', content: typeof episode.user === 'number' ? words(episode.user, seed++) : `${episode.user}?` });
    for (const step of episode.steps) {
      calls.push(messages.length);
      const parts: AssistantPart[] = [];
      if (step.reasoning) parts.push({ type: 'reasoning', text: words(step.reasoning, seed++), signature: `s${seed}` });
      const callIds = step.results.map(() => `call_${ids++}`);
      for (const id of callIds) parts.push({ type: 'tool-call', id, name: 'probe', args: { n: ids } });
      if (callIds.length === 0) parts.push({ type: 'text', text: words(5, seed++) });
      messages.push({ role: 'assistant', content: parts });
      step.results.forEach((size, index) => {
        messages.push({ role: 'tool', toolCallId: callIds[index] as string, toolName: 'probe', content: words(size, seed++) });
      });
    }
    calls.push(messages.length);
  }
  return { messages, calls };
}

/** A counter whose tokenizer is loaded, so it never packs by the bound. */
function loadedCounter(factor: number) {
  const counter = createTokenCounter({ calibration: new Calibration({ initial: factor }) });
  counter.countText('loaded');
  return counter;
}

const plain = (packed: PackResult) => ({ messages: packed.messages, state: packed.state, stats: { ...packed.stats } });

describe('packing by the byte bound before the tokenizer is loaded', () => {
  it('gives the exact pack, and leaves the tokenizer unloaded when it fits', () => {
    let byBound = 0;
    let exactly = 0;
    const property = fc.property(
      episodes,
      fc.constantFrom(400, 2_000, 20_000),
      fc.constantFrom(1, 1.3, 0.9),
      fc.constantFrom<Retention>('episode', 'tool-episodes', 'all', 'none'),
      fc.constantFrom(undefined, 120),
      (spec, budget, factor, retention, toolResultCap) => {
        const { messages, calls } = transcript(spec);
        let freshState: PackState | undefined;
        let loadedState: PackState | undefined;
        for (const end of calls) {
          const options = { messages: messages.slice(0, end), system: 'You debug CI.', tools, budget, retention, toolResultCap };
          const fresh = createTokenCounter({ calibration: new Calibration({ initial: factor }) });
          let packed: PackResult | undefined;
          let overflow: unknown;
          try {
            packed = packContext({ ...options, tokenizer: fresh, state: freshState });
          } catch (error) {
            overflow = error;
          }
          const unloaded = boundsOf(fresh) !== undefined;
          let expected: PackResult | undefined;
          try {
            expected = packContext({ ...options, tokenizer: loadedCounter(factor), state: loadedState });
          } catch (error) {
            expect(error).toEqual(overflow);
            return;
          }
          expect(overflow).toBeUndefined();
          if (unloaded) byBound += 1;
          else exactly += 1;
          expect(plain(packed as PackResult)).toEqual(plain(expected));
          freshState = packed?.state;
          loadedState = expected.state;
        }
      },
    );
    fc.assert(property, { numRuns: 60 });
    // Both kinds of pack were compared.
    expect(byBound).toBeGreaterThan(10);
    expect(exactly).toBeGreaterThan(10);
  });

  it('counts the stats when read, of the transcript and calibration as they were at the pack', () => {
    const messages: Message[] = [{ role: 'user', content: 'Why did the build fail?' }];
    const counter = createTokenCounter();
    const packed = packContext({ messages, system: 'You debug CI.', tools, budget: 100_000, tokenizer: counter });
    expect(boundsOf(counter)).toBeDefined(); // the tokenizer was not needed
    messages.push({ role: 'assistant', content: [{ type: 'text', text: words(400) }] });
    counter.calibration.observe(1_000, 4_000);
    const expected = packContext({ messages: messages.slice(0, 1), system: 'You debug CI.', tools, budget: 100_000, tokenizer: loadedCounter(1) });
    expect({ ...packed.stats }).toEqual({ ...expected.stats });
    expect(packed.stats.tokens.total).toBeLessThan(60);
  });

  it('loads the tokenizer for a pack that does not fit by the bound', () => {
    const counter = createTokenCounter();
    // 3,000 bytes in about 600 tokens: over the low-water mark of 2,000 by the bound, under it exactly.
    const messages: Message[] = [{ role: 'user', content: words(600) }];
    const packed = packContext({ messages, budget: 4_000, tokenizer: counter });
    expect(boundsOf(counter)).toBeUndefined();
    expect(packed.stats.tokens.total).toBeLessThan(2_000);
  });

  it('checks that a new message fits without the tokenizer when its bytes fit', () => {
    const counter = createTokenCounter();
    checkMessageFits({ role: 'user', content: 'Hi' }, { messages: [], system: 'Be terse.', budget: 1_000, tokenizer: counter });
    expect(boundsOf(counter)).toBeDefined();
    const long: Message = { role: 'user', content: words(300) };
    // Over by bytes, under exactly: counted, and accepted.
    checkMessageFits(long, { messages: [], budget: 1_000, tokenizer: counter });
    expect(boundsOf(counter)).toBeUndefined();
    expect(() => checkMessageFits({ role: 'user', content: words(2_000) }, { messages: [], budget: 1_000, tokenizer: counter })).toThrow(
      /alone takes/,
    );
  });
});
