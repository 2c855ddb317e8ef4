/** Gemini `finishReason` to the neutral stop reason (https://ai.google.dev/api/generate-content#FinishReason). */
import type { StopReason } from '@episodic/core';

const finishReasons: Record<string, StopReason> = {
  STOP: 'stop',
  MAX_TOKENS: 'max-tokens',
  SAFETY: 'content-filter',
  RECITATION: 'content-filter',
  BLOCKLIST: 'content-filter',
  PROHIBITED_CONTENT: 'content-filter',
  SPII: 'content-filter',
  IMAGE_SAFETY: 'content-filter',
  IMAGE_PROHIBITED_CONTENT: 'content-filter',
  MALFORMED_FUNCTION_CALL: 'error',
  UNEXPECTED_TOOL_CALL: 'error',
};

/** Maps a finish reason; a plain stop with function calls is `tool-calls`. */
export function mapGoogleStopReason(reason: string | undefined, hasToolCalls: boolean): StopReason {
  const mapped = (reason && finishReasons[reason]) || 'other';
  return mapped === 'stop' && hasToolCalls ? 'tool-calls' : mapped;
}
