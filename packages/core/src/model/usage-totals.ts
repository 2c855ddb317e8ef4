/**
 * Token and cost totals over model calls. Costs are estimates from the profile's
 * list prices; providers bill what they bill.
 */
import type { Message, SubSessionReference, Usage } from '../message/message.js';
import type { Pricing } from './model-profile.js';

/** Sums of {@link Usage} over calls, plus an estimated cost when pricing is known. */
export interface UsageTotals {
  /** Model calls counted. */
  calls: number;
  inputTokens: number;
  cachedInputTokens: number;
  cacheWriteTokens: number;
  outputTokens: number;
  reasoningTokens: number;
  /** Estimated USD, or undefined when the model's profile has no pricing. */
  costUsd: number | undefined;
}

/** Totals of no calls. */
export function emptyUsageTotals(pricing?: Pricing): UsageTotals {
  return {
    calls: 0,
    inputTokens: 0,
    cachedInputTokens: 0,
    cacheWriteTokens: 0,
    outputTokens: 0,
    reasoningTokens: 0,
    costUsd: pricing ? 0 : undefined,
  };
}

/**
 * Estimated USD of one call. Input tokens include cached reads and cache writes
 * (see {@link Usage}), so those are billed at their own rates and only the rest at
 * the input rate. Cache writes without a price are billed as input.
 */
export function estimateCost(usage: Usage, pricing: Pricing): number {
  const cached = usage.cachedInputTokens ?? 0;
  const written = usage.cacheWriteTokens ?? 0;
  const fresh = Math.max(0, usage.inputTokens - cached - written);
  const dollars =
    fresh * pricing.input +
    cached * pricing.cachedInput +
    written * (pricing.cacheWrite ?? pricing.input) +
    usage.outputTokens * pricing.output +
    // A server-side compaction inside the call is billed as one more sampling pass.
    (usage.compactionInputTokens ?? 0) * pricing.input +
    (usage.compactionOutputTokens ?? 0) * pricing.output;
  return dollars / 1_000_000;
}

/** Returns `totals` with one more call added (a new object; the input is not changed). */
export function addUsage(totals: UsageTotals, usage: Usage, pricing?: Pricing): UsageTotals {
  return {
    calls: totals.calls + 1,
    inputTokens: totals.inputTokens + usage.inputTokens,
    cachedInputTokens: totals.cachedInputTokens + (usage.cachedInputTokens ?? 0),
    cacheWriteTokens: totals.cacheWriteTokens + (usage.cacheWriteTokens ?? 0),
    outputTokens: totals.outputTokens + usage.outputTokens,
    reasoningTokens: totals.reasoningTokens + (usage.reasoningTokens ?? 0),
    costUsd: addCost(totals.costUsd, usage, pricing),
  };
}

/**
 * A call's cost: the one recorded with it (priced by the model that made it), else an
 * estimate from `pricing`. Unknown once any call's cost is unknown.
 */
function addCost(total: number | undefined, usage: Usage, pricing: Pricing | undefined): number | undefined {
  if (total === undefined) return undefined;
  if (usage.costUsd !== undefined) return total + usage.costUsd;
  return pricing === undefined ? undefined : total + estimateCost(usage, pricing);
}

/**
 * Returns `totals` with the calls of an agent tool's sub-session added (a new
 * object). Their cost is the one recorded with them: unknown when it is not.
 */
export function addSubSessionUsage(totals: UsageTotals, reference: SubSessionReference): UsageTotals {
  const { usage, calls } = reference;
  const cost = totals.costUsd === undefined || usage.costUsd === undefined ? undefined : totals.costUsd + usage.costUsd;
  return { ...addUsage(totals, usage), calls: totals.calls + calls, costUsd: cost };
}

/**
 * Totals of every assistant message and summary line in a transcript that recorded
 * its usage (the agent loop stores each call's usage on the message it produced, so
 * totals survive a reload), plus the sub-sessions of agent tools, recorded on their
 * results.
 */
export function usageTotalsOf(messages: readonly Message[], pricing?: Pricing): UsageTotals {
  const recorded = messages.some((message) =>
    message.role === 'assistant' || message.role === 'summary'
      ? message.usage?.costUsd !== undefined
      : message.role === 'tool' && message.subSession?.usage.costUsd !== undefined,
  );
  let totals: UsageTotals = { ...emptyUsageTotals(pricing), costUsd: pricing || recorded ? 0 : undefined };
  for (const message of messages) {
    if ((message.role === 'assistant' || message.role === 'summary') && message.usage) {
      totals = addUsage(totals, message.usage, pricing);
    }
    if (message.role === 'tool' && message.subSession) totals = addSubSessionUsage(totals, message.subSession);
  }
  return totals;
}
