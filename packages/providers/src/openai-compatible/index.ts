/** The OpenAI-compatible adapter, driven by model profiles. */
export {
  createOpenAICompatibleAdapter,
  type OpenAICompatibleAdapter,
  type OpenAICompatibleAdapterOptions,
  type OpenAICompatibleCallSettings,
} from './openai-compatible-adapter.js';
export { resolveCompatibleProfile } from './openai-compatible-profile.js';
export { type CompatibleCapabilities, resolveCompatibleCapabilities } from './openai-compatible-capabilities.js';
export { withWrappedErrorBodies } from './openai-compatible-error.js';
