/**
 * Which model `episodic budget` prices, and what it knows about that model's prompt
 * cache: the cache style and minimum cacheable length of its profile, resolved as
 * the adapters resolve it (`resolveProfile`): a table row, or the fallback, which
 * for a known provider assumes what the provider does for all its models.
 */
import { type CacheStyle, EpisodicError, type Message, type ModelProfile, type Pricing } from '@episodic/core';
import { resolveProfile } from '@episodic/providers';
import { findPrice, type PriceList } from './pricing.js';

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
  /** Where the prices came from: a `--pricing` file or the built-in prices (the profiles'). */
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
  const price = findPrice(prices, chosen);
  const provider = chosen.provider ?? price.provider;
  const profile = provider ? resolveProfile(provider, chosen.id) : undefined;
  return {
    provider,
    id: chosen.id,
    from: option === undefined ? 'transcript' : 'option',
    otherModels: [...new Set(seen.map(label))].filter((name) => name !== label({ provider, id: chosen.id })),
    pricing: price.pricing,
    pricingSource: price.source,
    cache: cacheFacts(profile),
  };
}

function cacheFacts(profile: ModelProfile | undefined): CacheFacts {
  const fallback = profile?.fallback === true;
  if (!profile || (fallback && profile.cacheStyle === 'none')) return { style: 'none', minCacheableTokens: 0, source: 'none' };
  return {
    style: profile.cacheStyle,
    minCacheableTokens: profile.minCacheableTokens,
    source: fallback ? 'assumed' : 'profile',
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
