/**
 * The per-call settings of the OpenAI Responses adapter (adapter options and
 * `request.providerOptions`), apart from the adapter so that the reasoning-parameter
 * builder can read them without importing the adapter.
 */

/** `reasoning.effort` values. */
export type OpenAIReasoningEffort = 'none' | 'minimal' | 'low' | 'medium' | 'high' | 'xhigh';
/** `reasoning.summary` values. */
export type OpenAIReasoningSummary = 'auto' | 'concise' | 'detailed';

/** Per-call settings, also accepted in `request.providerOptions`. */
export interface OpenAIResponsesCallSettings {
  reasoningEffort?: OpenAIReasoningEffort;
  /** Default `auto` for reasoning models, so summaries stream as reasoning deltas. */
  reasoningSummary?: OpenAIReasoningSummary;
  /** Improves cache routing for requests that share a long prefix. */
  promptCacheKey?: string;
}
