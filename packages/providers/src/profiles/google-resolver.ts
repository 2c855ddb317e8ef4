/**
 * The profile a Google adapter runs with: the table entry for the model, user
 * overrides on top, and Google-specific fields checked and defaulted.
 */
import type { ModelProfile } from '@episodic/core';
import type { GoogleModelProfile, GoogleThinkingSetting } from './google.js';
import { resolveProfile } from './index.js';

const defaultPlaceholder = 'skip_thought_signature_validator';

function isThinkingSetting(value: unknown): value is GoogleThinkingSetting {
  if (typeof value !== 'object' || value === null) return false;
  const setting = value as Record<string, unknown>;
  return typeof setting.budget === 'number' || typeof setting.level === 'string' || setting.off === true;
}

/** Resolves the profile for `model`; `thinking` overrides the profile's thinking setting. */
export function resolveGoogleProfile(
  model: string,
  overrides: Partial<ModelProfile> = {},
  thinking?: GoogleThinkingSetting,
): GoogleModelProfile {
  const profile = resolveProfile('google', model, overrides);
  const chosen = thinking ?? profile.thinking;
  return {
    ...profile,
    thinking: isThinkingSetting(chosen) ? chosen : { level: 'high', includeThoughts: true },
    functionCallSignatures: profile.functionCallSignatures === 'optional' ? 'optional' : 'required',
    placeholderSignature:
      typeof profile.placeholderSignature === 'string' ? profile.placeholderSignature : defaultPlaceholder,
  };
}
