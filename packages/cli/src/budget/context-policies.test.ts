import { createTokenCounter } from '@episodic/core';
import { describe, expect, it } from 'vitest';
import { runCli, fixtureDir, transcriptText } from '../testing/cli-harness.js';
import { budgetSession } from '../testing/budget-sessions.js';
import { replayPolicy, summaryTokens } from './context-policies.js';
import type { PolicyComparison } from './policy-comparison.js';

const anthropic = { provider: 'anthropic', id: 'claude-sonnet-4-6' };
const pricing = { input: 3, cachedInput: 0.3, cacheWrite: 3.75, output: 15 };
const model = { model: anthropic, budget: 3_000, cache: 'anthropic' as const, minCacheableTokens: 1024, pricing };
// Long enough to pass 80% of a 3k budget several times (the budget tests evict at 3k).
// Results under both tool-result caps at 3k (so the caps do not decide what is sent).
const long = budgetSession({ episodes: 14, steps: 6, resultWords: 80, model: anthropic });

describe('replayPolicy', () => {
  it('compacts past 80% of the budget under hybrid and native, and never under episodic', () => {
    const counter = createTokenCounter();
    const episodic = replayPolicy({ messages: long }, model, 'episodic', counter);
    const hybrid = replayPolicy({ messages: long }, model, 'hybrid', counter);
    expect(episodic.compactions).toBe(0);
    expect(episodic.evictingCalls).toBeGreaterThan(0);
    expect(hybrid.compactions).toBeGreaterThan(0);
    // Each compaction replaced more than 80% of the budget by a 500-token summary.
    expect(hybrid.compactedTokens).toBeGreaterThanOrEqual(hybrid.compactions * (2_400 - 500));
    expect(hybrid.calls).toBe(episodic.calls);
    // After a compaction the history before it is neither sent nor billed again.
    expect(hybrid.inputTokens).toBeLessThan(episodic.inputTokens);
  });

  it('bills earlier turns\' reasoning as each generation does: stripped before GPT-5.6, rendered and cached from it', () => {
    const counter = createTokenCounter();
    const openai = (id: string) => ({ provider: 'openai', id });
    const session = budgetSession({ episodes: 6, steps: 2, resultWords: 40, model: openai('gpt-5.6') });
    const at = (id: string, pastReasoning: 'stripped' | 'billed') => ({
      model: openai(id), budget: 100_000, cache: 'openai' as const, minCacheableTokens: 0, pricing: { input: 1.75, cachedInput: 0.175, output: 14 }, pastReasoning,
    });
    // native sends every reasoning part back: GPT-5.5 strips the earlier turns', GPT-5.6 reads and bills them.
    const older = replayPolicy({ messages: session }, at('gpt-5.5', 'stripped'), 'native', counter);
    const newer = replayPolicy({ messages: session }, at('gpt-5.6', 'billed'), 'native', counter);
    expect(newer.inputTokens).toBeGreaterThan(older.inputTokens);
    expect(newer.cost!).toBeGreaterThan(older.cost!);
    // The episode rule drops that reasoning at the user boundary: both generations are billed alike.
    const olderEpisodic = replayPolicy({ messages: session }, at('gpt-5.5', 'stripped'), 'episodic', counter);
    const newerEpisodic = replayPolicy({ messages: session }, at('gpt-5.6', 'billed'), 'episodic', counter);
    expect(newerEpisodic.inputTokens).toBe(olderEpisodic.inputTokens);
  });

  it('continues from a text checkpoint at the same compactions: no second pass, a summarizer call, its text sent in place', () => {
    const counter = createTokenCounter();
    const native = replayPolicy({ messages: long }, model, 'hybrid', counter);
    const text = replayPolicy({ messages: long }, model, 'hybrid', counter, 'text');
    expect(native.checkpoints).toBeUndefined();
    expect(text).toMatchObject({ checkpoints: 'text', calls: native.calls });
    expect(text.compactions).toBeGreaterThan(0);
    expect(native.checkpointCost).toBeGreaterThan(0);
    expect(text.summarizerTokens).toBeGreaterThan(0);
    expect(text.summarizerCost).toBeGreaterThan(0);
    expect(text.cost).toBeGreaterThan(text.summarizerCost!);
  });

  it('bounds a summary to 500..4,000 tokens at 1% of what it replaces', () => {
    expect([summaryTokens(10_000), summaryTokens(120_000), summaryTokens(900_000)]).toEqual([500, 1_200, 4_000]);
  });
});

describe('episodic budget: context policies', () => {
  it('compares the policies the provider supports, with the model stated; episodic only elsewhere', async () => {
    const fixtures = await fixtureDir();
    try {
      const anthropicFile = await fixtures.write('anthropic.jsonl', transcriptText(long));
      const text = await runCli(['budget', anthropicFile, '--budgets', '3k']);
      expect(text.code).toBe(0);
      expect(text.stdout).toMatch(/Context policies \(anthropic\/claude-sonnet-4-6, budget 3,000; native policies modelled/);
      for (const policy of ['episodic', 'native', 'hybrid']) expect(text.stdout).toMatch(new RegExp(`\\n  ${policy} +\\$`));
      const json = JSON.parse((await runCli(['budget', anthropicFile, '--budgets', '3k', '--json'])).stdout) as {
        contextPolicies: PolicyComparison;
      };
      expect(json.contextPolicies.runs.find((run) => run.policy === 'hybrid')?.compactions).toBeGreaterThan(0);
      const other = budgetSession({ episodes: 2, steps: 2, resultWords: 50, model: { provider: 'deepseek', id: 'deepseek-chat' } });
      const otherFile = await fixtures.write('deepseek.jsonl', transcriptText(other));
      expect((await runCli(['budget', otherFile, '--budgets', '8k'])).stdout).toContain('episodic only');
    } finally {
      await fixtures.cleanup();
    }
  });
});
