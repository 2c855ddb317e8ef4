/**
 * `@episodic/ai-sdk`: Episodic for the Vercel AI SDK (`ai@6` and `ai@7`).
 *
 * - {@link episodicPacking}: a language-model middleware that packs every call of an
 *   AI SDK loop as an Episodic `Agent` packs its own: episodes split at user messages,
 *   reasoning kept within the current episode, the hard token budget, tool-call and
 *   result pairs, Anthropic cache breakpoints, readable cut results.
 * - {@link fromAISDK}: any AI SDK language model as an Episodic model adapter, for an
 *   Episodic `Agent` on any AI SDK provider.
 */
export { episodicPacking } from './packing-middleware.js';
export type { EpisodicPackingMiddleware, EpisodicPackingOptions, PackedEvent } from './packing-middleware.js';
export { fromAISDK } from './from-ai-sdk.js';
export type { FromAISDKOptions } from './from-ai-sdk.js';
export { READ_CUT_RESULT } from './cut-result-tool.js';
export type { ReadCutResultInput } from './cut-result-tool.js';
export { fromAISDKPrompt } from './from-ai-sdk-prompt.js';
export type { ConvertedMessage, ConvertedPrompt } from './from-ai-sdk-prompt.js';
export { toAISDKPrompt } from './to-ai-sdk-prompt.js';
export type { ConvertedMessages, PromptWarnings } from './to-ai-sdk-prompt.js';
export { modelRefOf, profileOf } from './model-profile-lookup.js';
export { AISDKConversionError } from './ai-sdk-error.js';
export type { AISDKConversionCode } from './ai-sdk-error.js';
export type { AISDKCallOptions, AISDKLanguageModel, AISDKMessage, AISDKProviderOptions, AISDKStreamPart, LooseMessage, LoosePart, SpecVersion } from './ai-sdk-types.js';
