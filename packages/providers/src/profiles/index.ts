/**
 * The model profile table: every built-in family in one list, looked up by
 * provider and model pattern, with user overrides on top (DESIGN.md, "Reasoning
 * profiles"). A family is one file and one line below.
 */
import { type ModelProfile } from '@episodic/core';
import { findProfile } from '@episodic/core/internal';
import { anthropicProfiles } from './anthropic.js';
import { googleProfiles } from './google.js';
import { openaiProfiles } from './openai.js';
import { openaiCompatibleProfiles } from './openai-compatible.js';

/** Every built-in profile; within a family the first matching pattern wins. */
export const builtinProfiles: readonly ModelProfile[] = [
  ...anthropicProfiles,
  ...googleProfiles,
  ...openaiProfiles,
  ...openaiCompatibleProfiles,
];

/** Used when no profile matches: conservative limits, no reasoning sent back across episodes. */
export function fallbackProfile(provider: string, model: string): ModelProfile {
  return {
    provider,
    pattern: model.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
    contextWindow: 128_000,
    maxOutputTokens: 8192,
    retention: 'episode',
    cacheStyle: 'none',
    minCacheableTokens: Number.POSITIVE_INFINITY,
    tokenizerFactor: 1.2,
  };
}

/**
 * The profile for a provider and model: the first matching entry of `table`
 * (default: the built-ins, or user profiles placed in front of them), with
 * `overrides` applied field by field.
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
export { anthropicProfiles } from './anthropic.js';
export type { GoogleModelProfile, GoogleProfileFields, GoogleThinkingSetting } from './google.js';
export { googleProfiles } from './google.js';
export { type OpenAIProfile, type OpenAIProfileFields, openaiProfiles, resolveOpenAIProfile } from './openai.js';
export {
  type CompatibleProfile,
  type CompatibleProfileFields,
  type ContentReasoning,
  type EffortParameter,
  openaiCompatibleProfiles,
} from './openai-compatible.js';
