// Each one-file example in examples/basics runs offline and does what its comment
// says (the PostgreSQL one is in basics-postgres.test.ts, with a server).
import { describe, expect, it } from 'vitest';
import { runExample } from './run-example.js';

describe('examples/basics', () => {
  it('hello: one answer and the tokens it used', async () => {
    const [answer, tokens] = await runExample('hello');
    expect(answer).toBe('Hello! How can I help?');
    expect(tokens).toMatch(/^tokens in: [1-9]\d*, out: [1-9]\d*$/);
  });

  it('tools: a zod tool and a valibot tool run, and the answer uses their results', async () => {
    expect(await runExample('tools')).toEqual([
      'price -> 2.25',
      'multiply -> 6.75',
      'Three loaves of bread cost 6.75 euros. (3 model calls)',
    ]);
  });

  it('streaming: the call, its result, usage per model call, the reasoning and the answer', async () => {
    const lines = await runExample('streaming');
    expect(lines[0]).toBe('calling weather({"city":"Lisbon"})');
    expect(lines[1]).toBe('result: Lisbon: 14°C, light rain');
    expect(lines.filter((line) => /^model call \d done: \d+ tokens in/.test(line))).toHaveLength(2);
    expect(lines.at(-2)).toBe(`reasoning: ${'I should check the weather first.'.length} characters`);
    expect(lines.at(-1)).toBe('answer: Yes, take an umbrella: light rain in Lisbon.');
  });

  it('approvals: staging runs, production pauses, a reopened session approves and finishes', async () => {
    expect(await runExample('approvals')).toEqual([
      'paused {"env":"production"}',
      'finished Deployed to staging and production.',
    ]);
  });

  it('ai-sdk-packing: a generateText tool loop packed by the middleware, the long log cut to fit', async () => {
    const lines = await runExample('ai-sdk-packing');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^Why did run 1 fail\? The fixture server never opened port 4000\. \(2 steps; last call packed to \d+ of 20000 tokens\)$/);
    expect(lines[1]).toMatch(/^And run 3\? The fixture server never opened port 4000\. \(2 steps; last call packed to \d+ of 20000 tokens\)$/);
    // Unpacked, the two logs alone would be over the budget (about 16k tokens each); packed, a
    // call keeps the log under the current episode's cap (a quarter of the 20k budget).
    const packed = lines.map((line) => Number(/packed to (\d+)/.exec(line)?.[1]));
    expect(Math.max(...packed)).toBeLessThan(6000);
  });

  it('chat-handler: the mounted handler pauses on the refund, takes the approval, streams the answer, refuses a foreign page', async () => {
    expect(await runExample('chat-handler')).toEqual([
      'waiting: refund {"order":"A-17"}',
      'answer: Order A-17 is refunded.',
      'foreign origin: 403',
    ]);
  });

  it('structured-output: the bad answer is fed back and the second is returned typed', async () => {
    expect(await runExample('structured-output')).toEqual(['ACME 120.50 due 2026-12-31, after 2 model calls']);
  });
});
