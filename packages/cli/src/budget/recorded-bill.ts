/**
 * What the recorded session actually cost: the costs the agent recorded per call when
 * every call has one (pi does), else the recorded usage at the priced model's list
 * prices (cache reads, cache writes with their TTL, and output billed as such).
 * Output is the same whatever the budget, so a predicted total is a replay's input
 * cost plus the recorded output at the same prices.
 */
import type { Message, Pricing } from '@episodic/core';
import { priceInput } from './cache-estimate.js';
import type { Fidelity } from './prefix-inference.js';
import type { CacheFacts } from './priced-model.js';

/** The bill of the recorded calls. */
export interface RecordedBill {
  /** Calls with usage. */
  calls: number;
  /** Recorded usage, summed (provider tokens). */
  usage: { inputTokens: number; cachedInputTokens: number; cacheWriteTokens: number; outputTokens: number };
  /** USD; null when neither costs nor a price are known. */
  total: number | null;
  /** `recorded-costs`, `usage-at-prices`, or `none`. */
  source: 'recorded-costs' | 'usage-at-prices' | 'none';
  /** The recorded output at the priced model's prices (null without a price): the same in every replay. */
  outputCost: number | null;
}

/** Sums the recorded usage and prices it. */
export function recordedBill(messages: readonly Message[], pricing: Pricing | undefined): RecordedBill {
  const usage = { inputTokens: 0, cachedInputTokens: 0, cacheWriteTokens: 0, outputTokens: 0 };
  let calls = 0;
  let recordedCost = 0;
  let everyCallCosted = true;
  let atPrices = 0;
  for (const message of messages) {
    if (message.role !== 'assistant' || !message.usage) continue;
    const recorded = message.usage;
    calls += 1;
    const cached = recorded.cachedInputTokens ?? 0;
    const written = recorded.cacheWriteTokens ?? 0;
    usage.inputTokens += recorded.inputTokens;
    usage.cachedInputTokens += cached;
    usage.cacheWriteTokens += written;
    usage.outputTokens += recorded.outputTokens;
    if (recorded.costUsd === undefined) everyCallCosted = false;
    else recordedCost += recorded.costUsd;
    if (pricing) {
      // Writes with the one-hour TTL cost twice the input price (Anthropic), the rest 1.25x.
      const longTtl = (recorded as { cacheWriteLongTokens?: unknown }).cacheWriteLongTokens;
      const long = typeof longTtl === 'number' ? longTtl : 0;
      atPrices +=
        (recorded.inputTokens - cached - written) * pricing.input +
        cached * pricing.cachedInput +
        (written - long) * (pricing.cacheWrite ?? pricing.input) +
        long * pricing.input * 2 +
        recorded.outputTokens * pricing.output;
    }
  }
  const outputCost = pricing ? (usage.outputTokens * pricing.output) / 1e6 : null;
  if (calls > 0 && everyCallCosted) return { calls, usage, total: recordedCost, source: 'recorded-costs', outputCost };
  if (calls > 0 && pricing) return { calls, usage, total: atPrices / 1e6, source: 'usage-at-prices', outputCost };
  return { calls, usage, total: null, source: 'none', outputCost };
}

/**
 * The recorded session as replayed (what was sent, prefix inferred), priced the way
 * the budget runs are: set beside the bill, it shows the estimate's own error. The
 * first call reads from the cache what the recording's first call read.
 */
export function replayedBill(fidelity: Fidelity, cache: CacheFacts, pricing: Pricing | undefined, bill: RecordedBill): number | null {
  if (!pricing || bill.outputCost === null) return null;
  let total = bill.outputCost;
  for (const [index, call] of fidelity.calls.entries()) {
    const cachedTokens = index === 0 ? Math.min(call.reportedCached, call.replayedInput) : call.predictedCached;
    const rest = call.replayedInput - cachedTokens;
    const writes = cache.style === 'anthropic-breakpoints' && call.replayedInput >= cache.minCacheableTokens;
    total += priceInput({ uncachedTokens: writes ? 0 : rest, cachedTokens, cacheWriteTokens: writes ? rest : 0 }, pricing).total;
  }
  return total;
}
