/**
 * `episodic budget` compares native compaction checkpoints against Episodic's text
 * summaries on a real recorded session (a Codex CLI session of an OpenAI model, which
 * compacts server-side; read from the shared fixtures, see test/fixtures/sessions/).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CheckpointComparison } from '../../packages/cli/src/budget/policy-comparison.js';
import { runCli } from '../../packages/cli/src/testing/cli-harness.js';
import { realDataMode, sharedFixturesRoot } from '../support/shared-fixtures.js';

const file = join(sharedFixturesRoot(), 'sessions', 'codex', 'moonmind-cli057-80-calls.jsonl');

describe('episodic budget: native against text compaction checkpoints on a real session', () => {
  if (!realDataMode().run) {
    it('steps aside without the shared fixtures (the run says so once)', () => {
      expect(realDataMode().run).toBe(false);
    });
    return;
  }

  it('replays hybrid both ways: tokens per request, prefix reuse and cost, and what keeping both costs', async () => {
    expect(existsSync(file), `${file} is listed as placed in the manifest`).toBe(true);
    const json = await runCli(['budget', file, '--from', 'codex', '--budgets', '32k', '--retention', 'episode', '--json']);
    expect(json.code, json.stderr).toBe(0);
    const { contextPolicies } = JSON.parse(json.stdout) as { contextPolicies: { checkpoints: CheckpointComparison } };
    const { native, text, tokensPerRequest, keepingBothCost } = contextPolicies.checkpoints;
    // The same calls; a text checkpoint goes without the opening user message the native cut keeps, so it may compact less often.
    expect(native.compactions).toBeGreaterThan(0);
    expect(text.compactions).toBeGreaterThan(0);
    expect(text.compactions).toBeLessThanOrEqual(native.compactions);
    expect(text.calls).toBe(native.calls);
    expect(text.checkpoints).toBe('text');
    // The text summary is capped at 1,000 tokens, the native item not: fewer tokens per request, but a
    // summarizer call reads each compacted input, uncached, and the new first message breaks the prefix.
    expect(tokensPerRequest.text).toBeLessThan(tokensPerRequest.native);
    expect(text.summarizerTokens).toBeGreaterThan(0);
    expect(text.cachedTokens / text.inputTokens).toBeLessThan(native.cachedTokens / native.inputTokens);
    // Keeping both: a summarizer call per native compaction, on top of native's cost.
    expect(keepingBothCost).toBeGreaterThan(0);
    expect(keepingBothCost).toBeCloseTo(native.checkpointCost ?? Number.NaN, 10);
    expect(keepingBothCost! / native.compactions).toBeGreaterThan(text.summarizerCost! / text.compactions / 2);

    const report = await runCli(['budget', file, '--from', 'codex', '--budgets', '32k', '--retention', 'episode']);
    expect(report.stdout).toMatch(/Compaction checkpoints \(hybrid\)/);
    expect(report.stdout).toMatch(/\n {2}native item +\$[\d.]+ {2}[\d,]+ tokens\/request, [\d.]+% cached, \d+ compactions/);
    expect(report.stdout).toMatch(/\n {2}text summary +\$[\d.]+ {2}[\d,]+ tokens\/request, [\d.]+% cached, \d+ compactions, summarizer read/);
    expect(report.stdout).toMatch(/Keeping a text summary beside each native item, so a fallback or hand-off can continue, costs \$[\d.]+ more/);
  }, 120_000);
});
