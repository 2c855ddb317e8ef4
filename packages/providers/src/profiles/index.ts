/**
 * The model profile table: every built-in family in one list, looked up by
 * provider and model pattern, with user overrides on top (docs/architecture.md, "Reasoning
 * profiles"). A family is one file and one line below.
 */
import type { ModelProfile } from '@episodic/core';
import { findProfile } from '@episodic/core/internal';
import { anthropicDefaults, anthropicProfiles } from './anthropic.js';
import { googleDefaults, googleProfiles } from './google.js';
import { openaiDefaults, openaiProfiles } from './openai.js';
import { compatibleHostDefaults, openaiCompatibleProfiles } from './openai-compatible.js';

/** Every built-in profile; within a family the first matching pattern wins. */
export const builtinProfiles: readonly ModelProfile[] = [
  ...anthropicProfiles,
  ...googleProfiles,
  ...openaiProfiles,
  ...openaiCompatibleProfiles,
];

/** What each known provider fixes for all its models, whatever the model. */
function providerDefaults(provider: string): Partial<ModelProfile> | undefined {
  if (provider === 'anthropic') return anthropicDefaults;
  if (provider === 'google') return googleDefaults;
  if (provider === 'openai') return openaiDefaults;
  return compatibleHostDefaults(provider);
}

/** Limits and cache for a model nobody described: conservative, no caching assumed. */
const unknownModel = {
  contextWindow: 128_000,
  maxOutputTokens: 8192,
  cacheStyle: 'none',
  minCacheableTokens: Number.POSITIVE_INFINITY,
  tokenizerFactor: 1.2,
} as const;

/**
 * The profile of a model without a row: the conservative limits of
 * `unknownModel`, then what the provider fixes for all its models when the
 * provider is known (cache style and minimum, tokenizer factor, key variables,
 * base URL, wire fields), with no reasoning sent back across episodes.
 * `fallback: true` tells callers it is a guess (the CLI says so).
 */
function fallbackProfile(provider: string, model: string): ModelProfile {
  return {
    ...unknownModel,
    ...providerDefaults(provider),
    provider,
    pattern: model.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
    retention: 'episode',
    fallback: true,
  };
}

/**
 * The one profile lookup, used by every adapter and by the CLI. The profile of
 * `provider`/`model` is the first entry of `table` (default: the built-ins; put
 * your own rows in front of them) whose provider and pattern match; when none
 * matches, the fallback: conservative limits (128k context, 8,192 output tokens,
 * no caching), overlaid with what a known provider fixes for all its models, and
 * no reasoning sent back across episodes; it has `fallback: true`. `overrides`
 * apply last, field by field (the provider is never overridden).
 */
export function resolveProfile(
  provider: string,
  model: string,
  overrides: Partial<ModelProfile> = {},
  table: readonly ModelProfile[] = builtinProfiles,
): ModelProfile {
  const found = findProfile(table, provider, model) ?? fallbackProfile(provider, model);
  return { ...found, ...overrides, provider: found.provider };
}

export type { AnthropicModelProfile, AnthropicProfileFields, AnthropicThinkingSetting } from './anthropic.js';
export type { GoogleModelProfile, GoogleProfileFields, GoogleThinkingLevel, GoogleThinkingSetting } from './google.js';
export type { OpenAIProfile, OpenAIProfileFields } from './openai.js';
export type { CompatibleProfile, CompatibleProfileFields, ContentReasoning, EffortParameter } from './openai-compatible.js';
export { type CompatibleHost, compatibleHosts } from './compatible-hosts.js';
export { findModelFamily, type ModelFamily, modelFamilies, normalizeModelId } from './model-families.js';
export { pricesCollected } from './prices-collected.js';
