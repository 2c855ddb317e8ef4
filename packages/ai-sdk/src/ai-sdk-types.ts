/**
 * The AI SDK's language-model contract, both versions this package speaks: `v3`
 * (`ai@6`, `@ai-sdk/provider@3`) and `v4` (`ai@7`, `@ai-sdk/provider@4`). The two
 * prompts differ only in a few part shapes (file data, custom and reasoning-file
 * parts), so the converters read parts by their `type` and keep the rest verbatim.
 */
import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Message,
  LanguageModelV3StreamPart,
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4Message,
  LanguageModelV4StreamPart,
} from '@ai-sdk/provider';

/** An AI SDK language model of either version (what `@ai-sdk/*` providers return). */
export type AISDKLanguageModel = LanguageModelV3 | LanguageModelV4;
/** The options of one AI SDK model call, either version. */
export type AISDKCallOptions = LanguageModelV3CallOptions | LanguageModelV4CallOptions;
/** One message of an AI SDK model prompt, either version. */
export type AISDKMessage = LanguageModelV3Message | LanguageModelV4Message;
/** One part of an AI SDK model stream, either version. */
export type AISDKStreamPart = LanguageModelV3StreamPart | LanguageModelV4StreamPart;
/** The AI SDK's per-provider options (`providerOptions`) and metadata (`providerMetadata`): provider name to fields. */
export type AISDKProviderOptions = Record<string, Record<string, unknown>>;

/** The specification version of a model: it decides the shape of file data in the prompts built for it. */
export type SpecVersion = 'v3' | 'v4';

/**
 * A prompt part as the converters read it: a `type`, maybe `providerOptions`, and
 * fields they copy without looking.
 */
export interface LoosePart {
  type: string;
  providerOptions?: AISDKProviderOptions;
  [field: string]: unknown;
}

/** A prompt message as the converters read it. */
export interface LooseMessage {
  role: string;
  content: string | LoosePart[];
  providerOptions?: AISDKProviderOptions;
  [field: string]: unknown;
}
