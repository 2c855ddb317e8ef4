/**
 * The profile the OpenAI-compatible adapter runs with: the one profile
 * resolution over the compatible table, with the wire fields checked and
 * defaulted. A provider the table does not know gets the safe wire: reasoning
 * read from `reasoning_content`, never sent back, no effort, `max_tokens`, and
 * its key from `<PROVIDER>_API_KEY`; its base URL must come from the options.
 */
import type { ReasoningField } from '@episodic/core';
import { resolveProfile } from './index.js';
import {
  type CompatibleProfile,
  type EffortParameter,
  openaiCompatibleProfiles,
} from './openai-compatible.js';

const reasoningFields: readonly ReasoningField[] = [
  'reasoning_content',
  'reasoning',
  'reasoning_details',
  'think-tags',
  'thinking',
  'none',
];
const effortParameters: readonly EffortParameter[] = ['reasoning_effort', 'reasoning.effort', 'none'];

function oneOf<T extends string>(value: unknown, allowed: readonly T[], otherwise: T): T {
  return allowed.includes(value as T) ? (value as T) : otherwise;
}

/** The profile for a compatible `provider` and `model`, with the user's `overrides` applied. */
export function resolveCompatibleProfile(
  provider: string,
  model: string,
  overrides: Partial<CompatibleProfile> = {},
): CompatibleProfile {
  const profile = resolveProfile(provider, model, overrides, openaiCompatibleProfiles);
  const apiKeyEnv = Array.isArray(profile.apiKeyEnv) ? profile.apiKeyEnv.map(String) : [];
  return {
    ...profile,
    reasoningField: oneOf(profile.reasoningField, reasoningFields, 'reasoning_content'),
    sendReasoningAs: oneOf(profile.sendReasoningAs, reasoningFields, 'none'),
    effortParameter: oneOf(profile.effortParameter, effortParameters, 'none'),
    maxTokensField: profile.maxTokensField === 'max_completion_tokens' ? 'max_completion_tokens' : 'max_tokens',
    apiKeyEnv: apiKeyEnv.length > 0 ? apiKeyEnv : [`${provider.toUpperCase().replace(/[^A-Z0-9]/g, '_')}_API_KEY`],
    baseURL: typeof profile.baseURL === 'string' ? profile.baseURL : '',
  };
}
