/**
 * Span attributes: the OpenTelemetry GenAI semantic conventions (`gen_ai.*`, status
 * Development, as of semantic conventions 1.37+) and Episodic's own (`episodic.*`),
 * which report what only the packer knows.
 *
 * @see https://opentelemetry.io/docs/specs/semconv/gen-ai/gen-ai-spans/
 * @see https://opentelemetry.io/docs/specs/semconv/gen-ai/gen-ai-agent-spans/
 */
import { EpisodicError } from '../errors/episodic-error.js';
import type { AssistantMessage, ModelRef, Usage, UserMessage } from '../message/message.js';
import type { StopReason } from '../model/model-adapter.js';
import type { UsageTotals } from '../model/usage-totals.js';
import type { PackStats } from '../packing/pack-types.js';
import type { SpanAttributes } from './telemetry-api.js';

/**
 * `gen_ai.provider.name` for Episodic provider ids that the convention spells
 * differently; other ids are used as they are (`openai`, `anthropic`, `deepseek`, `groq`, ...).
 */
export const GEN_AI_PROVIDER_NAMES: Readonly<Record<string, string>> = { google: 'gcp.gemini' };

/** The convention's finish reasons, by Episodic stop reason. */
const FINISH_REASONS: Readonly<Record<StopReason, string>> = {
  stop: 'stop',
  'tool-calls': 'tool_call',
  'max-tokens': 'length',
  'content-filter': 'content_filter',
  error: 'error',
  other: 'other',
};

/** Who is called: provider (new and deprecated attribute) and requested model. */
export function modelAttributes(model: ModelRef): SpanAttributes {
  const provider = GEN_AI_PROVIDER_NAMES[model.provider] ?? model.provider;
  return { 'gen_ai.provider.name': provider, 'gen_ai.system': provider, 'gen_ai.request.model': model.id };
}

/** Reported token usage of one call or of an episode. */
export function usageAttributes(usage: Usage | UsageTotals): SpanAttributes {
  return {
    'gen_ai.usage.input_tokens': usage.inputTokens,
    'gen_ai.usage.output_tokens': usage.outputTokens,
    'gen_ai.usage.cache_read.input_tokens': usage.cachedInputTokens,
    'gen_ai.usage.cache_creation.input_tokens': usage.cacheWriteTokens,
    'gen_ai.usage.reasoning.output_tokens': usage.reasoningTokens,
    // The provider's cache hit, next to the packer's prediction (episodic.cache.predicted_reuse_tokens).
    'episodic.cache.reported_reuse_tokens': usage.cachedInputTokens,
    'episodic.cost_usd': usage.costUsd,
  };
}

/** What the packer sent and dropped for one call. */
export function packAttributes(stats: PackStats, budget: number): SpanAttributes {
  const { tokens, reasoning } = stats;
  return {
    'episodic.pack.budget': budget,
    'episodic.pack.tokens.system': tokens.system,
    'episodic.pack.tokens.tools': tokens.tools,
    'episodic.pack.tokens.summary': tokens.summary,
    'episodic.pack.tokens.history': tokens.history,
    'episodic.pack.tokens.current_episode': tokens.currentEpisode,
    'episodic.pack.tokens.total': tokens.total,
    'episodic.pack.evicted_episodes': stats.evictedEpisodes,
    'episodic.pack.evicted_now': stats.evictedNow,
    'episodic.pack.truncated_tool_results': stats.truncatedToolResults,
    'episodic.pack.current_episode_shortened': stats.currentEpisodeShortened,
    'episodic.pack.unpaired_dropped': stats.unpairedDropped,
    'episodic.reasoning.kept_parts': reasoning.keptParts,
    'episodic.reasoning.dropped_parts': reasoning.droppedParts,
    'episodic.reasoning.kept_tokens': reasoning.keptTokens,
    'episodic.reasoning.dropped_tokens': reasoning.droppedTokens,
    'episodic.cache.predicted_reuse_tokens': stats.prefixReuseTokens,
  };
}

/** The convention's finish reason for a stop reason. */
export function finishReason(stopReason: StopReason | undefined): string {
  return FINISH_REASONS[stopReason ?? 'other'];
}

/** `error.type`: the Episodic error code, else the error's class name. */
export function errorType(error: unknown): string {
  if (EpisodicError.isInstance(error)) return error.code;
  return error instanceof Error ? error.name : 'Error';
}

/** `gen_ai.input.messages` for the user message that opened an episode (content opt-in). */
export function inputMessages(input: UserMessage): string {
  const parts = typeof input.content === 'string'
    ? [{ type: 'text', content: input.content }]
    : input.content.map((part) =>
        part.type === 'text' ? { type: 'text', content: part.text } : { type: 'blob', mime_type: part.mediaType });
  return JSON.stringify([{ role: 'user', parts }]);
}

/** `gen_ai.output.messages` for an assistant message, reasoning included (content opt-in). */
export function outputMessages(message: AssistantMessage, stopReason: StopReason | undefined): string {
  const parts = message.content.map((part) => {
    switch (part.type) {
      case 'text':
        return { type: 'text', content: part.text };
      case 'reasoning':
        return { type: 'reasoning', content: part.text };
      case 'tool-call':
        return { type: 'tool_call', id: part.id, name: part.name, arguments: part.args };
    }
  });
  return JSON.stringify([{ role: 'assistant', parts, finish_reason: finishReason(stopReason) }]);
}
