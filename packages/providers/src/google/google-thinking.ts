/**
 * `thinkingConfig` from the profile (https://ai.google.dev/gemini-api/docs/thinking):
 * a budget (2.5) or a level (3 and later), never both (the API answers 400). A level the
 * model does not take never gets here: the profile resolver refuses it.
 */
import type { ThinkingConfig, ThinkingLevel } from '@google/genai';
import type { GoogleThinkingLevel, GoogleThinkingSetting } from '../profiles/google.js';

// The SDK's `ThinkingLevel` values written out: importing its enum would load the SDK with
// this file. `XHIGH` is in @google/genai 3's enum, not in 2's; the wire takes the string.
const levels: Record<GoogleThinkingLevel, ThinkingLevel> = {
  minimal: 'MINIMAL' as ThinkingLevel,
  low: 'LOW' as ThinkingLevel,
  medium: 'MEDIUM' as ThinkingLevel,
  high: 'HIGH' as ThinkingLevel,
  xhigh: 'XHIGH' as ThinkingLevel,
};

/**
 * The config to send. `off` is a zero budget: 2.5 Flash and Flash-Lite stop
 * thinking; models that always think (2.5 Pro, Gemini 3) answer 400 rather than
 * silently thinking (and billing) anyway.
 */
export function buildThinkingConfig(setting: GoogleThinkingSetting): ThinkingConfig | undefined {
  if ('off' in setting) return { thinkingBudget: 0 };
  const includeThoughts = setting.includeThoughts ?? true;
  if ('level' in setting) return { includeThoughts, thinkingLevel: levels[setting.level] };
  return { includeThoughts, thinkingBudget: setting.budget };
}
