/**
 * The closing summary: steps, tokens, cached share, estimated cost, and where the
 * transcript is (with the command that analyses it).
 */
import type { UsageTotals } from '@episodic/core';
import type { RunTotals } from './progress.js';

/** What the summary reports. */
export interface SummaryInput {
  run: RunTotals;
  usage: UsageTotals;
  seconds: number;
  transcript: string;
  /** False for the offline model, which reports no cache hits and costs nothing. */
  realProvider: boolean;
}

/** The summary lines. */
export function formatSummary(input: SummaryInput): string {
  const { run, usage } = input;
  const number = (value: number) => value.toLocaleString('en-US');
  const percent = (part: number, whole: number) => (whole === 0 ? '0%' : `${Math.round((100 * part) / whole)}%`);
  const providerCache = input.realProvider
    ? `provider-reported cached ${number(usage.cachedInputTokens)} tok (${percent(usage.cachedInputTokens, usage.inputTokens)} of input)`
    : 'provider-reported cached n/a (the offline model has no cache)';
  const cost =
    usage.costUsd !== undefined
      ? `$${usage.costUsd.toFixed(4)} (list prices; cached input billed at the cached rate)`
      : input.realProvider
        ? 'n/a (no pricing in this model profile)'
        : '$0 (offline model)';
  return [
    '',
    'Summary',
    `  ${run.episodes} episode${run.episodes === 1 ? '' : 's'} · ${run.steps} model calls · ${run.toolCalls} tool calls · ${input.seconds.toFixed(1)} s`,
    `  tokens: input ${number(usage.inputTokens)} · output ${number(usage.outputTokens)} (reasoning ${number(usage.reasoningTokens)})`,
    `  cache: predicted prefix reuse ${percent(run.predictedReuseTokens, run.packedTokens)} of packed input · ${providerCache}`,
    `  packing: ${run.evictedEpisodes} episode${run.evictedEpisodes === 1 ? '' : 's'} evicted · up to ${run.reasoningDroppedParts} past reasoning parts dropped`,
    `  estimated cost: ${cost}`,
    `  transcript: ${input.transcript}`,
    // The offline model has no price list, so the hint prices its calls as a real model's.
    `  analyse it: npx episodic budget ${input.transcript} --budgets 8k,16k,32k${input.realProvider ? '' : ' --model anthropic/claude-sonnet-4-6'}`,
  ].join('\n');
}
