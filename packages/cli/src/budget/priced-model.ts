/**
 * Which model `episodic budget` prices, and what it knows about that model's prompt
 * cache: the cache style and minimum cacheable length of its profile, resolved as
 * the adapters resolve it (`resolveProfile`): a table row, or the fallback, which
 * for a known provider assumes what the provider does for all its models.
 */
import type { CacheStyle, Message, ModelProfile, PastReasoning, Pricing } from '@episodic/core';
import { resolveProfile } from '@episodic/providers';
import { findPrice, type PriceList, UnknownPriceError } from './pricing.js';

/** The prompt cache as the estimate models it. */
export interface CacheFacts {
  style: CacheStyle;
  /** Prefixes shorter than this are not cached. */
  minCacheableTokens: number;
  /**
   * `profile` (a row of the profile table), `assumed` (the profile fallback: what the
   * provider does for all its models) or `none` (no caching known).
   */
  source: 'profile' | 'assumed' | 'none';
  /** Seconds an entry lives without a hit; undefined when unknown (no expiry is predicted). */
  ttlSeconds?: number;
}

/**
 * How long a cache entry lives without a hit, by cache style (docs/providers.md; an
 * Anthropic profile's `cacheTtl` says which of its two TTLs is used). OpenAI keeps
 * prefixes 5 to 10 minutes of inactivity: the estimate takes 10.
 */
const ttlByStyle: Readonly<Record<CacheStyle, number | undefined>> = {
  'anthropic-breakpoints': 300,
  'openai-prefix': 600,
  'gemini-implicit': 300,
  none: undefined,
};

/** The model whose prices and cache the estimate uses. */
export interface PricedModel {
  provider: string | undefined;
  id: string;
  /** Where the model came from: `--model`, the transcript, or nowhere (`unknown`: not recorded). */
  from: 'option' | 'transcript' | 'unknown';
  /** Other models the transcript's assistant messages name (a session that switched models). */
  otherModels: string[];
  /** Undefined when no price is known: costs are then "n/a", tokens and cache shares still reported. */
  pricing: Pricing | undefined;
  /** Where the prices came from: a `--pricing` file, the built-in prices (the profiles'), or `none`. */
  pricingSource: string;
  cache: CacheFacts;
  /** The profile's facts the replays use. */
  contextWindow: number;
  tokenizerFactor: number;
  pastReasoning: PastReasoning;
  /** The provider binds reasoning to its prefix (profile `signatureBoundToPrefix`: Anthropic preserved thinking). */
  reasoningBound: boolean;
}

/**
 * Chooses the model (`--model` as `provider/id` or a bare id, else the latest
 * assistant message's `model`, else the provider the recording names) and resolves
 * its prices, cache and billing facts. A model without a known price is still
 * analysed: in tokens, with costs "n/a".
 */
export function choosePricedModel(
  option: string | undefined,
  messages: readonly Message[],
  prices: PriceList,
  recordedProvider?: string,
): PricedModel {
  const seen = transcriptModels(messages);
  const fromTranscript = option === undefined ? seen[seen.length - 1] : undefined;
  const chosen = option !== undefined ? parseModel(option) : (fromTranscript ?? { provider: recordedProvider, id: 'unknown' });
  const label = (model: { provider?: string | undefined; id: string }) =>
    model.provider ? `${model.provider}/${model.id}` : model.id;
  let price: ReturnType<typeof findPrice> | undefined;
  try {
    price = findPrice(prices, chosen);
  } catch (error) {
    // A model named on the command line must be priced (a typo would otherwise pass as n/a);
    // a transcript's own model without a price is analysed in tokens only.
    if (!(error instanceof UnknownPriceError) || option !== undefined) throw error;
  }
  const provider = chosen.provider ?? price?.provider;
  const profile = provider ? resolveProfile(provider, chosen.id) : undefined;
  return {
    provider,
    id: chosen.id,
    from: option !== undefined ? 'option' : fromTranscript ? 'transcript' : 'unknown',
    otherModels: [...new Set(seen.map(label))].filter((name) => name !== label({ provider, id: chosen.id })),
    pricing: price?.pricing,
    pricingSource: price?.source ?? 'none',
    cache: cacheFacts(profile),
    contextWindow: profile?.contextWindow ?? 128_000,
    tokenizerFactor: profile?.tokenizerFactor ?? 1,
    pastReasoning: profile?.pastReasoning ?? 'billed',
    reasoningBound: profile?.signatureBoundToPrefix === true,
  };
}

function cacheFacts(profile: ModelProfile | undefined): CacheFacts {
  const fallback = profile?.fallback === true;
  if (!profile || (fallback && profile.cacheStyle === 'none')) return { style: 'none', minCacheableTokens: 0, source: 'none' };
  return {
    style: profile.cacheStyle,
    minCacheableTokens: profile.minCacheableTokens,
    source: fallback ? 'assumed' : 'profile',
    ttlSeconds: profile.cacheTtl === '1h' ? 3600 : ttlByStyle[profile.cacheStyle],
  };
}

/** `provider/id` or a bare `id` (the provider then comes from the prices: a `--pricing` row or a priced profile). */
function parseModel(text: string): { provider: string | undefined; id: string } {
  const slash = text.indexOf('/');
  if (slash <= 0 || slash === text.length - 1) return { provider: undefined, id: text };
  return { provider: text.slice(0, slash), id: text.slice(slash + 1) };
}

function transcriptModels(messages: readonly Message[]): { provider: string; id: string }[] {
  const models: { provider: string; id: string }[] = [];
  for (const message of messages) {
    if (message.role === 'assistant' && message.model) {
      models.push({ provider: message.model.provider, id: message.model.id });
    }
  }
  return models;
}
