/**
 * The profile an OpenAI adapter (Responses or Chat Completions) runs with: the
 * one profile resolution for `openai`, with the OpenAI fields checked and
 * defaulted (a user override or a user table row may leave them out).
 */
import type { OpenAIProfile } from './openai.js';
import { resolveProfile } from './index.js';

/** Resolves the profile for an OpenAI `model` with the user's `overrides`. */
export function resolveOpenAIProfile(model: string, overrides: Partial<OpenAIProfile> = {}): OpenAIProfile {
  const profile = resolveProfile('openai', model, overrides);
  return {
    ...profile,
    reasoning: profile.reasoning === true,
    ...(profile.chatToolsNeedResponses === true ? { chatToolsNeedResponses: true } : {}),
    apiKeyEnv: typeof profile.apiKeyEnv === 'string' ? profile.apiKeyEnv : 'OPENAI_API_KEY',
    baseURL: typeof profile.baseURL === 'string' ? profile.baseURL : 'https://api.openai.com/v1',
  };
}
