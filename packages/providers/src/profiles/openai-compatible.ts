/**
 * Model profiles for OpenAI-compatible Chat Completions servers, as data: where
 * each family puts reasoning, whether and how it goes back, the paired request
 * flags, and where the key and base URL come from. Facts: docs/providers.md,
 * "OpenAI-compatible endpoints". Values marked "unverified" could not be confirmed;
 * override them per profile (`createOpenAICompatibleAdapter({ profile: {...} })`).
 */
import type { ModelProfile, ReasoningField } from '@episodic/core';

/** How a reasoning effort is put on the wire. */
export type EffortParameter = 'reasoning_effort' | 'reasoning.effort' | 'none';

/** Where reasoning hides inside `content`, when it does. */
export type ContentReasoning = 'think-tags' | 'harmony' | 'none';

/** Fields a compatible profile adds to `ModelProfile`. */
export interface CompatibleProfileFields {
  /** Delta/message field the server streams reasoning in (`think-tags`: inside `content`). */
  reasoningField: ReasoningField;
  /** Where reasoning goes back; `none` = never (the server rejects it). */
  sendReasoningAs: ReasoningField;
  /** The server rejects an assistant tool-call message without the reasoning field. */
  reasoningRequiredOnToolCalls?: boolean;
  /** Drop reasoning before the latest final answer (Harmony: analysis ends at `final`). */
  reasoningUntilFinal?: boolean;
  /** Reasoning inside `content`, split out by a core splitter. */
  contentReasoning?: ContentReasoning;
  /** Body fields sent with every request (the paired flags of the table). */
  requestFlags?: Record<string, unknown>;
  effortParameter: EffortParameter;
  /** Body field for the output limit. */
  maxTokensField: 'max_tokens' | 'max_completion_tokens';
  /** Environment variables the API key is read from, first set wins. */
  apiKeyEnv: readonly string[];
  /** Local servers (Ollama, vLLM) need no key: a placeholder is sent when none is set. */
  apiKeyOptional?: boolean;
  baseURL: string;
}

/** A profile of a model behind an OpenAI-compatible server. */
export type CompatibleProfile = ModelProfile & CompatibleProfileFields;

/** The fields a host row fixes (Omit would lose them to ModelProfile's index signature). */
type Host = CompatibleProfileFields &
  Pick<ModelProfile, 'provider' | 'retention' | 'cacheStyle' | 'minCacheableTokens' | 'tokenizerFactor'>;

const defaults = {
  retention: 'episode',
  cacheStyle: 'openai-prefix',
  minCacheableTokens: 1024,
  // Tokenizers other than o200k count more tokens for the same text.
  tokenizerFactor: 1.15,
  effortParameter: 'none',
  maxTokensField: 'max_tokens',
  contentReasoning: 'none',
} as const;

type HostName =
  | 'deepseek'
  | 'zai'
  | 'moonshot'
  | 'minimax'
  | 'openrouter'
  | 'groq'
  | 'cerebras'
  | 'fireworks'
  | 'ollama'
  | 'vllm';

/** Provider hosts: one row each. */
const hosts: Record<HostName, Host> = {
  deepseek: {
    ...defaults,
    provider: 'deepseek',
    apiKeyEnv: ['DEEPSEEK_API_KEY'],
    baseURL: 'https://api.deepseek.com',
    reasoningField: 'reasoning_content',
    sendReasoningAs: 'reasoning_content',
    cacheStyle: 'openai-prefix',
    minCacheableTokens: 64,
  },
  zai: {
    ...defaults,
    provider: 'zai',
    apiKeyEnv: ['ZAI_API_KEY', 'Z_AI_API_KEY'],
    baseURL: 'https://api.z.ai/api/paas/v4',
    reasoningField: 'reasoning_content',
    sendReasoningAs: 'reasoning_content',
  },
  moonshot: {
    ...defaults,
    provider: 'moonshot',
    apiKeyEnv: ['MOONSHOT_API_KEY', 'KIMI_API_KEY'],
    baseURL: 'https://api.moonshot.ai/v1',
    reasoningField: 'reasoning_content',
    sendReasoningAs: 'reasoning_content',
  },
  minimax: {
    ...defaults,
    provider: 'minimax',
    apiKeyEnv: ['MINIMAX_API_KEY'],
    baseURL: 'https://api.minimax.io/v1',
    reasoningField: 'think-tags',
    sendReasoningAs: 'think-tags',
    contentReasoning: 'think-tags',
  },
  openrouter: {
    ...defaults,
    provider: 'openrouter',
    apiKeyEnv: ['OPENROUTER_API_KEY'],
    baseURL: 'https://openrouter.ai/api/v1',
    reasoningField: 'reasoning',
    sendReasoningAs: 'reasoning_details',
    effortParameter: 'reasoning.effort',
  },
  groq: {
    ...defaults,
    provider: 'groq',
    apiKeyEnv: ['GROQ_API_KEY'],
    baseURL: 'https://api.groq.com/openai/v1',
    reasoningField: 'reasoning',
    sendReasoningAs: 'reasoning',
    requestFlags: { reasoning_format: 'parsed' },
    effortParameter: 'reasoning_effort',
  },
  cerebras: {
    ...defaults,
    provider: 'cerebras',
    apiKeyEnv: ['CEREBRAS_API_KEY'],
    baseURL: 'https://api.cerebras.ai/v1',
    reasoningField: 'reasoning',
    sendReasoningAs: 'reasoning',
    requestFlags: { reasoning_format: 'parsed' },
    effortParameter: 'reasoning_effort',
  },
  fireworks: {
    ...defaults,
    provider: 'fireworks',
    apiKeyEnv: ['FIREWORKS_API_KEY'],
    baseURL: 'https://api.fireworks.ai/inference/v1',
    reasoningField: 'reasoning_content',
    sendReasoningAs: 'reasoning_content',
    // Flag name from docs/providers.md; its value is unverified.
    requestFlags: { reasoning_history: 'preserved' },
    effortParameter: 'reasoning_effort',
  },
  ollama: {
    ...defaults,
    provider: 'ollama',
    apiKeyEnv: ['OLLAMA_API_KEY'],
    apiKeyOptional: true,
    baseURL: 'http://127.0.0.1:11434/v1',
    // The OpenAI-compatible endpoint (/v1) streams `reasoning` and took it back on an
    // assistant message in recorded traffic; `thinking` is the native API's field.
    reasoningField: 'reasoning',
    sendReasoningAs: 'reasoning',
    requestFlags: { think: true },
    cacheStyle: 'none',
  },
  vllm: {
    ...defaults,
    provider: 'vllm',
    apiKeyEnv: ['VLLM_API_KEY'],
    apiKeyOptional: true,
    baseURL: 'http://127.0.0.1:8000/v1',
    // Older vLLM versions used `reasoning_content`; both are read.
    reasoningField: 'reasoning',
    sendReasoningAs: 'reasoning',
    cacheStyle: 'none',
  },
};

/** gpt-oss on any host: Harmony analysis exposed as `reasoning`, dropped once a final answer exists. */
const gptOss = (host: Host): CompatibleProfile => ({
  ...host,
  pattern: '(openai/)?gpt-oss-.*',
  contextWindow: 131_072,
  maxOutputTokens: 32_768,
  reasoningField: 'reasoning',
  sendReasoningAs: 'reasoning',
  reasoningUntilFinal: true,
  effortParameter: host.effortParameter === 'none' ? 'reasoning_effort' : host.effortParameter,
});

/** DeepSeek's list price for every current model (https://api-docs.deepseek.com/quick_start/pricing; see `prices-collected.ts`). */
const deepseekPricing = { input: 0.28, cachedInput: 0.028, output: 0.42 };

/** Every compatible profile; within a provider the first matching pattern wins. */
export const openaiCompatibleProfiles: readonly CompatibleProfile[] = [
  {
    // `deepseek-reasoner` is now served by the thinking model (recorded traffic: it
    // answers as `deepseek-v4-flash`, makes tool calls, and the follow-up the API
    // accepted carried `reasoning_content` on each tool-call message). Without it the
    // API answers 400 "The `reasoning_content` in the thinking mode must be passed
    // back to the API." The alias needs no `thinking` flag (the recorded requests sent none).
    ...hosts.deepseek,
    pattern: 'deepseek-reasoner',
    contextWindow: 128_000,
    maxOutputTokens: 64_000,
    retention: 'tool-episodes',
    reasoningRequiredOnToolCalls: true,
    pricing: deepseekPricing,
  },
  {
    // Open-weight R1 names: reasoning is display-only; sending it back is a 400 (docs/providers.md).
    ...hosts.deepseek,
    pattern: 'deepseek-r1(-.*)?',
    contextWindow: 65_536,
    maxOutputTokens: 32_768,
    retention: 'none',
    sendReasoningAs: 'none',
  },
  {
    // Thinking mode (V3.2, V4): the reasoning of every assistant message that made
    // tool calls must go back.
    ...hosts.deepseek,
    pattern: 'deepseek-(v3\\.[2-9].*|v4.*)',
    contextWindow: 128_000,
    maxOutputTokens: 64_000,
    retention: 'tool-episodes',
    reasoningRequiredOnToolCalls: true,
    requestFlags: { thinking: { type: 'enabled' } },
    pricing: deepseekPricing,
  },
  {
    ...hosts.deepseek,
    pattern: 'deepseek-chat',
    contextWindow: 128_000,
    maxOutputTokens: 8_192,
    sendReasoningAs: 'none',
    pricing: deepseekPricing,
  },
  {
    // Preserved Thinking: with `clear_thinking: false` the server keeps earlier turns' reasoning in context.
    ...hosts.zai,
    pattern: 'glm-.*',
    contextWindow: 200_000,
    maxOutputTokens: 128_000,
    retention: 'all',
    requestFlags: { thinking: { type: 'enabled', clear_thinking: false } },
  },
  {
    ...hosts.moonshot,
    pattern: 'kimi-k2\\.7-code.*',
    contextWindow: 262_144,
    maxOutputTokens: 65_536,
    retention: 'all',
    reasoningRequiredOnToolCalls: true,
    // `keep` values are unverified; this model keeps all reasoning.
    requestFlags: { thinking: { type: 'enabled', keep: 'all' } },
  },
  {
    ...hosts.moonshot,
    pattern: 'kimi-k2.*',
    contextWindow: 262_144,
    maxOutputTokens: 65_536,
    retention: 'tool-episodes',
    reasoningRequiredOnToolCalls: true,
    requestFlags: { thinking: { type: 'enabled', keep: 'tool-calls' } },
  },
  { ...hosts.minimax, pattern: '(MiniMax-)?M2.*|minimax-m2.*', contextWindow: 204_800, maxOutputTokens: 131_072 },
  { ...hosts.openrouter, pattern: '.*', contextWindow: 128_000, maxOutputTokens: 32_768 },
  gptOss(hosts.groq),
  { ...hosts.groq, pattern: 'qwen/qwen3.*', contextWindow: 131_072, maxOutputTokens: 40_960 },
  {
    // Groq refuses `reasoning_format` and `reasoning_effort` for models that do not
    // reason ("`reasoning_format` is not supported with this model";
    // https://console.groq.com/docs/reasoning#supported-models).
    ...hosts.groq,
    pattern: '.*',
    contextWindow: 131_072,
    maxOutputTokens: 32_768,
    requestFlags: {},
    effortParameter: 'none',
  },
  gptOss(hosts.cerebras),
  { ...hosts.cerebras, pattern: '.*', contextWindow: 131_072, maxOutputTokens: 32_768 },
  { ...hosts.fireworks, pattern: '.*', contextWindow: 131_072, maxOutputTokens: 32_768 },
  gptOss(hosts.ollama),
  { ...hosts.ollama, pattern: '.*', contextWindow: 32_768, maxOutputTokens: 8_192 },
  gptOss(hosts.vllm),
  { ...hosts.vllm, pattern: '.*', contextWindow: 32_768, maxOutputTokens: 8_192 },
];

/**
 * What a known compatible host fixes for every model (base URL, key variables,
 * wire fields, cache): the fallback's provider fields for a model without a row.
 * Such a model gets no reasoning back, the safe choice for a model nobody has checked.
 */
export function compatibleHostDefaults(provider: string): Partial<CompatibleProfile> | undefined {
  if (!Object.hasOwn(hosts, provider)) return undefined;
  return { ...hosts[provider as HostName], sendReasoningAs: 'none', reasoningRequiredOnToolCalls: false };
}
