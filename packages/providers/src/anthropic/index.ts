/** The Anthropic Messages API adapter. */
export {
  type AnthropicAdapter,
  type AnthropicAdapterOptions,
  createAnthropicAdapter,
  type PreparedAnthropicRequest,
} from './anthropic-adapter.js';
export { mapAnthropicError } from './anthropic-error.js';
export { resolveAnthropicProfile } from './anthropic-profile.js';
