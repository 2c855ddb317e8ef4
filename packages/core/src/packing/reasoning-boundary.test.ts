import { describe, expect, it } from 'vitest';
import { episode, step, user, words } from '../../../../test/support/transcripts.js';
import type { Message } from '../message/message.js';
import { packContext } from './pack-context.js';
import type { PackOptions, PackResult, ReasoningBoundary } from './pack-types.js';
import { defersBoundaryDrop, keptWithin, withKept } from './reasoning-boundary.js';
import { createTokenCounter } from '../tokens/token-counter.js';

const reasoningTexts = (messages: readonly Message[]) =>
  messages.flatMap((message) =>
    message.role === 'assistant' ? message.content.filter((part) => part.type === 'reasoning') : [],
  );

/** Reasoning parts of episodes before the last user message, as sent. */
function staleReasoning(messages: readonly Message[]): number {
  const lastUser = messages.findLastIndex((message) => message.role === 'user');
  return reasoningTexts(messages.slice(0, lastUser)).length;
}

const prices = { input: 1.25, cacheWrite: 1.25, cacheRead: 0.125 };
const stripping: ReasoningBoundary = { hiddenByProvider: true, billed: false, prices };
const billing: ReasoningBoundary = { hiddenByProvider: false, billed: true, prices };

/** Packs the transcript call by call (before every assistant message and at the end), carrying the state. */
function replay(messages: readonly Message[], options: Omit<PackOptions, 'messages'>, times?: number[]): PackResult[] {
  const tokenizer = createTokenCounter();
  const results: PackResult[] = [];
  let state: PackResult['state'] | undefined;
  const calls = messages.flatMap((message, index) => (message.role === 'assistant' ? [index] : [])).concat(messages.length);
  calls.forEach((end, call) => {
    const now = times?.[call];
    const packed = packContext({ ...options, messages: messages.slice(0, end), tokenizer, state, ...(now === undefined ? {} : { now }) });
    state = packed.state;
    results.push(packed);
  });
  return results;
}

const session = (): Message[] => [
  ...episode('first question', 4, 60, 1),
  ...episode('second question', 4, 60, 2),
  user('third question'),
  ...step('current thought', [{ name: 'grep', result: words(40, 9) }]),
];

describe('the boundary drop priced against the miss', () => {
  it('keeps the bytes where the provider hides them: the prefix survives the boundary', () => {
    const packs = replay(session(), { budget: 100_000, reasoningBoundary: stripping });
    const boundary = packs.findIndex((pack, index) => index > 0 && pack.state.current?.start !== packs[index - 1]?.state.current?.start);
    const before = packs[boundary - 1] as PackResult;
    const after = packs[boundary] as PackResult;
    // Every message of the call before is sent again byte for byte.
    expect(after.messages.slice(0, before.messages.length)).toEqual(before.messages);
    expect(after.stats.hiddenReasoningParts).toBeGreaterThan(0);
    expect(after.state.keptReasoning).toEqual([[0, 1]]);
  });

  it('drops at the boundary without it, breaking the prefix at the first past reasoning', () => {
    const packs = replay(session(), { budget: 100_000 });
    const last = packs.at(-1) as PackResult;
    expect(staleReasoning(last.messages)).toBe(0);
    expect(last.stats.hiddenReasoningParts).toBe(0);
  });

  it('never keeps stale reasoning the model would read, whatever keeping would save', () => {
    for (const pack of replay(session(), { budget: 100_000, reasoningBoundary: billing })) {
      expect(staleReasoning(pack.messages)).toBe(0);
    }
  });

  it('drops hidden but billed reasoning when keeping it costs more than the miss', () => {
    const cost = { reasoningTokens: 5_000, tokensAfter: 6_000, expectedCalls: 20 };
    const billedHidden = { hiddenByProvider: true, billed: true, prices };
    // Keep: 5,000 x 0.125 x 20 = 12,500; miss: 6,000 x (1.25 - 0.125) = 6,750.
    expect(defersBoundaryDrop(billedHidden, cost)).toBe(false);
    expect(defersBoundaryDrop(billedHidden, { ...cost, expectedCalls: 5 })).toBe(true);
    expect(defersBoundaryDrop(stripping, cost)).toBe(true);
    expect(defersBoundaryDrop(billing, cost)).toBe(false);
  });

  it('drops the kept bytes at the next eviction, except the head’s', () => {
    const messages: Message[] = [];
    for (let index = 0; index < 12; index += 1) messages.push(...episode(`question ${index}`, 3, 200, index + 1));
    messages.push(user('last question'));
    // A budget the whole session passes, with the same tool-result caps at both.
    const caps = { toolResultCap: 64, currentToolResultCap: 64 };
    const whole = packContext({ messages, budget: 12_000, reasoningBoundary: stripping, retention: 'all', ...caps }).stats.tokens.total;
    const budget = Math.floor(whole * 0.6);
    const packs = replay(messages, { budget, reasoningBoundary: stripping, ...caps });
    const at = packs.findIndex((pack) => pack.stats.evictedNow);
    expect(at).toBeGreaterThan(0);
    const evicting = packs[at] as PackResult;
    const span = (pack: PackResult) => (pack.state.keptReasoning ?? []).reduce((sum, [from, to]) => sum + to - from, 0);
    // Kept before the eviction, fewer after it.
    expect(span(packs[at - 1] as PackResult)).toBeGreaterThan(span(evicting));
    const head = evicting.state.head as { start: number; end: number };
    for (const [from, to] of evicting.state.keptReasoning ?? []) {
      expect(from).toBeGreaterThanOrEqual(head.start);
      expect(to).toBeLessThanOrEqual(head.end);
    }
    for (const pack of packs) expect(pack.stats.tokens.total).toBeLessThanOrEqual(budget);
  });

  it('keeps ranges merged and cut to the head', () => {
    expect(withKept([[0, 2]], 2, 4)).toEqual([[0, 4]]);
    expect(withKept([[0, 1]], 3, 4)).toEqual([[0, 1], [3, 4]]);
    expect(keptWithin([[0, 4], [6, 8]], 1, 7)).toEqual([[1, 4], [6, 7]]);
  });
});

describe('cache-TTL-aware eviction', () => {
  const long = (): Message[] => {
    const messages: Message[] = [];
    for (let index = 0; index < 8; index += 1) messages.push(...episode(`question ${index}`, 2, 150, index + 1));
    messages.push(user('after a break'));
    return messages;
  };

  it('prunes to the low-water mark once the cache lifetime lapsed, and not before', () => {
    const messages = long();
    const tokenizer = createTokenCounter();
    // Between the low-water mark and the budget (the tool-result caps are the same at both: 64 tokens).
    const caps = { tokenizer, toolResultCap: 64, currentToolResultCap: 64 };
    const budget = Math.floor(packContext({ messages, budget: 12_000, ...caps }).stats.tokens.total / 0.85);
    const warm = packContext({ messages: messages.slice(0, -1), budget, ...caps, cacheTtlMs: 300_000, now: 1_000 });
    expect(warm.state.packedAt).toBe(1_000);
    expect(warm.stats.tokens.total).toBeGreaterThan(budget * 0.6);
    const soon = packContext({ messages, budget, ...caps, state: warm.state, cacheTtlMs: 300_000, now: 200_000 });
    expect(soon.stats.coldCache).toBe(false);
    const later = packContext({ messages, budget, ...caps, state: warm.state, cacheTtlMs: 300_000, now: 400_000 });
    expect(later.stats.coldCache).toBe(true);
    expect(later.stats.tokens.total).toBeLessThanOrEqual(Math.floor(budget * 0.6));
    expect(later.stats.evictedEpisodes).toBeGreaterThan(soon.stats.evictedEpisodes);
  });

  it('drops kept reasoning when cold', () => {
    const messages = session();
    const options = { budget: 100_000, reasoningBoundary: stripping, cacheTtlMs: 1_000 };
    const first = packContext({ ...options, messages: messages.slice(0, -3), now: 0 });
    const warm = packContext({ ...options, messages, state: first.state, now: 500 });
    expect(warm.stats.hiddenReasoningParts).toBeGreaterThan(0);
    const cold = packContext({ ...options, messages, state: warm.state, now: 5_000 });
    expect(cold.stats.hiddenReasoningParts).toBe(0);
    expect(staleReasoning(cold.messages)).toBe(0);
  });

  it('packs the same bytes with warm and cold counters', () => {
    const messages = session();
    const options = { budget: 3_000, reasoningBoundary: stripping };
    const warmCounter = replay(messages, options).at(-1) as PackResult;
    const fresh = replay(messages, options).at(-1) as PackResult;
    expect(JSON.stringify(warmCounter.messages)).toBe(JSON.stringify(fresh.messages));
    const tokenizer = createTokenCounter();
    packContext({ messages, budget: 50_000, tokenizer });
    const state = () => (replay(messages.slice(0, -2), options).at(-1) as PackResult).state;
    const again = packContext({ ...options, messages, tokenizer, state: state() });
    const coldAgain = packContext({ ...options, messages, state: state() });
    expect(JSON.stringify(again.messages)).toBe(JSON.stringify(coldAgain.messages));
  });
});
