/**
 * OpenAI-compatible hosts as data: for each host its base URL, key variables, the
 * field it streams reasoning in, the field it takes reasoning back in, and its
 * paired request flags. What a model needs (which reasoning must go back) is a
 * property of the model's family (`model-families.ts`); a profile is a host row
 * combined with a family row. Each row names its source; "unverified" marks facts
 * nobody here could confirm, and those rows take the value that avoids a 400.
 */
import type { ModelProfile, ReasoningField } from '@episodic/core';

/** How a reasoning effort is put on the wire. */
export type EffortParameter = 'reasoning_effort' | 'reasoning.effort' | 'none';

/**
 * Where reasoning hides inside `content`: `think-tags` and `harmony` split
 * throughout; `auto` (the default) splits only a reasoning block or Harmony token at
 * the very start of the answer; `none` never splits.
 */
export type ContentReasoning = 'think-tags' | 'harmony' | 'auto' | 'none';

/** Fields a compatible profile adds to `ModelProfile`. */
export interface CompatibleProfileFields {
  /** Delta/message field the server streams reasoning in (`think-tags`: inside `content`). */
  reasoningField: ReasoningField;
  /** Where reasoning goes back; `none` = never (the server rejects it). */
  sendReasoningAs: ReasoningField;
  /** The server rejects an assistant tool-call message without the reasoning field. */
  reasoningRequiredOnToolCalls?: boolean;
  /**
   * Once an assistant message carries the reasoning field, every later assistant
   * message must carry it too (OpenCode Zen in front of DeepSeek thinking models).
   */
  reasoningOnLaterAssistants?: boolean;
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

/** One host: what it fixes for every model it serves (Omit would lose these to ModelProfile's index signature). */
export type CompatibleHost = CompatibleProfileFields &
  Pick<ModelProfile, 'provider' | 'retention' | 'cacheStyle' | 'minCacheableTokens' | 'tokenizerFactor'> & {
    /** Where the row's facts come from (docs page, recorded response, issue thread). */
    source: string;
    /** Facts of the row nobody here could confirm; the row takes the value that avoids a 400. */
    unverified?: string;
    /** What differs for one model family on this host, by family name. */
    familyOverrides?: Readonly<Record<string, Partial<CompatibleProfileFields>>>;
  };

const defaults = {
  retention: 'episode',
  cacheStyle: 'openai-prefix',
  minCacheableTokens: 1024,
  // Tokenizers other than o200k count more tokens for the same text.
  tokenizerFactor: 1.15,
  effortParameter: 'none',
  maxTokensField: 'max_tokens',
  contentReasoning: 'auto',
} as const;

/** A third-party host that streams and takes back `reasoning_content` (the DeepSeek lineage). */
const reasoningContentHost = {
  ...defaults,
  reasoningField: 'reasoning_content',
  sendReasoningAs: 'reasoning_content',
  cacheStyle: 'none',
  minCacheableTokens: Number.POSITIVE_INFINITY,
} as const;

/** R1 on hosts that serve the raw template: `<think>` inside `content`. */
const r1InContent = { 'deepseek-r1': { contentReasoning: 'think-tags' } } as const;

/** Every built-in host row, by provider name. */
export const compatibleHosts = {
  deepseek: {
    ...defaults,
    provider: 'deepseek',
    apiKeyEnv: ['DEEPSEEK_API_KEY'],
    baseURL: 'https://api.deepseek.com',
    reasoningField: 'reasoning_content',
    sendReasoningAs: 'reasoning_content',
    minCacheableTokens: 64,
    source: 'https://api-docs.deepseek.com/guides/thinking_mode; recorded traffic (docs/providers.md)',
  },
  zai: {
    ...defaults,
    provider: 'zai',
    apiKeyEnv: ['ZAI_API_KEY', 'Z_AI_API_KEY'],
    baseURL: 'https://api.z.ai/api/paas/v4',
    reasoningField: 'reasoning_content',
    sendReasoningAs: 'reasoning_content',
    source: 'https://docs.z.ai/guides/capabilities/thinking-mode',
  },
  moonshot: {
    ...defaults,
    provider: 'moonshot',
    apiKeyEnv: ['MOONSHOT_API_KEY', 'KIMI_API_KEY'],
    baseURL: 'https://api.moonshot.ai/v1',
    reasoningField: 'reasoning_content',
    sendReasoningAs: 'reasoning_content',
    source: 'https://platform.moonshot.ai/docs/guide/use-kimi-k2-thinking-model',
  },
  minimax: {
    ...defaults,
    provider: 'minimax',
    apiKeyEnv: ['MINIMAX_API_KEY'],
    baseURL: 'https://api.minimax.io/v1',
    reasoningField: 'think-tags',
    sendReasoningAs: 'think-tags',
    contentReasoning: 'think-tags',
    source: 'https://platform.minimax.io/docs/guides/text-m2-function-call',
  },
  openrouter: {
    ...defaults,
    provider: 'openrouter',
    apiKeyEnv: ['OPENROUTER_API_KEY'],
    baseURL: 'https://openrouter.ai/api/v1',
    reasoningField: 'reasoning',
    sendReasoningAs: 'reasoning_details',
    effortParameter: 'reasoning.effort',
    source: 'https://openrouter.ai/docs/guides/best-practices/reasoning-tokens',
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
    source: "https://console.groq.com/docs/reasoning; error 'messages.N' : property 'reasoning_content' is unsupported",
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
    source: 'https://inference-docs.cerebras.ai/api-reference/chat-completions',
  },
  fireworks: {
    ...defaults,
    provider: 'fireworks',
    apiKeyEnv: ['FIREWORKS_API_KEY'],
    baseURL: 'https://api.fireworks.ai/inference/v1',
    reasoningField: 'reasoning_content',
    sendReasoningAs: 'reasoning_content',
    requestFlags: { reasoning_history: 'preserved' },
    effortParameter: 'reasoning_effort',
    source: 'https://docs.fireworks.ai/api-reference/post-chatcompletions',
    unverified: 'the value of reasoning_history',
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
    source: 'recorded traffic (docs/providers.md, Ollama)',
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
    source: 'https://docs.vllm.ai/en/latest/features/reasoning_outputs.html',
  },
  siliconflow: {
    ...reasoningContentHost,
    provider: 'siliconflow',
    apiKeyEnv: ['SILICONFLOW_API_KEY'],
    baseURL: 'https://api.siliconflow.com/v1',
    source:
      'https://docs.siliconflow.com/cn/api-reference/chat-completions (message.reasoning_content); ' +
      'https://docs.siliconflow.cn/en/userguide/capabilities/reasoning',
    unverified: 'whether the host refuses a tool-call message without reasoning_content (sent, as the family needs)',
  },
  deepinfra: {
    ...reasoningContentHost,
    provider: 'deepinfra',
    apiKeyEnv: ['DEEPINFRA_API_KEY'],
    baseURL: 'https://api.deepinfra.com/v1/openai',
    effortParameter: 'reasoning_effort',
    source:
      'DeepInfra developer, github.com/can1357/oh-my-pi/issues/9522 (delta.reasoning_content, reasoning_effort ' +
      'switches thinking, no <think> in content)',
  },
  together: {
    ...reasoningContentHost,
    provider: 'together',
    apiKeyEnv: ['TOGETHER_API_KEY'],
    baseURL: 'https://api.together.xyz/v1',
    reasoningField: 'reasoning',
    familyOverrides: r1InContent,
    source:
      'https://docs.together.ai/docs/kimi-k2-thinking-quickstart (`reasoning` field); ' +
      'https://docs.together.ai/docs/deepseek-r1 (R1: <think> in content)',
    unverified: 'the field reasoning goes back in (reasoning_content, as the replay-cache seed sends it)',
  },
  nebius: {
    ...reasoningContentHost,
    provider: 'nebius',
    apiKeyEnv: ['NEBIUS_API_KEY'],
    baseURL: 'https://api.tokenfactory.nebius.com/v1',
    source: 'https://docs.tokenfactory.nebius.com/api-reference/introduction (OpenAI-compatible, base URL)',
    unverified: 'the reasoning field names (reasoning_content read and sent; `reasoning` also read)',
  },
  sambanova: {
    ...reasoningContentHost,
    provider: 'sambanova',
    apiKeyEnv: ['SAMBANOVA_API_KEY'],
    baseURL: 'https://api.sambanova.ai/v1',
    familyOverrides: r1InContent,
    source: 'https://docs.sambanova.ai/docs/en/build/reasoning (R1: <think> in content)',
    unverified: 'the field reasoning goes back in (reasoning_content)',
  },
  opencode: {
    ...reasoningContentHost,
    provider: 'opencode',
    apiKeyEnv: ['OPENCODE_API_KEY', 'OPENCODE_ZEN_API_KEY'],
    baseURL: 'https://opencode.ai/zen/v1',
    reasoningOnLaterAssistants: true,
    source:
      'https://opencode.ai/docs/zen/; recorded 400 "Error from provider (DeepSeek): The `reasoning_content` in the ' +
      'thinking mode must be passed back to the API." (github.com/anomalyco/opencode/issues/28890); missing field ' +
      'refused, empty string accepted (github.com/earendil-works/pi/pull/7701); every later assistant message ' +
      'carries it (Kai matrix seed)',
  },
  xiaomi: {
    ...reasoningContentHost,
    provider: 'xiaomi',
    apiKeyEnv: ['MIMO_API_KEY', 'XIAOMI_API_KEY'],
    baseURL: 'https://api.xiaomimimo.com/v1',
    requestFlags: { thinking: { type: 'enabled' } },
    source:
      'https://platform.xiaomimimo.com/docs/en-US/usage-guide/passing-back-reasoning_content; recorded 400 ' +
      '{"code":"400","message":"Param Incorrect","param":"The reasoning_content in the thinking mode must be ' +
      'passed back to the API."} (github.com/decolua/9router/issues/1210); thinking flag ' +
      '(github.com/NousResearch/hermes-agent/issues/17314)',
    unverified: 'the API key variable names',
  },
  venice: {
    ...reasoningContentHost,
    provider: 'venice',
    apiKeyEnv: ['VENICE_API_KEY'],
    baseURL: 'https://api.venice.ai/api/v1',
    source:
      'https://docs.venice.ai/getting-started/quick-start (OpenAI-compatible, base URL, VENICE_API_KEY); request ' +
      'fields it does not list are passed through unvalidated (per-provider matrix seed)',
    unverified: 'whether the served model reads reasoning_content back (tolerated, undocumented): sent, as the family needs',
  },
  longcat: {
    ...reasoningContentHost,
    provider: 'longcat',
    apiKeyEnv: ['LONGCAT_API_KEY'],
    baseURL: 'https://api.longcat.chat/openai/v1',
    source:
      'https://longcat.chat/platform/docs/APIDocs.html (POST /openai/v1/chat/completions on api.longcat.chat; ' +
      'messages documented as role + content only); reasoning_content passed through silently (matrix seed)',
    unverified: 'the reasoning field it streams and whether it reads reasoning_content back; the key variable name',
  },
} as const satisfies Record<string, CompatibleHost>;

/** A built-in host name. */
export type HostName = keyof typeof compatibleHosts;

/** The built-in row of `provider`, if there is one. */
export function hostRow(provider: string): CompatibleHost | undefined {
  return Object.hasOwn(compatibleHosts, provider) ? compatibleHosts[provider as HostName] : undefined;
}
