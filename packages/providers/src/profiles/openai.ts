/**
 * Model profiles for OpenAI's own API (Responses and Chat Completions), as data.
 * Facts: docs/providers.md, "OpenAI Responses API" and "OpenAI Chat Completions".
 *
 * @see https://platform.openai.com/docs/models
 * @see https://platform.openai.com/docs/guides/reasoning
 */
import type { ModelProfile } from '@episodic/core';

/** Fields an OpenAI profile adds to `ModelProfile`. */
export interface OpenAIProfileFields {
  /** The model produces reasoning (accepts `reasoning.effort` / `reasoning_effort`). */
  reasoning: boolean;
  /**
   * Chat Completions rejects function tools together with a reasoning effort other
   * than `none` for this model and points to Responses. The Chat adapter then fails
   * before sending, instead of silently dropping the effort or switching endpoints.
   */
  chatToolsNeedResponses?: boolean;
  /** Environment variable the API key is read from. */
  apiKeyEnv: string;
  /** Default base URL. */
  baseURL: string;
}

/** A profile of an OpenAI model. */
export type OpenAIProfile = ModelProfile & OpenAIProfileFields;

const common = {
  provider: 'openai',
  retention: 'episode',
  cacheStyle: 'openai-prefix',
  // Automatic prompt caching starts at 1024 prompt tokens on both endpoints.
  minCacheableTokens: 1024,
  tokenizerFactor: 1,
  // Reasoning items from before the last user message are dropped by the API, not billed.
  pastReasoning: 'stripped',
  // In-memory cached prefixes live 5 to 10 minutes without a hit, up to an hour off-peak
  // (https://platform.openai.com/docs/guides/prompt-caching; GPT-5.6 and later at least 30
  // minutes). The packer takes a prefix as cold only when it surely is: after the hour.
  cacheTtlSeconds: 3600,
  apiKeyEnv: 'OPENAI_API_KEY',
  baseURL: 'https://api.openai.com/v1',
  // Both endpoints take a json_schema answer format (Responses text.format, Chat response_format).
  structuredOutput: 'native',
  // Responses server-side compaction (`context_management`), also with `store: false`
  // (https://developers.openai.com/api/docs/guides/compaction, checked Dec 2026: "ZDR-friendly
  // when you set store=false"); the guide names no model it excludes. `hybrid` by default:
  // it cost less than `packer` in `npm run bench -- context-policies` (README). Chat
  // Completions has no such field, and its adapter drops both.
  contextPolicy: 'hybrid',
  nativeContext: { compaction: {} },
} as const;

/** What OpenAI fixes for every model: the fallback's provider fields (the table's last row also catches every id). */
export const openaiDefaults: Partial<OpenAIProfile> = { ...common, reasoning: false, contextPolicy: 'packer' };

/**
 * OpenAI models, most specific pattern first (the first match wins). Prices in USD
 * per million tokens (https://platform.openai.com/docs/pricing; see `prices-collected.ts`).
 */
export const openaiProfiles: readonly OpenAIProfile[] = [
  {
    ...common,
    // The gpt-5.6 family renders earlier turns' reasoning that is sent back: `reasoning.context`
    // defaults to `all_turns` on it, `current_turn` before it (openai-node `Reasoning.context`,
    // v6.49; the Conversation state guide, checked Dec 2026). So past reasoning sent is read,
    // billed as input and part of the cached prefix. The episode rule drops it at the user
    // boundary and no `reasoning.context` is sent (docs/providers.md: the two choices measured
    // alike under the default packing); `nativeContext.reasoningContext` sends one under the
    // `native` policy (`hybrid`, the default here, sends only compaction and warns of it).
    pattern: 'gpt-5\\.([6-9]|\\d{2,})(-.*)?',
    pastReasoning: 'billed',
    contextWindow: 400_000,
    maxOutputTokens: 128_000,
    reasoning: true,
    chatToolsNeedResponses: true,
    // The prices of the gpt-5.2+ row this one was split from (prices-collected.ts).
    pricing: { input: 1.75, cachedInput: 0.175, output: 14 },
  },
  {
    ...common,
    // gpt-5.2 onwards: "Function tools with reasoning_effort are not supported for
    // <model> in /v1/chat/completions" (400), even when the effort is the default.
    pattern: 'gpt-5\\.([2-9]|\\d{2,})(-.*)?',
    contextWindow: 400_000,
    maxOutputTokens: 128_000,
    reasoning: true,
    chatToolsNeedResponses: true,
    pricing: { input: 1.75, cachedInput: 0.175, output: 14 },
  },
  {
    // GPT-5 Chat does not reason: it refuses `reasoning` settings and encrypted reasoning.
    ...common,
    pattern: 'gpt-5-chat(-.*)?',
    contextWindow: 128_000,
    maxOutputTokens: 16_384,
    reasoning: false,
    pricing: { input: 1.25, cachedInput: 0.125, output: 10 },
  },
  {
    ...common,
    pattern: 'gpt-5(\\.1)?-mini(-.*)?',
    contextWindow: 400_000,
    maxOutputTokens: 128_000,
    reasoning: true,
    pricing: { input: 0.25, cachedInput: 0.025, output: 2 },
  },
  {
    ...common,
    pattern: 'gpt-5(\\.1)?-nano(-.*)?',
    contextWindow: 400_000,
    maxOutputTokens: 128_000,
    reasoning: true,
    pricing: { input: 0.05, cachedInput: 0.005, output: 0.4 },
  },
  {
    ...common,
    pattern: 'gpt-5(\\.1)?(-.*)?',
    contextWindow: 400_000,
    maxOutputTokens: 128_000,
    reasoning: true,
    pricing: { input: 1.25, cachedInput: 0.125, output: 10 },
  },
  {
    ...common,
    pattern: 'o4-mini(-.*)?',
    contextWindow: 200_000,
    maxOutputTokens: 100_000,
    reasoning: true,
    pricing: { input: 1.1, cachedInput: 0.275, output: 4.4 },
  },
  {
    ...common,
    pattern: 'o3(-.*)?',
    contextWindow: 200_000,
    maxOutputTokens: 100_000,
    reasoning: true,
    pricing: { input: 2, cachedInput: 0.5, output: 8 },
  },
  {
    ...common,
    pattern: 'o4(-.*)?',
    contextWindow: 200_000,
    maxOutputTokens: 100_000,
    reasoning: true,
  },
  {
    ...common,
    pattern: 'gpt-4\\.1-mini(-.*)?',
    contextWindow: 1_047_576,
    maxOutputTokens: 32_768,
    reasoning: false,
    pricing: { input: 0.4, cachedInput: 0.1, output: 1.6 },
  },
  {
    ...common,
    pattern: 'gpt-4\\.1-nano(-.*)?',
    contextWindow: 1_047_576,
    maxOutputTokens: 32_768,
    reasoning: false,
    pricing: { input: 0.1, cachedInput: 0.025, output: 0.4 },
  },
  {
    ...common,
    pattern: 'gpt-4\\.1(-.*)?',
    contextWindow: 1_047_576,
    maxOutputTokens: 32_768,
    reasoning: false,
    pricing: { input: 2, cachedInput: 0.5, output: 8 },
  },
  {
    ...common,
    pattern: 'gpt-4o-mini(-.*)?',
    contextWindow: 128_000,
    maxOutputTokens: 16_384,
    reasoning: false,
    pricing: { input: 0.15, cachedInput: 0.075, output: 0.6 },
  },
  {
    ...common,
    pattern: 'gpt-4o(-.*)?',
    contextWindow: 128_000,
    maxOutputTokens: 16_384,
    reasoning: false,
    pricing: { input: 2.5, cachedInput: 1.25, output: 10 },
  },
  {
    // Anything else on the OpenAI API: conservative defaults, no reasoning assumed.
    ...common,
    pattern: '.*',
    contextWindow: 128_000,
    maxOutputTokens: 16_384,
    reasoning: false,
    // An unknown model may predate json_schema answers: ask through the final_answer tool.
    structuredOutput: 'tool',
    // Nor is it known to compact: the packer alone unless the agent asks for `hybrid`.
    contextPolicy: 'packer',
  },
];
