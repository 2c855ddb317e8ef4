/**
 * What a provider's server-side compaction takes out of the packer's hands. Once the
 * provider returned a `compaction` part, it reads that summary in place of everything
 * before it (Anthropic drops all blocks before the compaction block; OpenAI's compaction
 * item carries the state of the items before it, which may then be left out), so the
 * packer neither sends nor counts that history again.
 */
import type { AssistantMessage, CompactionPart, Message, ModelRef } from '../message/message.js';
import { isEpisodeStart } from '../message/message.js';
import { summaryMessage } from './pack-summary.js';
import { onDemandView, withoutOnDemandCompactions } from './on-demand-cut.js';

/** The transcript as the provider reads it after its latest compaction, and how many messages that leaves out. */
export interface CompactionCut {
  messages: Message[];
  /** Messages before the compaction that are not sent (0 when there is no compaction for this model). */
  compacted: number;
  /** Index in the transcript of the assistant message holding the compaction, if any. */
  at?: number;
}

/**
 * The compaction part of `message` that `model` made and that stands for the history
 * before it: a failed one (the provider could not summarize) stands for nothing.
 */
function compactionFor(message: Message, model: ModelRef): CompactionPart | undefined {
  if (message.role !== 'assistant') return undefined;
  return message.content.find(
    (part): part is CompactionPart =>
      part.type === 'compaction' &&
      part.failed !== true &&
      part.summarizedMessages === undefined &&
      part.providerData?.provider === model.provider &&
      part.providerData?.model === model.id,
  );
}

/**
 * The readable summary of a compaction `model` cannot read itself (another model's; its
 * opaque data is gone by the time the call is packed): a portable checkpoint. Anthropic's
 * summary is text; OpenAI's item is opaque and has none.
 */
function portableSummaryOf(message: Message, model: ModelRef): string | undefined {
  if (message.role !== 'assistant') return undefined;
  const part = message.content.findLast(
    (candidate): candidate is CompactionPart =>
      candidate.type === 'compaction' &&
      candidate.failed !== true &&
      candidate.summarizedMessages === undefined &&
      typeof candidate.text === 'string' &&
      candidate.text.length > 0 &&
      !(candidate.providerData?.provider === model.provider && candidate.providerData?.model === model.id),
  );
  return part?.text;
}

/** True when `message` holds a compaction part that `model` made (the only model that can read it), and that did not fail. */
export function holdsCompactionFor(message: Message, model: ModelRef): message is AssistantMessage {
  return compactionFor(message, model) !== undefined;
}

/**
 * The messages to pack for a call to `model`: from the latest assistant message with a
 * compaction `model` made, preceded by the user messages its window keeps. By default
 * that is the last person-typed user message before it (wire APIs want a conversation to
 * open with a user turn; the provider drops it with the rest); a part that says how many
 * user messages its window keeps (`userMessagesKept`, OpenAI `/responses/compact`) gets
 * that many, in order. Everything after the compaction goes whole, so no tool call loses
 * its result: results always follow their call before the next assistant message.
 * A later compaction by another model that left a readable summary (Anthropic's text)
 * is a portable checkpoint: the summary goes as one user message in place of the history
 * before it, so a fallback or a switched model continues from it. Without either,
 * `messages` unchanged (an opaque foreign item is left out by the adapter and the
 * history goes whole). An on-demand compaction (`summarizedMessages`) goes first instead,
 * in place of the messages it names (on-demand-cut.ts).
 */
export function messagesAfterCompaction(transcript: readonly Message[], model: ModelRef): CompactionCut {
  // An on-demand compaction goes first in place of the messages it names (on-demand-cut.ts).
  const onDemand = onDemandView(transcript, model, (message) => compactionFor(message, model) !== undefined);
  if (onDemand) return { messages: onDemand, compacted: transcript.length - onDemand.length };
  const messages = withoutOnDemandCompactions(transcript);
  const at = messages.findLastIndex((message) => holdsCompactionFor(message, model));
  const portable = messages.findLastIndex((message) => portableSummaryOf(message, model) !== undefined);
  if (portable > at) {
    // Another model's compaction with a readable summary: that text stands for the history before it.
    const sent = [summaryMessage(portableSummaryOf(messages[portable] as Message, model) as string), ...messages.slice(portable)];
    return { messages: sent, compacted: portable, at: portable };
  }
  if (at === -1) return { messages: [...messages], compacted: 0 };
  const kept = compactionFor(messages[at] as Message, model)?.userMessagesKept;
  const before = messages.slice(0, at);
  let head: Message[];
  if (kept !== undefined) head = kept > 0 ? before.filter((message) => message.role === 'user').slice(-kept) : [];
  else {
    const opening = before.findLastIndex(isEpisodeStart);
    head = opening === -1 ? [] : [before[opening] as Message];
  }
  const sent = [...head, ...messages.slice(at)];
  return { messages: sent, compacted: messages.length - sent.length, at };
}
