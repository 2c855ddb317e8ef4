/**
 * @episodic/providers: the model profile table with its one lookup,
 * {@link resolveProfile}, the shape every adapter has ({@link ProviderAdapter}),
 * and the JSON Schema normalisers for OpenAI strict mode and Gemini. No vendor
 * SDK is loaded here.
 *
 * The adapters are one entry point per vendor SDK, each SDK an optional peer
 * dependency the application installs for the providers it uses:
 * `@episodic/providers/openai` (Responses and Chat Completions, `openai`),
 * `@episodic/providers/anthropic` (`@anthropic-ai/sdk`), `@episodic/providers/google`
 * (`@google/genai`) and `@episodic/providers/openai-compatible` (`openai`). What the
 * repository's tests and sibling packages need beyond these is in
 * `@episodic/providers/internal`.
 */
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
  type GoogleThinkingLevel,
  type GoogleThinkingSetting,
  type ModelFamily,
  modelFamilies,
  normalizeModelId,
  type OpenAIProfile,
  type OpenAIProfileFields,
  resolveProfile,
} from './profiles/index.js';
export { MissingApiKeyError } from './shared/missing-api-key-error.js';
export type { ToolCallIdRule } from './shared/tool-call-id.js';
export type { AdapterWarning, PreparedRequest, ProviderAdapter } from './shared/provider-adapter.js';
export {
  checkGeminiSchema,
  checkOpenAIStrictSchema,
  type JsonSchema,
  type SchemaViolation,
  toGeminiSchema,
  toOpenAIStrictSchema,
  UnsupportedSchemaError,
} from '@episodic/core/schema';
