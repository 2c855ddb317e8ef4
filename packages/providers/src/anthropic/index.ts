/** The Anthropic Messages API adapter. */
export {
  type AnthropicAdapter,
  type AnthropicAdapterOptions,
  createAnthropicAdapter,
  type PreparedAnthropicRequest,
} from './anthropic-adapter.js';
