/**
 * OpenAI wires (Responses `function_call_output`, Chat `tool` messages) have no
 * error flag for tool results, so a failed result says so in its text, where the
 * model reads it.
 */
import { type ToolMessage, toolResultText } from '@episodic/core';

/** Marks a failed tool result at the start of its text. */
export const toolErrorMarker = '[tool error]';

/** The text sent for a tool result. */
export function toolOutputText(message: ToolMessage): string {
  const text = toolResultText(message);
  return message.isError ? `${toolErrorMarker} ${text}` : text;
}
