/**
 * Predicted prompt-cache use and cost of replayed calls, on what the provider bills
 * (see `billed-view.ts`). A call reads from the cache the prefix it shares byte for
 * byte with the previous call, but only when that prefix reaches the model's minimum
 * cacheable length. Anthropic-style caches also bill writing the rest of a cacheable
 * prompt; automatic prefix caches do not. Without a price, costs are null.
 *
 * @see https://docs.claude.com/en/docs/build-with-claude/prompt-caching
 * @see https://platform.openai.com/docs/guides/prompt-caching
 * @see https://ai.google.dev/gemini-api/docs/caching
 */
import type { Pricing } from '@episodic/core';
import type { CacheFacts } from './priced-model.js';
import { cacheExpired } from './call-time.js';
import type { ReplayedCall } from './replay.js';

/**
 * Why a call did not read everything the previous call sent from the cache.
 * - `first-call`: nothing was sent before (or the previous call could not be made).
 * - `user-boundary`: a new episode began and the previous one lost its reasoning.
 * - `eviction`: this call evicted past episodes from the front.
 * - `shortened`: the current episode was cut further to fit.
 * - `prefix-changed`: the prefix changed for another reason.
 * - `below-minimum`: the shared prefix is shorter than the minimum cacheable length.
 * - `no-cache`: the provider caches nothing (as far as the profile knows).
 * - `did-not-fit`: the call could not be made at this budget.
 * - `expired`: more time than the cache's TTL passed since the previous call.
 */
export type MissReason =
  | 'first-call'
  | 'user-boundary'
  | 'eviction'
  | 'shortened'
  | 'prefix-changed'
  | 'below-minimum'
  | 'no-cache'
  | 'did-not-fit'
  | 'expired';

/** How each miss reason reads in human output. */
export const missLabels: Readonly<Record<MissReason, string>> = {
  'first-call': 'first call',
  'user-boundary': 'prefix changed at a user boundary',
  eviction: 'eviction',
  shortened: 'current episode shortened',
  'prefix-changed': 'prefix changed',
  'below-minimum': 'below the minimum cacheable length',
  'no-cache': 'no prompt cache known for the model',
  'did-not-fit': 'did not fit the budget',
  expired: 'the cache expired (a long pause before the call)',
};

/** A replayed call with its predicted cache use and cost (USD). */
export interface EstimatedCall extends ReplayedCall {
  /** Input tokens read from the cache. */
  cachedTokens: number;
  /** Input tokens written to the cache (Anthropic-style caches only). */
  cacheWriteTokens: number;
  /** Input tokens billed at the plain input price. */
  uncachedTokens: number;
  /** Null when no price is known. */
  cost: CostBreakdown | null;
  /** Empty when the call reused everything the previous call sent. */
  misses: MissReason[];
}

/** USD by what was billed. */
export interface CostBreakdown {
  input: number;
  cachedRead: number;
  cacheWrite: number;
  total: number;
}

/**
 * Adds cache use and cost to replayed calls. `replyTokens` is the reply priming each
 * call ends with (never part of a cached prefix). `warmTokens` is what the cache
 * already held when the session began (a recording whose first call read its system
 * prompt and tools from the cache, written by earlier sessions): the first call reads
 * that much of its prefix.
 */
export function estimateCalls(
  calls: readonly ReplayedCall[],
  cache: CacheFacts,
  pricing: Pricing | undefined,
  replyTokens: number,
  warmTokens = 0,
): EstimatedCall[] {
  let previous: ReplayedCall | undefined;
  return calls.map((call, index) => {
    const warm = index === 0 && call.fit ? Math.min(warmTokens, Math.max(0, call.billedTokens - replyTokens)) : 0;
    const expired = cacheExpired(previous?.requestTime, call.requestTime, cache.ttlSeconds);
    const reused = expired ? 0 : Math.max(warm, call.billedReusedTokens);
    const seen = reused === call.billedReusedTokens ? call : { ...call, billedReusedTokens: reused };
    const estimated = estimateCall(seen, previous, cache, pricing, replyTokens);
    if (expired && estimated.misses[0] !== 'did-not-fit') estimated.misses = ['expired'];
    previous = call;
    return estimated;
  });
}

function estimateCall(
  call: ReplayedCall,
  previous: ReplayedCall | undefined,
  cache: CacheFacts,
  pricing: Pricing | undefined,
  replyTokens: number,
): EstimatedCall {
  const misses = missReasons(call, previous, cache, replyTokens);
  const reused = call.billedReusedTokens;
  const cachedTokens = cache.style !== 'none' && reused >= cache.minCacheableTokens ? reused : 0;
  const cacheable = Math.max(0, call.billedTokens - replyTokens);
  const cacheWriteTokens =
    cache.style === 'anthropic-breakpoints' && call.fit && cacheable >= cache.minCacheableTokens
      ? cacheable - cachedTokens
      : 0;
  const uncachedTokens = call.billedTokens - cachedTokens - cacheWriteTokens;
  const cost = pricing ? priceInput({ uncachedTokens, cachedTokens, cacheWriteTokens }, pricing) : null;
  return { ...call, cachedTokens, cacheWriteTokens, uncachedTokens, cost, misses };
}

/** USD of input tokens split by how they are billed. */
export function priceInput(
  tokens: { uncachedTokens: number; cachedTokens: number; cacheWriteTokens: number },
  pricing: Pricing,
): CostBreakdown {
  const input = (tokens.uncachedTokens * pricing.input) / 1e6;
  const cachedRead = (tokens.cachedTokens * pricing.cachedInput) / 1e6;
  const cacheWrite = (tokens.cacheWriteTokens * (pricing.cacheWrite ?? pricing.input)) / 1e6;
  return { input, cachedRead, cacheWrite, total: input + cachedRead + cacheWrite };
}

function missReasons(
  call: ReplayedCall,
  previous: ReplayedCall | undefined,
  cache: CacheFacts,
  replyTokens: number,
): MissReason[] {
  if (!call.fit) return ['did-not-fit'];
  if (cache.style === 'none') return ['no-cache'];
  if (!previous?.fit) return call.billedReusedTokens >= cache.minCacheableTokens ? [] : ['first-call'];
  const reasons: MissReason[] = [];
  const previousPrefix = previous.billedTokens - replyTokens;
  if (call.billedReusedTokens < previousPrefix) reasons.push(breakCause(call));
  if (call.billedReusedTokens < cache.minCacheableTokens) reasons.push('below-minimum');
  return reasons;
}

/** What changed the prefix, most telling first. */
function breakCause(call: ReplayedCall): MissReason {
  if (call.evictedNow) return 'eviction';
  if (call.boundary) return 'user-boundary';
  if (call.shortened) return 'shortened';
  return 'prefix-changed';
}
