/**
 * Model profiles for OpenAI-compatible Chat Completions servers, as data: the rows
 * where one host serves one model in its own way (the host's own families, with
 * their paired flags). Any other known reasoning model on any host gets its
 * family row (`model-families.ts`) combined with the host row
 * (`compatible-hosts.ts`). Facts: /work/shared/PROVIDERS.md, "OpenAI-compatible
 * endpoints". Values marked "unverified" could not be confirmed; override them per
 * profile (`createOpenAICompatibleAdapter({ profile: {...} })`).
 */
import { compatibleHosts as hosts, type CompatibleProfile, type CompatibleHost, hostRow } from './compatible-hosts.js';

export type { CompatibleProfile, CompatibleProfileFields, ContentReasoning, EffortParameter } from './compatible-hosts.js';

/** gpt-oss on any host: Harmony analysis exposed as `reasoning`, dropped once a final answer exists. */
const gptOss = (host: CompatibleHost): CompatibleProfile => ({
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

/**
 * Every compatible profile; within a provider the first matching pattern wins. A
 * row with `familiesFirst` is a host's catch-all: a model of a known family
 * (`model-families.ts`) gets its family on that host instead.
 */
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
    // Open-weight R1 names: reasoning is display-only; sending it back is a 400 (PROVIDERS.md).
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
    // Always keeps earlier turns' reasoning; the `keep` flag is unnecessary (docs/provider-hosts.md).
    retention: 'all',
    reasoningRequiredOnToolCalls: true,
    requestFlags: { thinking: { type: 'enabled' } },
  },
  {
    // `thinking.keep`: omitted/null ignores earlier turns' reasoning, "all" keeps it
    // (Preserved Thinking), the only documented values
    // (https://platform.moonshot.ai/docs/guide/use-kimi-k2-thinking-model). No Kimi
    // recording backs it yet.
    ...hosts.moonshot,
    pattern: 'kimi-k2\\.6.*',
    contextWindow: 262_144,
    maxOutputTokens: 65_536,
    retention: 'all',
    reasoningRequiredOnToolCalls: true,
    requestFlags: { thinking: { type: 'enabled', keep: 'all' } },
    unverified: 'thinking.keep from docs only, no recorded response',
  },
  {
    // Older K2 thinking models take no `keep`; earlier turns' reasoning is ignored by
    // the server, so only tool-call messages need it (the field must be present).
    ...hosts.moonshot,
    pattern: 'kimi-k2.*',
    contextWindow: 262_144,
    maxOutputTokens: 65_536,
    retention: 'episode',
    reasoningRequiredOnToolCalls: true,
    requestFlags: { thinking: { type: 'enabled' } },
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
    familiesFirst: true,
  },
  gptOss(hosts.cerebras),
  { ...hosts.cerebras, pattern: '.*', contextWindow: 131_072, maxOutputTokens: 32_768, familiesFirst: true },
  { ...hosts.fireworks, pattern: '.*', contextWindow: 131_072, maxOutputTokens: 32_768, familiesFirst: true },
  gptOss(hosts.ollama),
  { ...hosts.ollama, pattern: '.*', contextWindow: 32_768, maxOutputTokens: 8_192, familiesFirst: true },
  gptOss(hosts.vllm),
  { ...hosts.vllm, pattern: '.*', contextWindow: 32_768, maxOutputTokens: 8_192, familiesFirst: true },
];

/**
 * What a known compatible host fixes for every model (base URL, key variables,
 * wire fields, cache): the fallback's provider fields for a model without a row
 * or family. Such a model gets no reasoning back, the safe choice for a model nobody has checked.
 */
export function compatibleHostDefaults(provider: string): Partial<CompatibleProfile> | undefined {
  const host = hostRow(provider);
  if (!host) return undefined;
  return { ...hostFields(host), sendReasoningAs: 'none', reasoningRequiredOnToolCalls: false };
}

/** A host row without its documentation fields (source, unverified, per-family overrides). */
export function hostFields(host: CompatibleHost): Partial<CompatibleProfile> {
  const { source: _source, unverified: _unverified, familyOverrides: _overrides, ...fields } = host;
  return fields;
}
