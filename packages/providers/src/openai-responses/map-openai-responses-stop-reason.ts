/**
 * Maps a finished Responses API response to a neutral stop reason.
 *
 * @see https://platform.openai.com/docs/api-reference/responses/object#responses/object-status
 */
import type { StopReason } from '@episodic/core';

/** `status` and `incomplete_details.reason` of a response, plus whether it called tools. */
export function mapOpenAIResponsesStopReason(
  status: string | undefined,
  incompleteReason: string | undefined,
  hasToolCalls: boolean,
): StopReason {
  if (status === 'incomplete') {
    if (incompleteReason === 'max_output_tokens') return 'max-tokens';
    if (incompleteReason === 'content_filter') return 'content-filter';
    return 'other';
  }
  if (status === 'failed') return 'error';
  return hasToolCalls ? 'tool-calls' : 'stop';
}
