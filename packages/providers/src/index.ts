/**
 * @episodic/providers: model adapters over the official SDKs, one folder per
 * wire API, all of one shape (`create<Wire>Adapter(options)` returning a
 * {@link ProviderAdapter}), and the model profile table with its one lookup,
 * {@link resolveProfile}. Named exports only; what the repository's tests and
 * sibling packages need beyond these is in `@episodic/providers/internal`.
 */
export {
  type AnthropicAdapter,
  type AnthropicAdapterOptions,
  createAnthropicAdapter,
  type PreparedAnthropicRequest,
} from './anthropic/index.js';
export { createGoogleAdapter, type GoogleAdapter, type GoogleAdapterOptions } from './google/index.js';
export {
  ChatToolsNeedResponsesError,
  createOpenAIChatAdapter,
  type OpenAIChatAdapter,
  type OpenAIChatAdapterOptions,
  type OpenAIChatCallSettings,
} from './openai-chat/index.js';
export {
  createOpenAICompatibleAdapter,
  type OpenAICompatibleAdapter,
  type OpenAICompatibleAdapterOptions,
  type OpenAICompatibleCallSettings,
} from './openai-compatible/index.js';
export {
  createOpenAIResponsesAdapter,
  type OpenAIReasoningEffort,
  type OpenAIReasoningSummary,
  type OpenAIResponsesAdapter,
  type OpenAIResponsesAdapterOptions,
  type OpenAIResponsesCallSettings,
} from './openai-responses/index.js';
export {
  type AnthropicModelProfile,
  type AnthropicProfileFields,
  type AnthropicThinkingSetting,
  builtinProfiles,
  type CompatibleHost,
  compatibleHosts,
  type CompatibleProfile,
  type CompatibleProfileFields,
  type ContentReasoning,
  type EffortParameter,
  findModelFamily,
  type GoogleModelProfile,
  type GoogleProfileFields,
  type GoogleThinkingSetting,
  type ModelFamily,
  modelFamilies,
  normalizeModelId,
  type OpenAIProfile,
  type OpenAIProfileFields,
  pricesCollected,
  resolveProfile,
} from './profiles/index.js';
export { MissingApiKeyError } from './shared/missing-api-key-error.js';
export type { ToolCallIdRule } from './shared/tool-call-id.js';
export type { AdapterWarning, PreparedRequest, ProviderAdapter } from './shared/provider-adapter.js';
