/**
 * Token counts of messages split by section (user, assistant text, reasoning, tool
 * calls, tool results), measured with the same counter the packer uses.
 */
import { type AssistantMessage, type Message, type TokenCounter } from '@episodic/core';
import { FRAMING } from '@episodic/core/internal';

/** Tokens of a run of messages by section. `total` is the sum of the message counts. */
export interface SectionTokens {
  user: number;
  /** Visible assistant text, plus each assistant message's framing. */
  assistantText: number;
  reasoning: number;
  toolCalls: number;
  toolResults: number;
  total: number;
}

/** Zero in every section. */
export function emptySections(): SectionTokens {
  return { user: 0, assistantText: 0, reasoning: 0, toolCalls: 0, toolResults: 0, total: 0 };
}

/** Adds `more` into `into` and returns it. */
export function addSections(into: SectionTokens, more: SectionTokens): SectionTokens {
  into.user += more.user;
  into.assistantText += more.assistantText;
  into.reasoning += more.reasoning;
  into.toolCalls += more.toolCalls;
  into.toolResults += more.toolResults;
  into.total += more.total;
  return into;
}

/**
 * Counts `messages` by section. System messages count only towards `total`. Sections
 * add up to `total` exactly: whatever the parts do not account for (message framing,
 * rounding of a calibrated counter) is assistant text, the envelope of the turn.
 */
export function countSections(messages: readonly Message[], counter: TokenCounter): SectionTokens {
  const sections = emptySections();
  for (const message of messages) {
    const tokens = counter.countMessage(message);
    sections.total += tokens;
    if (message.role === 'user') sections.user += tokens;
    else if (message.role === 'tool') sections.toolResults += tokens;
    else if (message.role === 'assistant') addAssistant(sections, message, tokens, counter);
  }
  return sections;
}

function addAssistant(sections: SectionTokens, message: AssistantMessage, tokens: number, counter: TokenCounter): void {
  let counted = 0;
  for (const part of message.content) {
    // The counter caches per part object, so counting a part alone reuses the work
    // done for the whole message.
    const partTokens = counter.countMessage({ role: 'assistant', content: [part] }) - FRAMING.message;
    counted += partTokens;
    if (part.type === 'reasoning') sections.reasoning += partTokens;
    else if (part.type === 'tool-call') sections.toolCalls += partTokens;
    else sections.assistantText += partTokens;
  }
  sections.assistantText += tokens - counted;
}
