/**
 * The room a bound episode is planned to need (bound-room.ts): a user turn leaves the room
 * the session's recent episodes foresee, never below the minimum share of history; a bound
 * step's new results give way to the room the rest of its episode needs; and a forced change
 * says why (`boundCutCause`).
 */
import { describe, expect, it } from 'vitest';
import { assistant, episode, step, text, user, words } from '../../../../test/support/transcripts.js';
import type { Message } from '../message/message.js';
import { createTokenCounter } from '../tokens/token-counter.js';
import { packContext } from './pack-context.js';
import type { PackOptions, PackResult } from './pack-types.js';

const tokenizer = createTokenCounter();

function pack(messages: Message[], options: Partial<PackOptions> & { budget: number }): PackResult {
  return packContext({ messages, tokenizer, boundReasoning: true, ...options });
}

/** Small past episodes: two steps each with short thinking and results. */
function history(episodes: number): Message[] {
  const messages: Message[] = [];
  for (let index = 0; index < episodes; index += 1) messages.push(...episode(`question ${index}`, 2, 120, index + 1));
  return messages;
}

/** A finished episode of `steps` steps, each thinking `thinking` words with a one-word result: its least form is all of it. */
function longEpisode(steps: number, thinking: number, seed = 50): Message[] {
  const messages: Message[] = [user(`long task ${seed}`)];
  for (let index = 0; index < steps; index += 1) messages.push(...step(`step ${index} ${words(thinking, seed + index)}`, [{ name: 'ls', result: 'ok' }]));
  messages.push(assistant([text('done')]));
  return messages;
}

const tokensOf = (messages: readonly Message[]) => messages.reduce((total, message) => total + tokenizer.countMessage(message), 0);

describe('bound room', () => {
  it('leaves a user turn the room the session\'s largest recent episode foresees, below the low-water mark', () => {
    const long = longEpisode(6, 350);
    const now = user(`now ${words(20, 3)}`);
    const messages = [...history(10), ...long, now];
    const budget = Math.ceil(pack(messages, { budget: 1_000_000 }).stats.tokens.total / 0.45);
    // Under the low-water mark: a session of small episodes keeps its history.
    expect(pack([...history(10), ...longEpisode(6, 20), now], { budget }).stats.evictedNow).toBe(false);
    expect(2 * tokensOf(long)).toBeLessThan(budget * 0.75);
    const planned = pack(messages, { budget });
    expect(planned.stats.evictedNow).toBe(true);
    // Room for twice the long episode (its least form: nothing in it can be shortened) beside what the turn sent.
    expect(budget - planned.stats.tokens.total).toBeGreaterThanOrEqual(2 * tokensOf(long) - tokenizer.countMessage(now));
    expect(planned.stats.tokens.history).toBeGreaterThan(0);
  });

  it('evicts at a user turn only when what is left under the budget is less than the room ahead (hysteresis)', () => {
    const now = user(`now ${words(20, 3)}`);
    const messages = [...history(12), now];
    const total = pack(messages, { budget: 1_000_000 }).stats.tokens.total;
    // Above the low-water mark, with room for twice the largest recent episode left: nothing is evicted,
    // so the cached prefix (and, on a bound model, every thinking block after it) stays.
    const roomy = Math.ceil(total / 0.6);
    expect(2 * tokensOf(history(1))).toBeLessThan(roomy - total);
    const kept = pack(messages, { budget: roomy });
    expect(kept.stats.evictedNow).toBe(false);
    expect(kept.stats.tokens.total).toBeGreaterThan(roomy * 0.5);
    // Too close to the budget for the episode foreseen: the turn evicts, down to the low-water mark.
    const tight = Math.ceil(total / 0.97);
    const evicted = pack(messages, { budget: tight });
    expect(evicted.stats.evictedNow).toBe(true);
    expect(evicted.stats.tokens.total).toBeLessThanOrEqual(tight * 0.5);
  });

  it('keeps at least a quarter of the budget for history however large the foreseen episode', () => {
    const long = longEpisode(8, 900);
    const messages = [...history(14), ...long, user(`now ${words(20, 3)}`)];
    const budget = Math.ceil(pack(messages, { budget: 1_000_000 }).stats.tokens.total / 0.45);
    expect(2 * tokensOf(long)).toBeGreaterThan(budget);
    const planned = pack(messages, { budget });
    expect(planned.stats.evictedNow).toBe(true);
    expect(planned.stats.tokens.total).toBeLessThanOrEqual(budget * 0.25);
    expect(planned.stats.tokens.total).toBeGreaterThan(budget * 0.2);
  });

  it('shortens a bound step\'s new results under the low-water mark where they would take the room the episode needs', () => {
    const budget = 12_000;
    const long = longEpisode(6, 700);
    const start = [...history(2), ...long, user(`now ${words(20, 3)}`)];
    const first = pack(start, { budget });
    expect(first.stats.evictedNow).toBe(false);
    // Whole, at the current-episode cap (a quarter of the budget), the result stays under the low-water mark.
    const turn = [...start, ...step(`look ${words(30, 9)}`, [{ name: 'get_log', result: words(6_000, 4) }])];
    const whole = first.stats.tokens.total + tokensOf(turn.slice(start.length, -1)) + budget / 4;
    expect(whole).toBeLessThan(budget * 0.5);
    // But it would leave less than twice the long episode's least form for the rest of this one.
    expect(budget - whole).toBeLessThan(2 * tokensOf(long) - tokensOf(turn.slice(start.length - 1, -1)) - 100);
    const second = pack(turn, { budget, state: first.state });
    expect(second.stats.boundReasoningCut).toBeUndefined();
    expect(second.messages.slice(0, first.messages.length)).toEqual(first.messages);
    const shortened = [...(second.state.current?.resultsShrunkAt ?? []), ...(second.state.current?.resultsFloorAt ?? [])];
    expect(shortened).toEqual([turn.length - 1]);
    expect(second.stats.tokens.total).toBeLessThan(first.stats.tokens.total + budget / 8);
  });

  it('says a forced change is the episode\'s own where its least form alone is over the budget', () => {
    const budget = 6_000;
    let messages: Message[] = [user(`now ${words(20, 3)}`)];
    let result = pack(messages, { budget });
    // Three steps thinking about 40% of the budget each: the third cannot be appended however the plan went.
    for (let index = 0; index < 3; index += 1) {
      messages = [...messages, ...step(`think ${words(Math.ceil(budget * 0.4), index + 20)}`, [{ name: 'ls', result: 'ok' }])];
      result = pack(messages, { budget, state: result.state });
    }
    expect(result.stats.boundReasoningCut).toBe(true);
    expect(result.stats.boundCutCause).toBe('episode');
    expect(result.stats.boundAppendTokens).toBeGreaterThan(budget);
  });

  it('says a forced change is the history\'s where the episode fits alone but not beside what its turn kept', () => {
    const budget = 8_000;
    const start = [...history(6), user(`now ${words(20, 3)}`)];
    let result = pack(start, { budget });
    expect(result.stats.tokens.history).toBeGreaterThan(budget * 0.2);
    let messages = start;
    for (let index = 0; index < 4; index += 1) {
      messages = [...messages, ...step(`think ${words(Math.ceil(budget * 0.2), index + 20)}`, [{ name: 'ls', result: 'ok' }])];
      result = pack(messages, { budget, state: result.state });
      if (result.stats.boundReasoningCut) break;
    }
    expect(result.stats.boundReasoningCut).toBe(true);
    expect(result.stats.boundCutCause).toBe('history');
  });

  it('says a forced change is the results\' where the episode fits beside its history and earlier results took the room', () => {
    const budget = 10_000;
    const start = [user(`now ${words(20, 3)}`)];
    const first = pack(start, { budget });
    // The first step's result goes at the current-episode cap: nothing foresaw a long step after it.
    const turn = [...start, ...step(`look ${words(10, 9)}`, [{ name: 'get_log', result: words(5_000, 4) }])];
    const second = pack(turn, { budget, state: first.state });
    expect(second.stats.tokens.total).toBeGreaterThan(budget * 0.2);
    const next = [...turn, ...step(`think ${words(Math.ceil(budget * 0.8), 21)}`, [{ name: 'ls', result: 'ok' }])];
    const third = pack(next, { budget, state: second.state });
    expect(third.stats.boundReasoningCut).toBe(true);
    expect(third.stats.boundCutCause).toBe('results');
  });
});
