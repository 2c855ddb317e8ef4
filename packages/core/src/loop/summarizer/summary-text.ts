/**
 * The conversation as a summarizer reads it: plain text, its middle cut beyond a limit.
 * Shared by the summaries of evicted episodes and of compactions.
 */
import { assistantText, type ModelMessage, userText } from '../../message/message.js';

/** Renders messages as plain text: the summarizer needs their content, not a wire format. */
export function renderForSummary(messages: readonly ModelMessage[]): string {
  const lines: string[] = [];
  for (const message of messages) {
    if (message.role === 'user') lines.push(`[user] ${userText(message)}`);
    else if (message.role === 'tool') lines.push(`[result of ${message.toolName}] ${message.content}`);
    else if (message.role === 'assistant') {
      const text = assistantText(message);
      if (text) lines.push(`[assistant] ${text}`);
      for (const part of message.content) {
        if (part.type === 'tool-call') lines.push(`[tool call ${part.name}] ${JSON.stringify(part.args ?? {})}`);
      }
    }
  }
  return lines.join('\n');
}

/** `text` with its middle cut beyond `limit` characters. */
export function cutMiddle(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const half = Math.floor(limit / 2);
  return `${text.slice(0, half)}\n[... ${text.length - 2 * half} characters cut ...]\n${text.slice(-half)}`;
}
