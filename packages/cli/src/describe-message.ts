/**
 * One-line descriptions of messages for human output: what kind of parts a message
 * holds, with a short preview of its text.
 */
import { type AssistantPart, type Message, type ToolResultPart, toolResultText, type UserPart } from '@episodic/core';
import { formatCount, preview } from './text-table.js';

/** Characters of text quoted in a description. */
const quoteWidth = 48;

/** Describes the parts of a message on one line, e.g. `reasoning, tool-call get_ci_log`. */
export function describeMessage(message: Message): string {
  switch (message.role) {
    case 'system':
    case 'developer':
      return quote(message.content);
    case 'user':
      if (typeof message.content === 'string') return quote(message.content) + (message.injected ? ' (injected)' : '');
      return message.content.map(describePart).join(', ') + (message.injected ? ' (injected)' : '');
    case 'assistant':
      return message.content.length === 0 ? '(no parts)' : message.content.map(describePart).join(', ');
    case 'tool': {
      const error = message.isError ? ', error' : '';
      const parts = typeof message.content === 'string' ? '' : `, ${message.content.map(describePart).join(', ')}`;
      const chars = formatCount(toolResultText(message).length);
      return `result of ${message.toolName} (${message.toolCallId}), ${chars} chars${parts}${error}`;
    }
    case 'summary':
      return `summary of episodes ${message.episodes.from} to ${message.episodes.to - 1}: ${quote(message.content)}`;
  }
}

function describePart(part: AssistantPart | UserPart | ToolResultPart): string {
  switch (part.type) {
    case 'text':
      return `text ${quote(part.text)}`;
    case 'reasoning':
      return part.redacted ? 'reasoning (redacted)' : 'reasoning';
    case 'tool-call':
      return `tool-call ${part.name}`;
    case 'image':
      return 'image';
    case 'provider-tool':
      return `provider-tool ${part.name} ${part.kind}`;
    default:
      return (part as { type: string }).type;
  }
}

function quote(text: string): string {
  return JSON.stringify(preview(text, quoteWidth));
}
