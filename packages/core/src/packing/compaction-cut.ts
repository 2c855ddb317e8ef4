/**
 * What a provider's server-side compaction takes out of the packer's hands. Once the
 * provider returned a `compaction` part, it reads that summary in place of everything
 * before it (Anthropic drops all blocks before the compaction block; OpenAI's compaction
 * item carries the state of the items before it, which may then be left out), so the
 * packer neither sends nor counts that history again.
 */
import type { AssistantMessage, CompactionPart, Message, ModelRef } from '../message/message.js';
import { isEpisodeStart } from '../message/message.js';

/** The transcript as the provider reads it after its latest compaction, and how many messages that leaves out. */
export interface CompactionCut {
  messages: Message[];
  /** Messages before the compaction that are not sent (0 when there is no compaction for this model). */
  compacted: number;
  /** Index in the transcript of the assistant message holding the compaction, if any. */
  at?: number;
}

/**
 * True when `message` holds a compaction part that `model` made (the only model that can
 * read it). Read defensively: a part handed over without its data (a user-written adapter
 * or strip) is nobody's compaction, not a TypeError in every later call.
 */
export function holdsCompactionFor(message: Message, model: ModelRef): message is AssistantMessage {
  if (message.role !== 'assistant') return false;
  return message.content.some((part) => {
    if (part.type !== 'compaction') return false;
    const data = part.providerData as CompactionPart['providerData'] | undefined;
    return data?.provider === model.provider && data.model === model.id;
  });
}

/**
 * The messages to pack for a call to `model`: from the latest assistant message with a
 * compaction `model` made, preceded by the last person-typed user message before it
 * (wire APIs want a conversation to open with a user turn; the provider drops it with
 * the rest, and OpenAI's own compacted windows keep user messages too). Everything in
 * between goes whole, so no tool call loses its result: results always follow their call
 * before the next assistant message. Without such a compaction, `messages` unchanged.
 */
export function messagesAfterCompaction(messages: readonly Message[], model: ModelRef): CompactionCut {
  const at = messages.findLastIndex((message) => holdsCompactionFor(message, model));
  if (at === -1) return { messages: [...messages], compacted: 0 };
  const opening = messages.slice(0, at).findLastIndex(isEpisodeStart);
  const head = opening === -1 ? [] : [messages[opening] as Message];
  const kept = [...head, ...messages.slice(at)];
  return { messages: kept, compacted: messages.length - kept.length, at };
}
