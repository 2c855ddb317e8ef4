/** The OpenAI-compatible adapter, driven by model profiles. */
export {
  createOpenAICompatibleAdapter,
  type OpenAICompatibleAdapter,
  type OpenAICompatibleAdapterOptions,
  type OpenAICompatibleCallSettings,
} from './openai-compatible-adapter.js';
