/**
 * @episodic/providers/internal: pieces this repository's tests and sibling
 * packages use that are not part of the public API (no compatibility promise;
 * they may change in any release). Applications use `@episodic/providers`.
 *
 * - The wire-typed profile resolvers (each is `resolveProfile` plus its wire's
 *   fields checked and defaulted), to test what an adapter will run with.
 * - The built-in profile tables per family (`builtinProfiles` is all of them).
 * - The error classification table and its lookup, one sample per row, with the
 *   retry-after, connection and abort helpers (`@episodic/ai-sdk` maps AI SDK errors with them).
 * - When the built-in prices were collected (the CLI's budget report states it).
 */
export { resolveAnthropicProfile } from './profiles/anthropic-resolver.js';
export { resolveGoogleProfile } from './profiles/google-resolver.js';
export { resolveCompatibleProfile } from './profiles/openai-compatible-resolver.js';
export { resolveOpenAIProfile } from './profiles/openai-resolver.js';
export { anthropicProfiles } from './profiles/anthropic.js';
export { googleProfiles } from './profiles/google.js';
export { openaiProfiles } from './profiles/openai.js';
export { openaiCompatibleProfiles } from './profiles/openai-compatible.js';
export { pricesCollected } from './profiles/prices-collected.js';
export {
  abortedError,
  classifyModelError,
  connectionFailure,
  type ErrorRule,
  errorRules,
  matchErrorRule,
  parseRetryAfter,
  type ProviderFailure,
} from './shared/error-classification.js';
