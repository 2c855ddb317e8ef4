/**
 * Packing for reasoning bound to its prefix (`boundReasoning`): evictions planned at
 * calls with no bound step under way, nothing sent changed while one is, and a forced
 * change reported (`boundReasoningCut`).
 */
import { describe, expect, it } from 'vitest';
import { episode, step, user, words } from '../../../../test/support/transcripts.js';
import type { Message } from '../message/message.js';
import { createTokenCounter } from '../tokens/token-counter.js';
import { continuesBoundStep } from './bound-reasoning.js';
import { packContext } from './pack-context.js';
import type { PackOptions, PackResult } from './pack-types.js';

const tokenizer = createTokenCounter();

/** Past episodes worth about `tokens`, then a new user message. */
function history(episodes: number): Message[] {
  const messages: Message[] = [];
  for (let index = 0; index < episodes; index += 1) messages.push(...episode(`question ${index}`, 2, 120, index + 1));
  return messages;
}

function pack(messages: Message[], options: Partial<PackOptions> & { budget: number }): PackResult {
  return packContext({ messages, tokenizer, ...options });
}

describe('bound reasoning', () => {
  it('knows when a step with reasoning waits for its results', () => {
    const turn = [user('go'), ...step('think', [{ name: 'ls', result: 'a' }])];
    expect(continuesBoundStep(turn)).toBe(true);
    expect(continuesBoundStep([...turn, user('next')])).toBe(false);
    expect(continuesBoundStep([user('go'), { role: 'assistant', content: [{ type: 'text', text: 'hi' }] }])).toBe(false);
  });

  it('evicts at a user turn once the room left is less than the episode is foreseen to need, not only above the budget', () => {
    const messages = [...history(12), user(`now ${words(20, 3)}`)];
    const whole = pack(messages, { budget: 1_000_000 }).stats.tokens.total;
    // The whole history is at 95% of the budget: no eviction without binding, one with it
    // (the 5% left is less than twice an earlier episode; bound-room.test.ts has the case under that trigger).
    const budget = Math.ceil(whole / 0.95);
    expect(pack(messages, { budget }).stats.evictedNow).toBe(false);
    const planned = pack(messages, { budget, boundReasoning: true });
    expect(planned.stats.evictedNow).toBe(true);
    expect(planned.stats.tokens.total).toBeLessThanOrEqual(budget * 0.5);
  });

  it('changes nothing sent while a bound step waits for its results, even above the floor mark or with a cold cache', () => {
    const start = [...history(12), user(`now ${words(20, 3)}`)];
    const whole = pack(start, { budget: 1_000_000 }).stats.tokens.total;
    const budget = Math.ceil(whole / 0.45);
    const options = { budget, boundReasoning: true, cacheTtlMs: 1_000 };
    const first = pack(start, { ...options, now: 0 });
    expect(first.stats.evictedNow).toBe(false);
    // The step takes the pack above the floor mark (75%), under the budget; the cache went cold meanwhile.
    const turn = [...start, ...step(`look ${words(Math.ceil(whole * 0.75), 9)}`, [{ name: 'get_log', result: words(300, 4) }])];
    const second = pack(turn, { ...options, now: 60_000, state: first.state });
    expect(second.stats.tokens.total).toBeGreaterThan(budget * 0.75);
    expect(second.stats.evictedNow).toBe(false);
    expect(second.stats.boundReasoningCut).toBeUndefined();
    expect(second.messages.slice(0, first.messages.length)).toEqual(first.messages);
    // Without binding the cold cache prunes the history there.
    expect(pack(turn, { budget, cacheTtlMs: 1_000, now: 60_000, state: first.state }).stats.evictedNow).toBe(true);
  });

  it('reports a change the budget forced while a bound step waits, with what appending would have taken', () => {
    const start = [...history(12), user(`now ${words(20, 3)}`)];
    const whole = pack(start, { budget: 1_000_000 }).stats.tokens.total;
    const budget = Math.ceil(whole / 0.45);
    const first = pack(start, { budget, boundReasoning: true });
    // The step's own reasoning (never dropped: it is the latest) takes the pack over the budget.
    const turn = [...start, ...step(`look ${words(Math.ceil(whole * 1.4), 9)}`, [{ name: 'get_log', result: 'ok' }])];
    const second = pack(turn, { budget, boundReasoning: true, state: first.state });
    expect(second.stats.evictedNow).toBe(true);
    expect(second.stats.boundReasoningCut).toBe(true);
    expect(second.stats.boundAppendTokens).toBeGreaterThan(budget);
    expect(second.stats.boundAppendTokens).toBeGreaterThan(first.stats.tokens.total + whole * 1.4);
  });

  it('shortens a bound step\'s new results before it evicts anything sent', () => {
    const start = [...history(12), user(`now ${words(20, 3)}`)];
    const whole = pack(start, { budget: 1_000_000 }).stats.tokens.total;
    const budget = Math.ceil(whole / 0.45);
    const options = { budget, boundReasoning: true, toolResultCap: 200 };
    const first = pack(start, options);
    expect(first.stats.evictedNow).toBe(false);
    // At the current-episode cap (a quarter of the budget) the three results would take the pack over the budget.
    const results = [1, 2, 3].map((seed) => ({ name: 'get_log', result: words(Math.ceil(budget * 0.3), seed) }));
    const turn = [...start, ...step(`look ${words(50, 9)}`, results)];
    const second = pack(turn, { ...options, state: first.state });
    expect(second.stats.evictedNow).toBe(false);
    expect(second.stats.boundReasoningCut).toBeUndefined();
    expect(second.messages.slice(0, first.messages.length)).toEqual(first.messages);
    expect(second.state.current?.resultsShrunkAt).toEqual([turn.length - 3, turn.length - 2, turn.length - 1]);
  });

  it('keeps the summary it sent while a bound step waits, shortening the step\'s new results instead', () => {
    const messages: Message[] = [
      ...history(4),
      { role: 'summary', content: `Episodes 0 to 3: ${words(900, 5)}`, episodes: { from: 0, to: 4 } },
      user(`now ${words(20, 3)}`),
    ];
    const budget = 2_000;
    // Every past episode evicted, the summary sent in their place.
    const state = { version: 1 as const, evictedEpisodes: 4, head: { start: 0, end: 0 }, summarized: { from: 0, to: 4 } };
    const first = pack(messages, { budget, boundReasoning: true, state });
    expect(first.stats.tokens.summary).toBeGreaterThan(0);
    // Whole (at the current-episode cap) the step's three results leave no room for the summary.
    const results = [1, 2, 3].map((seed) => ({ name: 'get_log', result: words(3_000, seed) }));
    const turn = [...messages, ...step(`look ${words(60, 9)}`, results)];
    const second = pack(turn, { budget, boundReasoning: true, state: first.state });
    expect(second.stats.boundReasoningCut).toBeUndefined();
    expect(second.stats.tokens.summary).toBe(first.stats.tokens.summary);
    expect(second.messages.slice(0, first.messages.length)).toEqual(first.messages);
  });

  it('sends no summary line that arrived while a bound step waits', () => {
    const messages: Message[] = [...history(4), user(`now ${words(20, 3)}`)];
    const budget = 4_000;
    const state = { version: 1 as const, evictedEpisodes: 4, head: { start: 0, end: 0 } };
    const first = pack(messages, { budget, boundReasoning: true, state });
    expect(first.stats.tokens.summary).toBe(0);
    // The summarizer's line lands while the step waits for its result.
    const line: Message = { role: 'summary', content: `Episodes 0 to 3: ${words(100, 5)}`, episodes: { from: 0, to: 4 } };
    const turn = [...messages, line, ...step(`look ${words(60, 9)}`, [{ name: 'get_log', result: 'ok' }])];
    const second = pack(turn, { budget, boundReasoning: true, state: first.state });
    expect(second.stats.tokens.summary).toBe(0);
    expect(second.stats.boundReasoningCut).toBeUndefined();
    expect(second.messages.slice(0, first.messages.length)).toEqual(first.messages);
    // The next user turn sends it.
    const next = [...turn, { role: 'assistant' as const, content: [{ type: 'text' as const, text: 'done' }] }, user('more')];
    expect(pack(next, { budget, boundReasoning: true, state: second.state }).stats.tokens.summary).toBeGreaterThan(0);
  });

  it('sends a bound step\'s new results at the floor cap where nothing larger fits, readable through the reader', () => {
    const start = [...history(12), user(`now ${words(20, 3)}`)];
    const whole = pack(start, { budget: 1_000_000 }).stats.tokens.total;
    const budget = Math.ceil(whole / 0.45);
    const options = { budget, boundReasoning: true, toolResultCap: 400, resultReader: 'read_cut_result' };
    const first = pack(start, options);
    // The step's reasoning leaves less room than its result takes at the past-episode cap.
    const thinking = words(Math.ceil(budget - first.stats.tokens.total - 300), 9);
    const turn = [...start, ...step(`look ${thinking}`, [{ name: 'get_log', result: words(5_000, 4) }])];
    const second = pack(turn, { ...options, state: first.state });
    expect(second.stats.boundReasoningCut).toBeUndefined();
    expect(second.messages.slice(0, first.messages.length)).toEqual(first.messages);
    expect(second.state.current?.resultsFloorAt).toEqual([turn.length - 1]);
    const sent = second.messages.at(-1);
    const text = sent?.role === 'tool' && typeof sent.content === 'string' ? sent.content : '';
    expect(text).toContain('to read them call read_cut_result');
    expect(tokenizer.countText(text)).toBeLessThanOrEqual(96);
    // The next step finds it in the form it was sent in.
    const next = [...turn, ...step(`then ${words(5, 11)}`, [{ name: 'ls', result: 'a' }])];
    const third = pack(next, { ...options, state: second.state });
    expect(third.messages.slice(0, second.messages.length)).toEqual(second.messages);
  });

  it('shortens a bound step\'s new results when first sent, past the low-water mark, and sends them so after', () => {
    const start = [...history(12), user(`now ${words(20, 3)}`)];
    const whole = pack(start, { budget: 1_000_000 }).stats.tokens.total;
    const budget = Math.ceil(whole / 0.6);
    const options = { budget, boundReasoning: true, toolResultCap: 200 };
    const first = pack(start, options);
    // A step whose one result would take the pack past the low-water mark (not past the budget).
    const turn = [...start, ...step(`look ${words(50, 9)}`, [{ name: 'get_log', result: words(Math.ceil(whole * 0.2), 4) }])];
    const second = pack(turn, { ...options, state: first.state });
    expect(second.stats.boundReasoningCut).toBeUndefined();
    expect(second.messages.slice(0, first.messages.length)).toEqual(first.messages);
    const sent = second.messages.at(-1);
    expect(sent?.role === 'tool' && typeof sent.content === 'string' ? sent.content : '').toMatch(/characters cut|cut/);
    expect(second.state.current?.resultsShrunkAt).toEqual([turn.length - 1]);
    // The next step finds the result in the form it was sent in.
    const next = [...turn, ...step(`then ${words(20, 11)}`, [{ name: 'ls', result: 'a' }])];
    const third = pack(next, { ...options, state: second.state });
    expect(third.messages.slice(0, second.messages.length)).toEqual(second.messages);
    // Without binding the same result goes whole.
    const unbound = pack(turn, { budget, toolResultCap: 200, state: pack(start, { budget, toolResultCap: 200 }).state });
    expect(unbound.messages.at(-1)).toEqual(turn.at(-1));
  });
});
