/**
 * Which model `episodic budget` prices, and what it knows about that model's prompt
 * cache: the model profile's cache style and minimum cacheable length, or per-provider
 * assumptions when the profile table has no entry for the model.
 */
import { type CacheStyle, EpisodicError, type Message, type Pricing } from '@episodic/core';
import { findProfile } from '@episodic/core/internal';
import { builtinProfiles } from '@episodic/providers';
import { findPrice, type PriceList } from './pricing.js';

/** How a provider caches when its profile table has no entry for a model (PROVIDERS.md). */
const assumedCache: Readonly<Record<string, { style: CacheStyle; minCacheableTokens: number }>> = {
  anthropic: { style: 'anthropic-breakpoints', minCacheableTokens: 1024 },
  openai: { style: 'openai-prefix', minCacheableTokens: 1024 },
  google: { style: 'gemini-implicit', minCacheableTokens: 1024 },
  deepseek: { style: 'openai-prefix', minCacheableTokens: 64 },
};

/** The prompt cache as the estimate models it. */
export interface CacheFacts {
  style: CacheStyle;
  /** Prefixes shorter than this are not cached. */
  minCacheableTokens: number;
  /** `profile` (from @episodic/providers), `assumed` (per-provider default) or `none` (no caching known). */
  source: 'profile' | 'assumed' | 'none';
}

/** The model whose prices and cache the estimate uses. */
export interface PricedModel {
  provider: string | undefined;
  id: string;
  /** Where the model came from. */
  from: 'option' | 'transcript';
  /** Other models the transcript's assistant messages name (a session that switched models). */
  otherModels: string[];
  pricing: Pricing;
  /** Where the prices came from: a `--pricing` file, the built-in table, or the profile. */
  pricingSource: string;
  cache: CacheFacts;
}

/** No model to price: the transcript records none and `--model` was not given. */
export class NoModelError extends EpisodicError {
  constructor() {
    super(
      'no_model',
      'the transcript records no model on its assistant messages: pass --model PROVIDER/ID (e.g. openai/gpt-5)',
    );
  }
}

/**
 * Chooses the model (`--model` as `provider/id` or a bare id, else the latest
 * assistant message's `model`) and resolves its prices and cache facts.
 */
export function choosePricedModel(
  option: string | undefined,
  messages: readonly Message[],
  prices: PriceList,
): PricedModel {
  const seen = transcriptModels(messages);
  const chosen = option === undefined ? seen[seen.length - 1] : parseModel(option);
  if (!chosen) throw new NoModelError();
  const label = (model: { provider?: string | undefined; id: string }) =>
    model.provider ? `${model.provider}/${model.id}` : model.id;
  const profile = chosen.provider ? findProfile(builtinProfiles, chosen.provider, chosen.id) : undefined;
  const price = findPrice(prices, chosen, profile?.pricing);
  const provider = chosen.provider ?? price.provider;
  const profileFound = profile ?? (provider ? findProfile(builtinProfiles, provider, chosen.id) : undefined);
  return {
    provider,
    id: chosen.id,
    from: option === undefined ? 'transcript' : 'option',
    otherModels: [...new Set(seen.map(label))].filter((name) => name !== label({ provider, id: chosen.id })),
    pricing: price.pricing,
    pricingSource: price.source,
    cache: cacheFacts(provider, profileFound),
  };
}

function cacheFacts(
  provider: string | undefined,
  profile: { cacheStyle: CacheStyle; minCacheableTokens: number } | undefined,
): CacheFacts {
  if (profile) return { style: profile.cacheStyle, minCacheableTokens: profile.minCacheableTokens, source: 'profile' };
  const assumed = provider ? assumedCache[provider] : undefined;
  if (assumed) return { ...assumed, source: 'assumed' };
  return { style: 'none', minCacheableTokens: 0, source: 'none' };
}

/** `provider/id` or a bare `id` (the provider then comes from the price table). */
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
