/**
 * Gemini `finishReason` to the neutral stop reason (https://ai.google.dev/api/generate-content#FinishReason;
 * the reasons after `UNEXPECTED_TOOL_CALL` are those `@google/genai` 3.3's `FinishReason` names). The keys
 * are the wire's string literals, not the SDK's enum: `@google/genai` 2, which the peer range takes too,
 * names none of the new ones, and the API sends them whichever SDK reads the stream.
 */
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
  // The request lacked a thought signature the API requires: a history defect, not an answer.
  MISSING_THOUGHT_SIGNATURE: 'error',
  MALFORMED_RESPONSE: 'error',
  MODEL_ARMOR: 'content-filter',
  ESCALATION: 'content-filter',
  PUP_LIMITED_DISABLED: 'content-filter',
};

/** Maps a finish reason; a plain stop with function calls is `tool-calls`. */
export function mapGoogleStopReason(reason: string | undefined, hasToolCalls: boolean): StopReason {
  const mapped = (reason && finishReasons[reason]) || 'other';
  return mapped === 'stop' && hasToolCalls ? 'tool-calls' : mapped;
}
