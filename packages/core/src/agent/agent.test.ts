import { describe, expect, it } from 'vitest';
import { Agent } from './agent.js';
import type { AgentEvent } from '../loop/agent-events.js';
import { MemorySessionStore } from '../store/memory-session-store.js';
import type { ToolSpec } from '../message/message.js';
import { countContext } from '../packing/message-fits.js';
import { scriptedModel } from '../testing/scripted-model.js';
import { createTokenCounter } from '../tokens/token-counter.js';

describe('Agent', () => {
  it('takes its budget from the profile: context window minus max output', () => {
    const model = scriptedModel({ steps: [], profile: { contextWindow: 50_000, maxOutputTokens: 4_000 } });
    expect(new Agent({ model }).budget).toBe(46_000);
    expect(new Agent({ model, modelCalls: { maxOutputTokens: 1_000 } }).budget).toBe(49_000);
    expect(new Agent({ model, context: { budget: 7_000 } }).budget).toBe(7_000);
    const { profile: _profile, ...bare } = model;
    expect(() => new Agent({ model: bare })).toThrow(/needs a positive budget/);
  });

  it("warns hybrid-without-compaction, as an event at the first run, where context 'hybrid' can send nothing native", async () => {
    const model = scriptedModel({ steps: [{ text: 'ok' }], profile: { contextWindow: 128_000, maxOutputTokens: 16_384 } });
    const agent = new Agent({ model, context: { policy: 'hybrid' } });
    expect(agent.warnings).toEqual([expect.stringContaining("context 'hybrid'")]);
    const events: AgentEvent[] = [];
    await (await agent.session()).send('hi', { onEvent: (event) => events.push(event) });
    expect(events.filter((event) => event.type === 'warning')).toMatchObject([{ code: 'hybrid-without-compaction' }]);
    // With compaction to send, nothing to say.
    expect(new Agent({ model, context: { policy: 'hybrid', native: { compaction: {} } } }).warnings).toEqual([]);
  });

  it('warns native-option-not-sent for context.native options the policy does not send', () => {
    const profile = { contextWindow: 128_000, maxOutputTokens: 16_384, nativeContext: { compaction: {} } };
    const model = scriptedModel({ steps: [], profile });
    const native = { compaction: { threshold: 60_000 }, clearThinking: { keep: 1 } };
    expect(new Agent({ model, context: { policy: 'packer', native } }).warnings).toEqual([
      "context.native.compaction, context.native.clearThinking are not sent: context 'packer' sends nothing native; use the policy 'native' to send them, or leave them out.",
    ]);
    expect(new Agent({ model, context: { policy: 'hybrid', native } }).warnings).toEqual([
      "context.native.clearThinking is not sent: context 'hybrid' sends only compaction; use the policy 'native' to send it, or leave it out.",
    ]);
    expect(new Agent({ model, context: { policy: 'hybrid', native: { compaction: { threshold: 60_000 } } } }).warnings).toEqual([]);
    expect(new Agent({ model, context: { policy: 'native', native } }).warnings).toEqual([]);
  });

  it("warns hybrid-fallback-without-compaction once per session where a fallback model cannot compact as context 'hybrid' asks", async () => {
    const window = { contextWindow: 128_000, maxOutputTokens: 16_384 };
    const primary = scriptedModel({ steps: [{ text: 'one' }, { text: 'two' }, { text: 'three' }], profile: window });
    const plain = scriptedModel({ steps: [], model: { provider: 'other', id: 'plain' }, profile: window });
    const compacting = scriptedModel({
      steps: [],
      model: { provider: 'other', id: 'compacting' },
      profile: { ...window, nativeContext: { compaction: {} } },
    });
    const agent = new Agent({ model: primary, context: { policy: 'hybrid', native: { compaction: {} } }, modelCalls: { fallback: [compacting, plain] } });
    expect(agent.warnings).toEqual([expect.stringMatching(/fallback model other\/plain sends no server-side compaction/)]);
    const codes = (events: AgentEvent[]) => events.flatMap((event) => (event.type === 'warning' ? [event.code] : []));
    const session = await agent.session();
    const first: AgentEvent[] = [];
    const second: AgentEvent[] = [];
    await session.send('hi', { onEvent: (event) => first.push(event) });
    await session.send('again', { onEvent: (event) => second.push(event) });
    expect(codes(first)).toEqual(['hybrid-fallback-without-compaction']);
    expect(codes(second)).toEqual([]);
    // Another session says it once too.
    const other: AgentEvent[] = [];
    await (await agent.session()).send('hi', { onEvent: (event) => other.push(event) });
    expect(codes(other)).toEqual(['hybrid-fallback-without-compaction']);
    // Fallbacks that compact, or another policy: nothing to say.
    expect(new Agent({ model: primary, context: { policy: 'hybrid', native: { compaction: {} } }, modelCalls: { fallback: [compacting] } }).warnings).toEqual([]);
    expect(new Agent({ model: primary, context: { policy: 'packer' }, modelCalls: { fallback: [plain] } }).warnings).toEqual([]);
  });

  it('warns once, naming both numbers, on a budget above the context window, and keeps the budget', async () => {
    const model = scriptedModel({ steps: [{ text: 'ok' }], profile: { contextWindow: 128_000, maxOutputTokens: 16_384 } });
    const agent = new Agent({ model, context: { budget: 10_000_000 } });
    expect(agent.budget).toBe(10_000_000);
    expect(agent.warnings).toHaveLength(1);
    expect(agent.warnings[0]).toMatch(/budget 10,000,000 is above the context window .*\(128,000 tokens\).*at most 111,616/);
    const session = await agent.session();
    expect(session.warnings).toEqual(agent.warnings);
    const events: AgentEvent[] = [];
    await session.send('hi', { onEvent: (event) => events.push(event) });
    const warnings = events.filter((event) => event.type === 'warning');
    expect(warnings).toMatchObject([{ code: 'budget-above-context-window', message: agent.warnings[0] }]);
    expect(new Agent({ model, context: { budget: 128_000 } }).warnings).toEqual([]);
    expect(new Agent({ model }).warnings).toEqual([]);
  });

  it('rejects two tools with one name', () => {
    const spec: ToolSpec = { name: 'same', description: 'd', inputSchema: {} };
    const tool = { spec, execute: async () => ({ content: '' }) };
    expect(() => new Agent({ model: scriptedModel({ steps: [] }), tools: [tool, tool] })).toThrow(
      /two tools share the name "same"/,
    );
  });

  it('refuses a tool concurrency or timeout it cannot run with, instead of writing a broken transcript', () => {
    const model = scriptedModel({ steps: [] });
    const unset = Number(process.env.EPISODIC_UNSET_FOR_TEST); // NaN, as a missing setting parses
    expect(() => new Agent({ model, toolCalls: { maxConcurrency: unset } })).toThrow(/maxConcurrency must be a number of at least 1/);
    expect(() => new Agent({ model, toolCalls: { maxConcurrency: 0 } })).toThrow(/maxConcurrency/);
    expect(() => new Agent({ model, toolCalls: { timeoutMs: unset } })).toThrow(/toolCalls.timeoutMs must be a positive number/);
    expect(new Agent({ model, toolCalls: { maxConcurrency: 2, timeoutMs: Number.POSITIVE_INFINITY } }).budget).toBeGreaterThan(0);
  });

  it('calibrates its counter from reported input tokens so later packs stay under the real limit', async () => {
    const budget = 1_500;
    const raw = createTokenCounter(); // the provider's "real" tokenizer: 1.5x what o200k counts
    const real: number[] = [];
    const model = scriptedModel({
      steps: (request) => {
        const tokens = Math.ceil(countContext(raw, { ...request, messages: request.messages }) * 1.5);
        real.push(tokens);
        return { text: 'noted. '.repeat(20), usage: { inputTokens: tokens } };
      },
    });
    const agent = new Agent({ model, system: 'You take notes.', context: { budget } });
    const session = await agent.session();
    const packed: number[] = [];
    const onEvent = (event: AgentEvent) => {
      if (event.type === 'context-packed') packed.push(event.stats.tokens.total);
    };
    await session.send('remember: '.repeat(30), { onEvent });
    const firstRatio = real[0]! / packed[0]!;
    expect(firstRatio).toBeGreaterThan(1.45);
    expect(agent.tokenizer.calibration.factor).toBeGreaterThanOrEqual(1.5);
    for (let episode = 0; episode < 12; episode += 1)
      await session.send(`note ${episode}: ${'data '.repeat(60)}`, { onEvent });
    // the history outgrew the budget, so packs evicted; with calibration every real request fit
    expect(session.messages.length).toBeGreaterThan(20);
    expect(Math.max(...real.slice(1))).toBeLessThanOrEqual(budget);
    expect(Math.max(...packed)).toBeLessThanOrEqual(budget);
  });

  it('learns the same ratio when sessions of one agent call the model at the same time', async () => {
    const exact = createTokenCounter();
    // The provider counts 1.3x what o200k counts; session "slow" answers after "fast" has calibrated.
    const model = scriptedModel({
      steps: (request) => ({
        text: 'ok',
        delayMs: JSON.stringify(request.messages).includes('slow') ? 40 : 5,
        usage: { inputTokens: Math.round(countContext(exact, request) * 1.3) },
      }),
    });
    const agent = new Agent({ model, system: 'You answer briefly.', context: { budget: 50_000 } });
    const [slow, fast] = await Promise.all([agent.session(), agent.session()]);
    await Promise.all([slow.send(`slow ${'words '.repeat(400)}`), fast.send(`fast ${'words '.repeat(400)}`)]);
    // Both calls saw a ratio of 1.3: the factor is 1.3 plus the 5% margin, not compounded.
    expect(agent.tokenizer.calibration.factor).toBeCloseTo(1.3 * 1.05, 1);
  });

  it('keeps session totals of tokens, cached and reasoning tokens and cost, also after a reload', async () => {
    const model = scriptedModel({
      steps: [
        {
          reasoning: 'hmm',
          text: 'one',
          usage: { inputTokens: 1_000, cachedInputTokens: 400, outputTokens: 50, reasoningTokens: 20 },
        },
        {
          text: 'two',
          usage: { inputTokens: 2_000, cachedInputTokens: 1_000, cacheWriteTokens: 500, outputTokens: 100 },
        },
      ],
      profile: { pricing: { input: 3, cachedInput: 0.3, cacheWrite: 3.75, output: 15 } },
    });
    const store = new MemorySessionStore();
    const agent = new Agent({ model, store });
    const session = await agent.session({ id: 'totals' });
    await session.send('a');
    const second = await session.send('b');
    expect(second.usage).toMatchObject({ calls: 1, inputTokens: 2_000, cacheWriteTokens: 500 });
    const expectedCost = (600 * 3 + 400 * 0.3 + 50 * 15 + 500 * 3 + 1_000 * 0.3 + 500 * 3.75 + 100 * 15) / 1e6;
    expect(session.totals).toEqual({
      calls: 2,
      inputTokens: 3_000,
      cachedInputTokens: 1_400,
      cacheWriteTokens: 500,
      outputTokens: 150,
      reasoningTokens: 20,
      costUsd: expect.closeTo(expectedCost, 12),
    });
    expect((await agent.session({ id: 'totals' })).totals).toEqual(session.totals);
  });
});
