/**
 * The profile the OpenAI-compatible adapter runs with: the one profile
 * resolution over the compatible table, with the wire fields checked and
 * defaulted. A model of a known family (`model-families.ts`) without its own row
 * gets its family on whatever host serves it, in that host's fields; an unknown
 * host serving a strict family gets the family's own field. Any other model on
 * a provider the table does not know gets the safe wire: reasoning read from
 * `reasoning_content`, never sent back, no effort, `max_tokens`, and its key from
 * `<PROVIDER>_API_KEY`; its base URL must come from the options.
 */
import { findProfile } from '@episodic/core/internal';
import type { ModelProfile, ReasoningField } from '@episodic/core';
import { hostRow } from './compatible-hosts.js';
import { familyOnHost } from './family-on-host.js';
import { resolveProfile } from './index.js';
import { findModelFamily, type ModelFamily, modelFamilies } from './model-families.js';
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
  families: readonly ModelFamily[] = modelFamilies,
): CompatibleProfile {
  const profile = resolveByFamily(provider, model, overrides, families) ??
    resolveProfile(provider, model, overrides, openaiCompatibleProfiles);
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

/**
 * The family profile of `model` on `provider`, when the model belongs to a family
 * and has no row of its own (a host's catch-all row marked `familiesFirst` does
 * not count); undefined otherwise.
 */
function resolveByFamily(
  provider: string,
  model: string,
  overrides: Partial<CompatibleProfile>,
  families: readonly ModelFamily[],
): ModelProfile | undefined {
  const row = findProfile(openaiCompatibleProfiles, provider, model);
  if (row && row.familiesFirst !== true) return undefined;
  const family = findModelFamily(model, families);
  if (!family) return undefined;
  const found = familyOnHost(family, provider, model, hostRow(provider));
  return { ...found, ...overrides, provider: found.provider };
}
