/**
 * `thinkingConfig` from the profile (https://ai.google.dev/gemini-api/docs/thinking):
 * a budget (2.5) or a level (3), never both (the API answers 400).
 */
import { type ThinkingConfig, ThinkingLevel } from '@google/genai';
import type { GoogleThinkingSetting } from '../profiles/google.js';

const levels: Record<string, ThinkingLevel> = {
  minimal: ThinkingLevel.MINIMAL,
  low: ThinkingLevel.LOW,
  medium: ThinkingLevel.MEDIUM,
  high: ThinkingLevel.HIGH,
};

/** The config to send, or undefined to leave thinking at the model's default. */
export function buildThinkingConfig(setting: GoogleThinkingSetting): ThinkingConfig | undefined {
  if ('off' in setting) return undefined;
  const includeThoughts = setting.includeThoughts ?? true;
  if ('level' in setting) return { includeThoughts, thinkingLevel: levels[setting.level] ?? ThinkingLevel.HIGH };
  return { includeThoughts, thinkingBudget: setting.budget };
}
