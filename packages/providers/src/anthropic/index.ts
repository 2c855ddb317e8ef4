/** The Anthropic Messages API adapter. */
export { AnthropicAdapter, type AnthropicAdapterOptions, createAnthropicAdapter } from './anthropic-adapter.js';
export { mapAnthropicError } from './anthropic-error.js';
export { resolveAnthropicProfile } from './anthropic-profile.js';
