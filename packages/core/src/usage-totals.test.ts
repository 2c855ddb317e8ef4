import { describe, expect, it } from 'vitest';
import type { Message } from './message.js';
import { addUsage, emptyUsageTotals, estimateCost, usageTotalsOf } from './usage-totals.js';

const pricing = { input: 2, cachedInput: 0.5, output: 8 };

describe('usage totals', () => {
  it('bills cached reads at their rate and cache writes as input when they have no price', () => {
    const cost = estimateCost(
      { inputTokens: 1_000_000, cachedInputTokens: 600_000, cacheWriteTokens: 100_000, outputTokens: 10_000 },
      pricing,
    );
    expect(cost).toBeCloseTo(300_000 * 2e-6 + 600_000 * 0.5e-6 + 100_000 * 2e-6 + 10_000 * 8e-6, 12);
  });

  it('adds calls and leaves the cost undefined without pricing', () => {
    const once = addUsage(emptyUsageTotals(), { inputTokens: 10, outputTokens: 2, reasoningTokens: 1 });
    expect(addUsage(once, { inputTokens: 5, outputTokens: 1 })).toEqual({
      calls: 2,
      inputTokens: 15,
      cachedInputTokens: 0,
      cacheWriteTokens: 0,
      outputTokens: 3,
      reasoningTokens: 1,
      costUsd: undefined,
    });
  });

  it('sums the usage recorded on assistant messages of a transcript', () => {
    const messages: Message[] = [
      { role: 'user', content: 'q' },
      { role: 'assistant', content: [], usage: { inputTokens: 100, outputTokens: 10 } },
      { role: 'assistant', content: [] },
      { role: 'assistant', content: [], usage: { inputTokens: 200, cachedInputTokens: 100, outputTokens: 20 } },
    ];
    const totals = usageTotalsOf(messages, pricing);
    expect(totals).toMatchObject({ calls: 2, inputTokens: 300, cachedInputTokens: 100, outputTokens: 30 });
    expect(totals.costUsd).toBeCloseTo((200 * 2 + 100 * 0.5 + 30 * 8) / 1e6, 12);
  });
});
