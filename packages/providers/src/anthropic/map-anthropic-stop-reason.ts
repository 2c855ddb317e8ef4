/** Anthropic `stop_reason` to the neutral stop reason (https://docs.claude.com/en/api/handling-stop-reasons). */
import type { BetaStopReason as AnthropicStopReason } from '@anthropic-ai/sdk/resources/beta/messages/messages';
import type { StopReason } from '@episodic/core';

const stopReasons: Record<AnthropicStopReason, StopReason> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  tool_use: 'tool-calls',
  max_tokens: 'max-tokens',
  model_context_window_exceeded: 'max-tokens',
  refusal: 'content-filter',
  pause_turn: 'other',
  compaction: 'other',
};

/**
 * Maps a stop reason; an unknown or missing one is `other`. The beta `compaction`
 * (`pause_after_compaction`: the response holds the compaction alone) is `other` too;
 * the loop tells it by its content and continues the step.
 */
export function mapAnthropicStopReason(reason: string | null | undefined): StopReason {
  return (reason && stopReasons[reason as AnthropicStopReason]) || 'other';
}
