/**
 * Maps a Chat Completions `finish_reason` to a neutral stop reason.
 *
 * @see https://platform.openai.com/docs/api-reference/chat/object#chat/object-choices
 */
import type { StopReason } from '@episodic/core';

const stopReasons: Readonly<Record<string, StopReason>> = {
  stop: 'stop',
  tool_calls: 'tool-calls',
  function_call: 'tool-calls',
  length: 'max-tokens',
  content_filter: 'content-filter',
};

/**
 * Some compatible servers say `stop` even when the message has tool calls; the calls
 * decide, so the loop runs them.
 */
export function mapOpenAIChatStopReason(finishReason: string | null | undefined, hasToolCalls: boolean): StopReason {
  const mapped = finishReason ? (stopReasons[finishReason] ?? 'other') : 'other';
  return hasToolCalls && (mapped === 'stop' || mapped === 'other') ? 'tool-calls' : mapped;
}
