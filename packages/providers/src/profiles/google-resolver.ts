/**
 * The profile a Google adapter runs with: the table entry for the model, user
 * overrides on top, and Google-specific fields checked and defaulted.
 */
import { InvalidArgumentError, type ModelProfile } from '@episodic/core';
import type { GoogleModelProfile, GoogleThinkingLevel, GoogleThinkingSetting } from './google.js';
import { resolveProfile } from './index.js';

const defaultPlaceholder = 'skip_thought_signature_validator';

function isThinkingSetting(value: unknown): value is GoogleThinkingSetting {
  if (typeof value !== 'object' || value === null) return false;
  const setting = value as Record<string, unknown>;
  return typeof setting.budget === 'number' || typeof setting.level === 'string' || setting.off === true;
}

const knownLevels: readonly GoogleThinkingLevel[] = ['minimal', 'low', 'medium', 'high', 'xhigh'];
/** Levels any model with a thinking level may take when its profile lists none. */
const unlistedLevels: readonly GoogleThinkingLevel[] = ['minimal', 'low', 'medium', 'high'];

/**
 * Throws an `InvalidArgumentError` when `setting` names a level `model` does not take:
 * one outside the profile's `thinkingLevels`, or, where the profile lists none, `xhigh`
 * (documented for Gemini 4 Hydrogen only) or a name that is no level at all. The API
 * would refuse every request (`Thinking level XHIGH is not supported for this model.`).
 */
function checkThinkingLevel(model: string, setting: GoogleThinkingSetting, listed: readonly GoogleThinkingLevel[] | undefined): void {
  if (!('level' in setting)) return;
  const taken = listed ?? unlistedLevels;
  if (taken.includes(setting.level)) return;
  const what = knownLevels.includes(setting.level) ? `not taken by ${model}` : 'not a thinking level';
  const hint = listed ? '' : ' (its profile lists no levels: set profile.thinkingLevels where Google documents more)';
  throw new InvalidArgumentError(
    `google: thinking level ${JSON.stringify(setting.level)} is ${what}; ${model} takes ${taken.join(', ')}${hint}.`,
  );
}

/**
 * Resolves the profile for `model`; `thinking` overrides the profile's thinking setting.
 * Throws an `InvalidArgumentError` for a thinking level the model does not take.
 */
export function resolveGoogleProfile(
  model: string,
  overrides: Partial<ModelProfile> = {},
  thinking?: GoogleThinkingSetting,
): GoogleModelProfile {
  const profile = resolveProfile('google', model, overrides);
  const chosen = thinking ?? profile.thinking;
  const setting: GoogleThinkingSetting = isThinkingSetting(chosen) ? chosen : { level: 'high', includeThoughts: true };
  const thinkingLevels = Array.isArray(profile.thinkingLevels) ? (profile.thinkingLevels as GoogleThinkingLevel[]) : undefined;
  checkThinkingLevel(model, setting, thinkingLevels);
  return {
    ...profile,
    thinking: setting,
    ...(thinkingLevels ? { thinkingLevels } : {}),
    functionCallSignatures: profile.functionCallSignatures === 'optional' ? 'optional' : 'required',
    placeholderSignature:
      typeof profile.placeholderSignature === 'string' ? profile.placeholderSignature : defaultPlaceholder,
  };
}
