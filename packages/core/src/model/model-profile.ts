/**
 * Model profiles: what a provider and model need for reasoning, tools and caching,
 * as data. Providers ship tables of profiles (see `@episodic/providers`); users can
 * override any field. Core only reads the fields below.
 */
import type { Retention } from '../message/retention.js';
import type { ContextPolicy, DeprecatedContextPolicy, NativeContextOptions } from './native-context.js';

/** How a provider caches prompts. */
export type CacheStyle = 'anthropic-breakpoints' | 'openai-prefix' | 'gemini-implicit' | 'none';

/**
 * Where reasoning travels on an OpenAI-compatible wire: a message field, `<think>`
 * tags inside content, or nowhere.
 */
export type ReasoningField =
  | 'reasoning_content'
  | 'reasoning'
  | 'reasoning_details'
  | 'think-tags'
  | 'thinking'
  | 'none';

/** How a provider treats reasoning of earlier user turns that is sent back; see {@link ModelProfile.pastReasoning}. */
export type PastReasoning = 'stripped' | 'billed';

/** Prices in USD per million tokens. */
export interface Pricing {
  input: number;
  cachedInput: number;
  cacheWrite?: number;
  output: number;
}

/**
 * What Episodic needs to know about one model, as data: context window, which
 * reasoning goes back, cache style, tokenizer factor, pricing. The tables live in
 * `@episodic/providers` (`resolveProfile`); every field can be overridden per adapter.
 */
export interface ModelProfile {
  /** Provider name, e.g. `anthropic`, `openai`, `google`, `deepseek`. */
  provider: string;
  /** Model id pattern this profile matches (a RegExp source, anchored by the lookup). */
  pattern: string;
  /** Most tokens of one call, input and output together. */
  contextWindow: number;
  /** Most output tokens of one call; sent as the call's limit by default. */
  maxOutputTokens: number;
  /** Which reasoning goes back to this model across episodes. */
  retention: Retention;
  /** Wire field for reasoning on OpenAI-compatible endpoints. */
  reasoningField?: ReasoningField;
  /** How the provider caches prompts, which decides where cache breakpoints go. */
  cacheStyle: CacheStyle;
  /** Below this many prompt tokens the provider does not cache. */
  minCacheableTokens: number;
  /**
   * Seconds a cached prefix lives without a hit, at most: after this since the last call
   * the packer takes the prefix as cold and may rewrite it at no cache cost. Unknown when absent.
   */
  cacheTtlSeconds?: number;
  /** Local-count multiplier before any calibration (tokenizers other than o200k count more). */
  tokenizerFactor: number;
  /**
   * What the provider does with reasoning from before the last user message when it
   * is sent back (docs/providers.md): `stripped`, removed before the prompt is counted (not
   * billed, and sending it or not leaves the cached prefix alone), or `billed`, kept
   * as input (dropping it changes the prefix, so the cache misses from there). Absent:
   * `billed`, the safe assumption for a cost estimate.
   */
  pastReasoning?: PastReasoning;
  /** List prices, for the estimated cost of calls; unknown when absent. */
  pricing?: Pricing;
  /**
   * The provider binds reasoning to everything sent before it (Anthropic preserved
   * thinking): once that prefix changes the reasoning is refused or dropped, so the packer
   * plans its cuts around it (`PackOptions.boundReasoning`). Absent: not bound.
   */
  signatureBoundToPrefix?: boolean;
  /**
   * How a schema-checked final answer (`send(input, { output })`) is asked for:
   * `native`, the wire API's own structured output (the adapter sends the request's
   * `output` format, and the model may still call tools first); `tool`, a
   * `final_answer` tool the model calls with the answer. Default `tool`.
   */
  structuredOutput?: 'native' | 'tool';
  /**
   * The context policy an agent uses when it sets none (see `ContextPolicy`). Default
   * `packer`. The old name `episodic` is accepted for one release (the agent warns).
   */
  contextPolicy?: ContextPolicy | DeprecatedContextPolicy;
  /** The native context management this model supports and its settings under the `native` and `hybrid` policies. */
  nativeContext?: NativeContextOptions;
  /** Provider-specific fields (thinking mode, beta headers, id rules, paired flags, ...). */
  [field: string]: unknown;
}

/** Looks a model up in a list of profiles: the first whose provider and pattern match wins. */
export function findProfile(
  profiles: readonly ModelProfile[],
  provider: string,
  model: string,
): ModelProfile | undefined {
  return profiles.find(
    (profile) => profile.provider === provider && new RegExp(`^(?:${profile.pattern})$`).test(model),
  );
}
