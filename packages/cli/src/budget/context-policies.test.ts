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
  it('compacts past 80% of the budget under hybrid and native, and never under packer', () => {
    const counter = createTokenCounter();
    const episodic = replayPolicy({ messages: long }, model, 'packer', counter);
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
    const olderEpisodic = replayPolicy({ messages: session }, at('gpt-5.5', 'stripped'), 'packer', counter);
    const newerEpisodic = replayPolicy({ messages: session }, at('gpt-5.6', 'billed'), 'packer', counter);
    expect(newerEpisodic.inputTokens).toBe(olderEpisodic.inputTokens);
  });

  it('bills bound thinking as kept while its prefix holds, and leaves out (unbilled) every block after a changed prefix', () => {
    const counter = createTokenCounter();
    const claude = { provider: 'anthropic', id: 'claude-sonnet-5-5' };
    const at = (budget: number, boundReasoning: boolean) => ({
      model: claude, budget, cache: 'anthropic' as const, minCacheableTokens: 0, pricing: { input: 2, cachedInput: 0.2, cacheWrite: 2.5, output: 10 }, pastReasoning: 'billed' as const, boundReasoning,
    });
    // Long episodes (12 steps, 60-word thoughts): at 3k the packer must evict inside an episode.
    const session = budgetSession({ episodes: 4, steps: 12, resultWords: 60, reasoningWords: 60, model: claude });
    const free = replayPolicy({ messages: session }, at(3_000, false), 'packer', counter);
    const bound = replayPolicy({ messages: session }, at(3_000, true), 'packer', counter);
    expect(bound.evictingCalls).toBeGreaterThan(0);
    expect(free.boundDropped).toBe(0);
    expect(bound.boundDropped).toBeGreaterThan(0);
    // A block left out is neither sent nor billed.
    expect(bound.inputTokens).toBeLessThan(free.inputTokens);
    // With room for everything nothing before a block changes: every block is kept, and billed like unbound thinking.
    for (const policy of ['packer', 'native'] as const) {
      const roomy = replayPolicy({ messages: session }, at(400_000, true), policy, counter);
      expect(roomy.boundDropped).toBe(0);
      expect(roomy.inputTokens).toBe(replayPolicy({ messages: session }, at(400_000, false), policy, counter).inputTokens);
    }
    // A provider compaction starts a new prefix: the answer after the summary keeps its thinking.
    const compacting = replayPolicy({ messages: session }, at(3_000, true), 'native', counter);
    expect(compacting.compactions).toBeGreaterThan(0);
    expect(compacting.boundDropped).toBe(0);
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
  it('compares the policies the provider supports, with the model stated; packer only elsewhere', async () => {
    const fixtures = await fixtureDir();
    try {
      const anthropicFile = await fixtures.write('anthropic.jsonl', transcriptText(long));
      const text = await runCli(['budget', anthropicFile, '--budgets', '3k']);
      expect(text.code).toBe(0);
      expect(text.stdout).toMatch(/Context policies \(anthropic\/claude-sonnet-4-6, budget 3,000; native policies modelled/);
      for (const policy of ['packer', 'native', 'hybrid']) expect(text.stdout).toMatch(new RegExp(`\\n  ${policy} +\\$`));
      const json = JSON.parse((await runCli(['budget', anthropicFile, '--budgets', '3k', '--json'])).stdout) as {
        contextPolicies: PolicyComparison;
      };
      expect(json.contextPolicies.runs.find((run) => run.policy === 'hybrid')?.compactions).toBeGreaterThan(0);
      // Sonnet 4.6 compacts on demand, as an agent on it does: its compaction requests are billed and named.
      expect(json.contextPolicies.runs.find((run) => run.policy === 'hybrid')?.onDemand?.requestTokens).toBeGreaterThan(0);
      expect(text.stdout).toContain('this model compacts on demand instead');
      expect(json.contextPolicies.runs.find((run) => run.policy === 'packer')?.onDemand).toBeUndefined();
      const other = budgetSession({ episodes: 2, steps: 2, resultWords: 50, model: { provider: 'deepseek', id: 'deepseek-chat' } });
      const otherFile = await fixtures.write('deepseek.jsonl', transcriptText(other));
      expect((await runCli(['budget', otherFile, '--budgets', '8k'])).stdout).toContain('packer only');
    } finally {
      await fixtures.cleanup();
    }
  });

  it('prices a gpt-5.6 session with its earlier turns\' reasoning billed, and a bound-thinking session with its kept thinking', async () => {
    const fixtures = await fixtureDir();
    type Budget = { model: { pastReasoning: string; reasoningBound: boolean }; contextPolicies: PolicyComparison };
    const budget = async (file: string, ...more: string[]) =>
      JSON.parse((await runCli(['budget', file, '--budgets', '3k', '--json', ...more])).stdout) as Budget;
    const run = (json: Budget, policy: string) => json.contextPolicies.runs.find((entry) => entry.policy === policy)!;
    try {
      const openai = (id: string) => ({ provider: 'openai', id });
      const gpt = await fixtures.write('gpt.jsonl', transcriptText(budgetSession({ episodes: 6, steps: 2, resultWords: 40, model: openai('gpt-5.6') })));
      const newer = await budget(gpt);
      const older = await budget(gpt, '--model', 'openai/gpt-5.5');
      expect([newer.model.pastReasoning, older.model.pastReasoning]).toEqual(['billed', 'stripped']);
      // native sends every reasoning item back: 5.6 renders and bills the earlier turns', 5.5 strips them.
      expect(run(newer, 'native').inputTokens).toBeGreaterThan(run(older, 'native').inputTokens);

      const claude = { provider: 'anthropic', id: 'claude-sonnet-5-5' };
      // Episodes whose thinking alone is over the 3k budget (their least form, every result cut
      // to a few lines, is too): the packer, which plans around bound steps, cannot keep every block.
      const session = budgetSession({ episodes: 4, steps: 12, resultWords: 300, reasoningWords: 250, model: claude });
      const boundFile = await fixtures.write('bound.jsonl', transcriptText(session));
      const bound = await budget(boundFile);
      expect(bound.model).toMatchObject({ pastReasoning: 'billed', reasoningBound: true });
      // The packer must change what it sent inside an episode: the blocks after the change are left out, unbilled.
      expect(run(bound, 'packer').boundDropped).toBeGreaterThan(0);
      const unbound = await budget(boundFile, '--model', 'anthropic/claude-sonnet-4-6');
      expect(unbound.model).toMatchObject({ pastReasoning: 'billed', reasoningBound: false });
      expect(run(unbound, 'packer').boundDropped).toBe(0);
      const text = await runCli(['budget', boundFile, '--budgets', '3k']);
      expect(text.stdout).toContain('thinking is bound to its prefix');
    } finally {
      await fixtures.cleanup();
    }
  });
});
