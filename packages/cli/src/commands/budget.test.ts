/**
 * `episodic budget` run in-process on generated sessions: the table and the
 * recommendation, the --json shape and its sums, the replay against recorded usage
 * with the prefix inferred, the sweep, pricing options (and none), the progress bar,
 * and every bad input with exit code 1.
 */
import { readFile } from 'node:fs/promises';
import { Readable, Writable } from 'node:stream';
import { createTokenCounter, type Message } from '@episodic/core';
import { packContext } from '@episodic/core/packing';
import { toolResultCaps } from '@episodic/core/internal';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BudgetAnalysis } from '../budget/analyze-budgets.js';
import { BilledView } from '../budget/billed-view.js';
import { replayAsRecorded } from '../budget/recorded-replay.js';
import { run } from '../cli.js';
import { budgetSession, sessionModel } from '../testing/budget-sessions.js';
import { fixtureDir, malformedText, runCli, transcriptText } from '../testing/cli-harness.js';
import { formatCount } from '../text-table.js';

let fixtures: Awaited<ReturnType<typeof fixtureDir>>;
let plainFile: string;
let longFile: string;
const plain = budgetSession({ episodes: 4, steps: 3, resultWords: 400, system: 'You debug CI failures.' });
// Long enough that a 3k budget must evict past episodes.
const long = budgetSession({ episodes: 14, steps: 3, resultWords: 400, system: 'You debug CI failures.' });

beforeAll(async () => {
  fixtures = await fixtureDir();
  plainFile = await fixtures.write('plain.jsonl', transcriptText(plain));
  longFile = await fixtures.write('long.jsonl', transcriptText(long));
});
afterAll(async () => {
  await fixtures.cleanup();
});

async function analysisOf(argv: readonly string[]): Promise<BudgetAnalysis> {
  const result = await runCli(['budget', ...argv, '--json']);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as BudgetAnalysis;
}

describe('episodic budget: human output', () => {
  it('prints a table per retention with the recommendation under it, and no usage section without usage', async () => {
    const result = await runCli(['budget', plainFile, '--budgets', '32k,3k,8k', '--retention', 'episode,none']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const json = await analysisOf([plainFile, '--budgets', '3k,8k,32k', '--retention', 'episode,none']);
    const lines = result.stdout.split('\n');
    for (const retention of ['episode', 'none']) {
      const heading = lines.indexOf(`Retention ${retention}`);
      expect(heading).toBeGreaterThan(0);
      expect(lines[heading + 1]).toMatch(/^ *budget +calls +input tokens +cached share +cost \(USD\)/);
      // Budgets sorted ascending, one row each, with the --json figures.
      const runs = json.runs.filter((found) => found.retention === retention);
      runs.forEach((found, index) => {
        const cells = lines[heading + 2 + index]!.trim().split(/\s{2,}/);
        expect(cells[0]).toBe(formatCount(found.budget));
        expect(cells[2]).toBe(formatCount(found.inputTokens));
        expect(cells[7]).toBe(
          `${formatCount(found.reasoningKeptTokens)} / ${formatCount(found.reasoningDroppedTokens)}`,
        );
      });
      expect(lines[heading + 2 + runs.length]).toBe('');
    }
    expect(result.stdout).toContain('Model anthropic/claude-sonnet-4-5 (from the transcript)');
    expect(result.stdout).toMatch(/\nRecommendation: /);
    expect(result.stdout).not.toContain('Replayed against recorded input');
    expect(result.stdout).toMatch(/\nWhat every call starts with: [\d,]+ tokens \(system prompt \d+, tools 0, reply priming 3\)/);
  });

  it('recommends the cheapest run that keeps the current episode whole, over every retention', async () => {
    // Episodes of six steps with long reasoning: the current episode outgrows 3k, not 16k
    // (an eviction that leaves no past episode cuts it to the low-water mark, half the budget).
    const heavy = budgetSession({ episodes: 4, steps: 6, resultWords: 400, reasoningWords: 300, system: 'You debug CI failures.' });
    const heavyFile = await fixtures.write('heavy.jsonl', transcriptText(heavy));
    const json = await analysisOf([heavyFile, '--budgets', '3k,16k,32k']);
    expect(json.retentions).toEqual(['episode', 'tool-episodes', 'all']);
    const [small, middle] = json.runs;
    expect(small!.shortenedCalls).toBeGreaterThan(0);
    expect(middle!.shortenedCalls).toBe(0);
    const meeting = json.runs.filter((found) => found.wholeShare >= 0.99);
    const cheapest = Math.min(...meeting.map((found) => found.cost!.total));
    const best = json.recommendation.best!;
    expect(best.cost).toBe(cheapest);
    expect(json.recommendation.byRetention.map((entry) => entry.retention)).toEqual(['episode', 'tool-episodes', 'all']);
    const text = (await runCli(['budget', heavyFile, '--budgets', '3k,16k,32k'])).stdout;
    expect(text).toContain(
      `Recommendation: ${formatCount(best.budget)} tokens with retention ${best.retention}, the cheapest run that keeps ` +
        'the current episode whole in at least 99.0% of calls',
    );
    const cap = toolResultCaps({ budget: best.budget }).currentCap;
    expect(text).toContain(`At that budget the current episode's tool results are cut to ${formatCount(cap)} tokens each`);
    expect(text).toContain('No usage is recorded, so there is no bill to compare with.');
    const strict = await analysisOf([heavyFile, '--budgets', '3k', '--quality', '100%', '--retention', 'episode']);
    expect(strict.recommendation).toMatchObject({ bar: 1, best: null });
  });

  it('sweeps budgets from the smallest at which every call fits to the model window when none are asked', async () => {
    // The last call's current episode alone needs over 6,000 tokens.
    const wordy: Message[] = [
      ...plain,
      { role: 'user', content: `Explain: ${'word '.repeat(6000)}` },
      { role: 'assistant', content: [{ type: 'text', text: 'Done.' }], model: sessionModel },
    ];
    const file = await fixtures.write('wordy.jsonl', transcriptText(wordy));
    const json = await analysisOf([file, '--retention', 'episode']);
    expect(json.swept).toBe(true);
    expect(json.budgets.at(-1)).toBe(json.model.contextWindow);
    expect(json.budgets.length).toBeGreaterThanOrEqual(5);
    expect([...json.budgets].sort((a, b) => a - b)).toEqual(json.budgets);
    // The smallest budget is the first at which no call overflows, and not much more.
    expect(json.runs[0]!.overflowCalls).toBe(0);
    const below = await analysisOf([file, '--retention', 'episode', '--budgets', String(json.budgets[0]! - 1000)]);
    expect(below.runs[0]!.overflowCalls).toBeGreaterThan(0);
  });
});

describe('episodic budget --json', () => {
  it('sums every run from its calls and replays each call as a live session would', async () => {
    const json = await analysisOf([plainFile, '--budgets', '3k,32k', '--retention', 'episode,all']);
    expect(json.model.pastReasoning).toBe('stripped');
    expect(json.calls).toBe(plain.filter((message) => message.role === 'assistant').length);
    expect(json.runs.map((found) => [found.retention, found.budget])).toEqual([
      ['episode', 3000],
      ['episode', 32000],
      ['all', 3000],
      ['all', 32000],
    ]);
    expect(json.model).toMatchObject({
      provider: 'anthropic',
      id: 'claude-sonnet-4-5',
      from: 'transcript',
      cache: { style: 'anthropic-breakpoints', source: 'profile' },
    });
    for (const found of json.runs) {
      expect(found.perCall).toHaveLength(json.calls);
      const sum = (pick: (call: (typeof found.perCall)[number]) => number) =>
        found.perCall.reduce((total, call) => total + pick(call), 0);
      expect(found.inputTokens).toBe(sum((call) => call.tokens.total));
      expect(found.billedTokens).toBe(sum((call) => call.billedTokens));
      expect(found.cachedTokens).toBe(sum((call) => call.cachedTokens));
      expect(found.cost!.total).toBeCloseTo(
        sum((call) => call.cost!.total),
        12,
      );
      expect(found.largestCall?.tokens).toBe(Math.max(...found.perCall.map((call) => call.tokens.total)));
      for (const call of found.perCall) {
        expect(call.tokens.total).toBeLessThanOrEqual(found.budget);
        // Sonnet 4.5 drops reasoning of earlier turns before billing: never more billed than sent.
        expect(call.billedTokens).toBeLessThanOrEqual(call.tokens.total);
        expect(call.cachedTokens).toBeLessThanOrEqual(call.billedReusedTokens);
        // Anthropic-style prices: uncached at input, reads at cached, writes at cache-write.
        const expected = (call.uncachedTokens * 3 + call.cachedTokens * 0.3 + call.cacheWriteTokens * 3.75) / 1e6;
        expect(call.cost!.total).toBeCloseTo(expected, 12);
      }
    }
    // Retention all keeps reasoning the episode policy drops; the provider drops it again, so both bill the same.
    const episode32 = json.runs[1]!;
    const all32 = json.runs[3]!;
    expect(episode32.reasoningDroppedTokens).toBeGreaterThan(0);
    expect(all32.reasoningDroppedTokens).toBe(0);
    expect(all32.inputTokens).toBeGreaterThan(episode32.inputTokens);
    expect(all32.billedTokens).toBe(episode32.billedTokens);
  });

  it('matches packContext called call by call with the state carried', async () => {
    const json = await analysisOf([longFile, '--budgets', '3k']);
    const counter = createTokenCounter();
    let state: ReturnType<typeof packContext>['state'] | undefined;
    const expected: number[] = [];
    long.forEach((message, index) => {
      if (message.role !== 'assistant') return;
      const result = packContext({ messages: long.slice(0, index), budget: 3000, tokenizer: counter, state });
      state = result.state;
      expected.push(result.stats.tokens.total);
    });
    expect(json.runs[0]!.perCall.map((call) => call.tokens.total)).toEqual(expected);
    expect(json.runs[0]!.evictedEpisodes).toBeGreaterThan(0);
  });

  it('gives each budget the same figures whatever other budgets share the run', async () => {
    const alone = await analysisOf([plainFile, '--budgets', '3k']);
    const together = await analysisOf([plainFile, '--budgets', '32k,3k,8k', '--retention', 'all,episode']);
    const same = together.runs.find((found) => found.budget === 3000 && found.retention === 'episode')!;
    expect(same.perCall).toEqual(alone.runs[0]!.perCall);
  });

  it('explains every call that did not reuse the previous prompt', async () => {
    const json = await analysisOf([longFile, '--budgets', '3k']);
    const calls = json.runs[0]!.perCall;
    expect(calls[0]!.misses).toEqual(['first-call']);
    const boundaries = calls.filter((call) => call.boundary && call.call > 0 && !call.evictedNow);
    expect(boundaries.length).toBeGreaterThan(0);
    for (const call of boundaries) expect(call.misses).toContain('user-boundary');
    const evictions = calls.filter((call) => call.evictedNow);
    expect(evictions.length).toBeGreaterThan(0);
    for (const call of evictions) expect(call.misses[0]).toBe('eviction');
    for (const call of calls) {
      if (call.misses.length === 0) expect(call.cachedTokens).toBe(call.billedReusedTokens);
      if (call.misses.includes('below-minimum')) expect(call.cachedTokens).toBe(0);
    }
  });
});

describe('episodic budget: the replay against recorded usage', () => {
  /**
   * A session whose recorded input is what a provider with a 5,000-token system prompt
   * and tools (not in the transcript) and a tokenizer counting 1.2 times o200k would
   * report; call 7 is reported 30% over, as if something unseen was sent with it.
   */
  function recordedLike(): Message[] {
    const counter = createTokenCounter();
    const local = replayAsRecorded({
      messages: budgetSession({
        episodes: 4,
        steps: 3,
        resultWords: 400,
        usage: () => ({ inputTokens: 1, outputTokens: 1 }),
      }),
      counter,
      billing: new BilledView(counter, 'stripped'),
    }).map((call) => call.localTokens);
    return budgetSession({
      episodes: 4,
      steps: 3,
      resultWords: 400,
      usage: (call) => {
        const input = Math.round((5000 + 1.2 * local[call]!) * (call === 7 ? 1.3 : 1));
        return { inputTokens: input, cachedInputTokens: call === 0 ? 0 : Math.round(input * 0.8), outputTokens: 60 };
      },
    });
  }

  it('infers the missing prefix and the tokenizer scale, and flags the call that is off', async () => {
    const file = await fixtures.write('recorded.jsonl', transcriptText(recordedLike()));
    const json = await analysisOf([file, '--budgets', '16k,64k']);
    const inference = json.prefix.inference!;
    expect(inference.inferred).toBe(true);
    expect(inference.main!.factor).toBeCloseTo(1.2, 2);
    expect(Math.abs(inference.prefixTokens - 5000)).toBeLessThan(5);
    // The replays send a stand-in of the inferred size as their system prompt.
    expect(Math.abs(json.prefix.systemTokens - 5000)).toBeLessThan(10);
    const fidelity = json.fidelity!;
    expect(fidelity.calls).toHaveLength(json.calls);
    const flagged = fidelity.calls.filter((call) => Math.abs(call.gap) > 0.1);
    expect(flagged.map((call) => call.call)).toEqual([7]);
    expect(fidelity.worst!.call).toBe(7);
    expect(fidelity.withinShare).toBeCloseTo((json.calls - 1) / json.calls, 10);

    const text = (await runCli(['budget', file, '--budgets', '16k,64k'])).stdout;
    expect(text).toContain("their size is inferred from the first call's reported input: 5,0");
    expect(text).toContain('Local token counts are scaled by 1.20');
    expect(text).toContain(`${json.calls - 1} within 10%`);
    expect(text).toMatch(/Calls more than 10% off \(1, largest first\):\n.*\n.*\n +8 +16 +[\d,]+ +[\d,]+ +-23\.\d%/);
    expect(text).toMatch(/Against what the session was billed: \$[\d.]+ predicted .* billed \(the recorded usage at these prices\)/);
  });

  it('replays the context policies with the same prefix and scale as the tables, and says why their costs differ', async () => {
    // The report contradicted itself: the policies left out the inferred prefix and the scale
    // (411,120 input tokens at 64k beside 2,128,714 in the retention table).
    const file = await fixtures.write('recorded-policies.jsonl', transcriptText(recordedLike()));
    const result = await runCli(['budget', file, '--budgets', '16k,64k', '--model', 'anthropic/claude-sonnet-4-5', '--json']);
    const json = JSON.parse(result.stdout) as BudgetAnalysis & {
      contextPolicies: { budget: number; runs: { policy: string; inputTokens: number }[]; tableRun: { inputTokens: number } };
    };
    const row = json.runs.find((run) => run.retention === 'episode' && run.budget === 64_000)!;
    const episodic = json.contextPolicies.runs.find((run) => run.policy === 'packer')!;
    expect(json.contextPolicies.budget).toBe(64_000);
    expect(episodic.inputTokens).toBe(row.inputTokens);
    expect(json.contextPolicies.tableRun.inputTokens).toBe(row.inputTokens);

    const text = (await runCli(['budget', file, '--budgets', '16k,64k', '--model', 'anthropic/claude-sonnet-4-5'])).stdout;
    expect(text).toContain(`  packer `);
    expect(text).toContain(`input ${formatCount(row.inputTokens)} tokens`);
    expect(text).toContain(`The packer line replays the same calls as the retention table's "episode" row at 64,000`);
    expect(text).toContain('compare the policies with each other, and budgets and retentions in the tables');
  });

  it('takes the prefix as given when --system and --tools are passed, and still fits the scale', async () => {
    const file = await fixtures.write('recorded-given.jsonl', transcriptText(recordedLike()));
    const system = await fixtures.write('prompt.txt', 'You debug CI failures.');
    const json = await analysisOf([file, '--budgets', '16k', '--system', system]);
    expect(json.prefix.inference!.inferred).toBe(false);
    // The given prefix is taken as complete: only the scale is fitted (here it absorbs what the prompt lacks).
    expect(json.prefix.inference!.main!.prefixTokens).toBe(0);
    expect(json.prefix.systemTokens).toBeLessThan(40);
  });
});

describe('episodic budget: models and prices', () => {
  it('prices as --model, from a --pricing file that extends the built-in table', async () => {
    const pricing = await fixtures.write(
      'prices.json',
      JSON.stringify({ models: [{ provider: 'acme', pattern: 'acme-1.*', input: 10, cachedInput: 1, output: 20 }] }),
    );
    const json = await analysisOf([plainFile, '--budgets', '8k', '--model', 'acme/acme-1-large', '--pricing', pricing]);
    expect(json.model).toMatchObject({ provider: 'acme', id: 'acme-1-large', from: 'option', pricingSource: pricing });
    expect(json.model.otherModels).toEqual([`${sessionModel.provider}/${sessionModel.id}`]);
    // No profile and no assumption for this provider: nothing predicted cached.
    expect(json.model.cache).toEqual({ style: 'none', minCacheableTokens: 0, source: 'none' });
    expect(json.runs[0]!.cost!.total).toBeCloseTo((json.runs[0]!.billedTokens * 10) / 1e6, 12);
  });

  it('prices a bare --model id from the built-in table, with no cache writes on an OpenAI-style cache', async () => {
    // 64k: the results stay whole (under its 640-token cap), so calls pass the 1,024-token cache minimum.
    const json = await analysisOf([plainFile, '--budgets', '64k', '--model', 'gpt-5']);
    expect(json.model).toMatchObject({ provider: 'openai', id: 'gpt-5', cache: { style: 'openai-prefix' } });
    expect(json.model.pricing).toEqual({ input: 1.25, cachedInput: 0.125, output: 10 });
    expect(json.runs[0]!.cacheWriteTokens).toBe(0);
    expect(json.runs[0]!.cachedTokens).toBeGreaterThan(0);
  });
});

describe('episodic budget: bad input exits 1 with a clear message', () => {
  it('names a missing transcript file', async () => {
    const result = await runCli(['budget', fixtures.path('nope.jsonl'), '--budgets', '8k']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^episodic: .*(not found|no such file).*\n$/i);
    expect(result.stderr).toContain(fixtures.path('nope.jsonl'));
    expect(result.stdout).toBe('');
  });

  it('names the malformed line', async () => {
    const file = await fixtures.write('bad.jsonl', malformedText(3));
    const result = await runCli(['budget', file, '--budgets', '8k']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(new RegExp(`^episodic: ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}, line 3: `));
    expect(result.stdout).toBe('');
  });

  it('exits 1 naming the --pricing row to add when --model names a model without a price', async () => {
    const file = await fixtures.write('plain-unknown.jsonl', transcriptText(budgetSession({ episodes: 1, steps: 1, resultWords: 5 })));
    const result = await runCli(['budget', file, '--budgets', '8k', '--model', 'acme/unknown-1']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^episodic: no price known for model "acme\/unknown-1": pass --pricing FILE/);
    expect(result.stdout).toBe('');
  });

  it('reports tokens and cache shares with costs n/a for a model without a price, and says how to add one', async () => {
    const other = budgetSession({
      episodes: 1,
      steps: 1,
      resultWords: 20,
      model: { provider: 'zai', id: 'glm-5.2' },
    });
    const file = await fixtures.write('zai.jsonl', transcriptText(other));
    const result = await runCli(['budget', file, '--budgets', '8k']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('no price known, so costs are n/a');
    expect(result.stdout).toMatch(/\n +8,000 +\d+ +[\d,]+ +[\d.]+% +n\/a /);
    expect(result.stdout).toContain('input tokens not read from the cache, cost n/a');
    const json = await analysisOf([file, '--budgets', '8k']);
    expect(json.model.pricing).toBeUndefined();
    expect(json.runs[0]!.cost).toBeNull();
    expect(json.recommendation.rankedBy).toBe('uncached-tokens');
  });

  it('analyses a transcript that records no model, asking for --model to price it', async () => {
    const file = await fixtures.write(
      'anon.jsonl',
      transcriptText(budgetSession({ episodes: 1, steps: 1, resultWords: 20, model: null })),
    );
    const result = await runCli(['budget', file, '--budgets', '8k']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Model unknown (not recorded: pass --model)');
  });

  it('says there is no call to replay for an empty or system-only transcript, rather than asking for --model', async () => {
    const empty = await fixtures.write('empty.jsonl', '');
    const systemOnly = await fixtures.write(
      'system-only.jsonl',
      transcriptText([{ role: 'system', content: 'You are a CI debugging assistant.' }]),
    );
    for (const file of [empty, systemOnly]) {
      const result = await runCli(['budget', file, '--budgets', '8k']);
      expect(result).toEqual({
        code: 1,
        stdout: '',
        stderr: `episodic: ${file} has no assistant messages, so there is no model call to replay\n`,
      });
    }
  });

  it('names the pricing file and the bad field', async () => {
    const pricing = await fixtures.write(
      'bad-prices.json',
      JSON.stringify({ models: [{ pattern: 'x', input: 'cheap', cachedInput: 0, output: 1 }] }),
    );
    const result = await runCli(['budget', plainFile, '--budgets', '8k', '--pricing', pricing]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^episodic: pricing file .*bad-prices\.json: models\.0\.input: /);
  });

  it('reports a budget below the system prompt and tools as an infeasible row and sweeps the rest', async () => {
    const system = await fixtures.write('system.txt', 'Follow the repository conventions. '.repeat(40));
    const result = await runCli(['budget', plainFile, '--budgets', '100,8k', '--system', system]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/\n\s+100 +infeasible +- /);
    expect(result.stdout).toMatch(/100 tokens is infeasible: below what every call starts with: [\d,]+ tokens \(system prompt [\d,]+.*; the smallest feasible budget is [\d,]+ tokens\./);
    expect(result.stdout).toMatch(/\nRecommendation: 8,000 tokens/);
    expect(result.stdout).toContain('Left out: 100 tokens (infeasible: the fixed prefix leaves no room');
    const json = await runCli(['budget', plainFile, '--budgets', '100,8k', '--system', system, '--json']);
    const analysis = JSON.parse(json.stdout) as { budgets: number[]; infeasible: { budget: number; smallestFeasible: number }[] };
    expect(analysis.budgets).toEqual([8000]);
    expect(analysis.infeasible).toMatchObject([{ budget: 100 }]);
    expect(analysis.infeasible[0]!.smallestFeasible).toBeGreaterThan(100);
  });

  it('says when the fixed prefix leaves no room in any budget asked', async () => {
    const system = await fixtures.write('system-long.txt', 'Follow the repository conventions. '.repeat(400));
    const result = await runCli(['budget', plainFile, '--budgets', '100,200', '--system', system]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/\nRecommendation: none: the fixed prefix \(system prompt and tools, [\d,]+ tokens\) leaves no room in any budget asked; the smallest budget at which every call fits is [\d,]+ tokens\./);
    const html = fixtures.path('no-room.html');
    expect((await runCli(['budget', plainFile, '--budgets', '100', '--system', system, '--html', html])).code).toBe(0);
  });

  it('names a bad --tools file', async () => {
    const tools = await fixtures.write('tools.json', JSON.stringify([{ name: 'x', description: 'y' }]));
    const result = await runCli(['budget', plainFile, '--budgets', '8k', '--tools', tools]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^episodic: --tools .*tools\.json: 0\.inputSchema: /);
  });

  it('counts calls that cannot fit at all as shortened and says so', async () => {
    const huge: Message[] = [
      ...plain,
      { role: 'user', content: 'One more thing' },
      {
        role: 'assistant',
        content: [{ type: 'tool-call', id: 'big', name: 'read_log', args: {} }],
        model: sessionModel,
      },
      { role: 'tool', toolCallId: 'big', toolName: 'read_log', content: 'x' },
      { role: 'assistant', content: [{ type: 'text', text: 'done' }], model: sessionModel },
    ];
    huge[huge.length - 4] = { role: 'user', content: `One more thing: ${'word '.repeat(5000)}` };
    const file = await fixtures.write('huge.jsonl', transcriptText(huge));
    const json = await analysisOf([file, '--budgets', '3k,32k']);
    expect(json.runs[0]!.overflowCalls).toBe(2);
    expect(json.runs[0]!.shortenedCalls).toBeGreaterThanOrEqual(2);
    expect(json.runs[1]!.overflowCalls).toBe(0);
    const text = (await runCli(['budget', file, '--budgets', '3k,32k'])).stdout;
    expect(text).toContain('At 3,000 tokens 2 calls did not fit at all');
  });

  it('counts a current-episode tool result cut by the budget, not one cut to its cap', async () => {
    // 120 reads of ~60 tokens each (under the cap at both budgets) make an episode
    // that outgrows 8k, so the packer shortens it there; one result of ~39,000
    // tokens is over the cap at every budget (320 tokens at 8k, 900 at 200k) and is cut to it.
    const session: Message[] = [{ role: 'user', content: 'Read the logs' }];
    const read = (id: string, content: string) => {
      session.push(
        { role: 'assistant', content: [{ type: 'tool-call', id, name: 'read_log', args: {} }], model: sessionModel },
        { role: 'tool', toolCallId: id, toolName: 'read_log', content },
      );
    };
    read('big', 'step ok\n'.repeat(13_000));
    for (let index = 0; index < 120; index += 1) read(`small-${index}`, `part ${index}: ${'step ok '.repeat(25)}`);
    session.push({ role: 'assistant', content: [{ type: 'text', text: 'All read.' }], model: sessionModel });
    const file = await fixtures.write('caps.jsonl', transcriptText(session));
    const json = await analysisOf([file, '--budgets', '8k,200k']);
    const [small, large] = json.runs;
    expect(small!.perCall[0]!.shortened).toBe(false);
    expect(small!.perCall[1]!.shortened).toBe(false);
    expect(small!.perCall.at(-1)!.shortened).toBe(true);
    expect(large!.perCall.map((call) => call.shortened).every((shortened) => !shortened)).toBe(true);
    expect(Object.keys(large!.perCall.at(-1)!.cutResults)).toEqual(['big']);
    expect(json.recommendation.best!.budget).toBe(200_000);
  });

  it('names an --html file it cannot write', async () => {
    const target = fixtures.path('no-such-folder/report.html');
    const result = await runCli(['budget', plainFile, '--budgets', '8k', '--html', target]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`episodic: cannot write the HTML report to ${target}: its folder does not exist\n`);
  });

  it('refuses to write the HTML report over the transcript it reads (exit 2), leaving the transcript intact', async () => {
    const copy = await fixtures.write('keep.jsonl', await readFile(plainFile, 'utf8'));
    const before = await readFile(copy, 'utf8');
    const result = await runCli(['budget', copy, '--budgets', '8k', '--html', copy]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^episodic: --html .*keep\.jsonl is the transcript being read; choose another file/);
    expect(await readFile(copy, 'utf8')).toBe(before);
  });

  it('treats a bad command line as a usage error (exit 2)', async () => {
    expect((await runCli(['budget'])).code).toBe(2);
    expect((await runCli(['budget', plainFile, '--budgets', '8k,,16k'])).code).toBe(2);
    expect((await runCli(['budget', plainFile, '--quality', '1.5x'])).code).toBe(2);
    expect((await runCli(['budget', plainFile, '--from', 'cursor'])).stderr).toContain('unknown --from "cursor"');
    const retention = await runCli(['budget', plainFile, '--budgets', '8k', '--retention', 'episode,most']);
    expect(retention.code).toBe(2);
    expect(retention.stderr).toContain('unknown retention "most"');
  });
});

describe('episodic budget: progress', () => {
  function ttyStream(): { stream: Writable; text: () => string } {
    const chunks: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer | string, _encoding, callback) {
        chunks.push(chunk.toString());
        callback();
      },
    });
    Object.assign(stream, { isTTY: true });
    return { stream, text: () => chunks.join('') };
  }

  it('draws a bar on a terminal stderr, ends at every call done and clears its line', async () => {
    const stderr = ttyStream();
    const stdout = ttyStream();
    const code = await run(['budget', plainFile, '--budgets', '3k,8k', '--retention', 'episode', '--json'], {
      stdin: Readable.from(['']),
      stdout: stdout.stream,
      stderr: stderr.stream,
      env: {},
    });
    expect(code).toBe(0);
    const calls = plain.filter((message) => message.role === 'assistant').length;
    // Two runs and, per budget, the replay with unlimited room at its caps that tells budget cuts from cap cuts.
    expect(stderr.text()).toContain(`\rReplaying [${'#'.repeat(30)}] ${calls * 4}/${calls * 4} calls 100%`);
    expect(stderr.text().endsWith('\r\u001b[2K')).toBe(true);
    expect(() => JSON.parse(stdout.text())).not.toThrow();
  });

  it('stays off a stderr that is not a terminal unless --progress asks', async () => {
    expect((await runCli(['budget', plainFile, '--budgets', '8k'])).stderr).toBe('');
    expect((await runCli(['budget', plainFile, '--budgets', '8k', '--progress'])).stderr).toContain('\rReplaying [');
  });
});
