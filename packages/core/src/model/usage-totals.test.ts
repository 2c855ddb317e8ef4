import { describe, expect, it } from 'vitest';
import { Agent } from '../agent/agent.js';
import { MemorySessionStore } from '../store/memory-session-store.js';
import type { Message } from '../message/message.js';
import { scriptedModel } from '../testing/scripted-model.js';
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

describe('session totals across a model switch', () => {
  const cheap = { input: 1, cachedInput: 0.1, output: 2 };
  const dear = { input: 10, cachedInput: 1, output: 20 };

  it('prices each call by the model that made it when the cost was recorded', () => {
    const messages: Message[] = [
      { role: 'user', content: 'q' },
      { role: 'assistant', content: [{ type: 'text', text: 'a' }], usage: { inputTokens: 1_000_000, outputTokens: 0, costUsd: 1 } },
      { role: 'assistant', content: [{ type: 'text', text: 'b' }], usage: { inputTokens: 1_000_000, outputTokens: 0 } },
    ];
    // The first call was recorded at the cheap model's price; the second is estimated with the current one.
    expect(usageTotalsOf(messages, dear).costUsd).toBeCloseTo(1 + 10);
    expect(usageTotalsOf(messages, undefined).costUsd).toBeUndefined();
  });

  it('records each call cost on the assistant message, so a later agent with other prices keeps it', async () => {
    const store = new MemorySessionStore();
    const first = new Agent({ model: scriptedModel({ steps: [{ text: 'one' }], profile: { pricing: cheap } }), context: { budget: 10_000 } });
    const session = await first.session({ store, id: 's' });
    await session.send('hi');
    const recorded = session.messages.find((message) => message.role === 'assistant')?.usage;
    expect(recorded?.costUsd).toBeCloseTo(estimateCost(recorded!, cheap));
    const second = new Agent({ model: scriptedModel({ steps: [{ text: 'two' }], profile: { pricing: dear } }), context: { budget: 10_000 } });
    const resumed = await second.session({ store, id: 's' });
    await resumed.send('again');
    const usages = resumed.messages.flatMap((message) => (message.role === 'assistant' && message.usage ? [message.usage] : []));
    expect(usages).toHaveLength(2);
    expect(resumed.totals.costUsd).toBeCloseTo(estimateCost(usages[0]!, cheap) + estimateCost(usages[1]!, dear));
  });

  it('adds the sub-sessions of agent tools, with their recorded cost or none', () => {
    const call: Message = { role: 'assistant', content: [], usage: { inputTokens: 10, outputTokens: 2, costUsd: 1 } };
    const result = (costUsd?: number): Message => ({
      role: 'tool',
      toolCallId: 'c',
      toolName: 'research',
      content: 'found',
      subSession: { id: 's.research.c', calls: 3, usage: { inputTokens: 100, outputTokens: 20, ...(costUsd === undefined ? {} : { costUsd }) } },
    });
    const priced = usageTotalsOf([call, result(2)]);
    expect(priced).toMatchObject({ calls: 4, inputTokens: 110, outputTokens: 22, costUsd: 3 });
    expect(usageTotalsOf([call, result()]).costUsd).toBeUndefined();
  });
});
