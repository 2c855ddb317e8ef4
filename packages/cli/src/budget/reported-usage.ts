/**
 * Predicted against reported prompt-cache use. Sessions recorded against a real
 * provider carry each call's `usage` on the assistant message it produced; the
 * replay that sent the closest input is taken as the one the session ran with, and
 * its predicted cache reads are set beside what the provider reported.
 */
import type { Message, Retention } from '@episodic/core';
import type { EstimatedCall, MissReason } from './cache-estimate.js';

/** One call with usage. */
export interface ReportedCall {
  call: number;
  line: number;
  predictedInput: number;
  reportedInput: number;
  predictedCached: number;
  reportedCached: number;
  /** The predicted reasons for a miss, plus `unexplained` when the provider cached clearly less. */
  misses: (MissReason | 'unexplained')[];
}

/** The comparison for the run closest to what was reported. */
export interface ReportedComparison {
  budget: number;
  retention: Retention;
  /** Calls with usage in the transcript. */
  callsWithUsage: number;
  /**
   * False when no usage has a cached-token count: the recording provider (or a
   * scripted model) did not report cache reads, so none are flagged as unexplained.
   */
  cacheReported: boolean;
  /** Models that recorded the usage, as `provider/id`. */
  recordedBy: string[];
  totals: { predictedInput: number; reportedInput: number; predictedCached: number; reportedCached: number };
  calls: ReportedCall[];
}

/** A replayed run: its settings and its calls. */
export interface ReplayedRun {
  budget: number;
  retention: Retention;
  calls: readonly EstimatedCall[];
}

/**
 * Below this share of the predicted cache reads, a reported read counts as a miss
 * the prompt does not explain (expired entry, another server, tokenizer rounding).
 */
const unexplainedBelow = 0.5;

/** Compares against the reported usage, or undefined when no call carries usage. */
export function compareReported(
  messages: readonly Message[],
  runs: readonly ReplayedRun[],
): ReportedComparison | undefined {
  const usageByLine = new Map<number, { input: number; cached: number }>();
  let cacheReported = false;
  const recordedBy = new Set<string>();
  messages.forEach((message, index) => {
    if (message.role === 'assistant' && message.usage) {
      usageByLine.set(index + 1, { input: message.usage.inputTokens, cached: message.usage.cachedInputTokens ?? 0 });
      cacheReported ||= message.usage.cachedInputTokens !== undefined;
      if (message.model) recordedBy.add(`${message.model.provider}/${message.model.id}`);
    }
  });
  if (usageByLine.size === 0 || runs.length === 0) return undefined;

  const distance = (run: ReplayedRun) =>
    run.calls.reduce((sum, call) => {
      const usage = usageByLine.get(call.line);
      return usage ? sum + Math.abs(usage.input - call.tokens.total) : sum;
    }, 0);
  const closest = runs.reduce((best, run) => (distance(run) < distance(best) ? run : best));

  const calls: ReportedCall[] = [];
  for (const call of closest.calls) {
    const usage = usageByLine.get(call.line);
    if (!usage) continue;
    const misses: ReportedCall['misses'] = [...call.misses];
    if (cacheReported && usage.cached < call.cachedTokens * unexplainedBelow) misses.push('unexplained');
    calls.push({
      call: call.call,
      line: call.line,
      predictedInput: call.tokens.total,
      reportedInput: usage.input,
      predictedCached: call.cachedTokens,
      reportedCached: usage.cached,
      misses,
    });
  }
  const sum = (pick: (call: ReportedCall) => number) => calls.reduce((total, call) => total + pick(call), 0);
  return {
    budget: closest.budget,
    retention: closest.retention,
    callsWithUsage: calls.length,
    cacheReported,
    recordedBy: [...recordedBy],
    totals: {
      predictedInput: sum((call) => call.predictedInput),
      reportedInput: sum((call) => call.reportedInput),
      predictedCached: sum((call) => call.predictedCached),
      reportedCached: sum((call) => call.reportedCached),
    },
    calls,
  };
}
