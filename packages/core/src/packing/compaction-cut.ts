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
import { holdsOnDemandCompaction, onDemandView, withoutOnDemandCompactions } from './on-demand-cut.js';

/** The transcript as the provider reads it after its latest compaction, and how many messages that leaves out. */
export interface CompactionCut {
  messages: Message[];
  /** Messages before the compaction that are not sent (0 when there is no compaction for this model). */
  compacted: number;
  /** Index in the transcript of the assistant message holding the compaction, if any. */
  at?: number;
  /**
   * Index of a later compaction by another model that has no text this model can read
   * (an opaque item without its checkpoint summary yet): its history goes whole, as
   * nothing stands for it. The loop decides what to do about it (checkpoint-call.ts).
   */
  uncovered?: number;
}

/**
 * Who reads a transcript's compactions: the model called, and whether its adapter sends
 * its own opaque items back (`ModelAdapter.sendsCompactionItems`; default true).
 */
export type CompactionReader = ModelRef & { sendsItems?: boolean | undefined };

/** The reader of a call to `adapter` (its model, and whether it sends its own opaque items). */
export function compactionReader(adapter: { model: ModelRef; sendsCompactionItems?: boolean | undefined }): CompactionReader {
  return adapter.sendsCompactionItems === false ? { ...adapter.model, sendsItems: false } : adapter.model;
}

/**
 * True for a compaction the reader reads as its own: one `model` made (the producer's tag
 * decides; an untagged part is nobody's), unless it is an opaque item the reader's adapter
 * cannot send (then it is read like another model's: by its checkpoint summary, or not at all).
 */
function madeBy(part: CompactionPart, model: CompactionReader): boolean {
  if (part.providerData?.provider !== model.provider || part.providerData?.model !== model.id) return false;
  return model.sendsItems !== false || (typeof part.text === 'string' && part.text.length > 0);
}

/**
 * The compaction part of `message` that `model` made and that stands for the history
 * before it: a failed one (the provider could not summarize) stands for nothing.
 */
function compactionFor(message: Message, model: CompactionReader): CompactionPart | undefined {
  if (message.role !== 'assistant') return undefined;
  return message.content.find(
    (part): part is CompactionPart =>
      part.type === 'compaction' && part.failed !== true && part.summarizedMessages === undefined && madeBy(part, model),
  );
}

/** The compaction of `message` that another model than `model` made and that did not fail, if any. */
function foreignCompactionOf(message: Message, model: CompactionReader): CompactionPart | undefined {
  if (message.role !== 'assistant') return undefined;
  return message.content.findLast(
    (part): part is CompactionPart =>
      part.type === 'compaction' && part.failed !== true && part.summarizedMessages === undefined && !madeBy(part, model),
  );
}

/** The provider's id of a compaction item, when its data still holds one (another model's is stripped). */
function itemId(part: CompactionPart): string | undefined {
  const item = part.providerData?.item as { id?: unknown } | undefined;
  return typeof item?.id === 'string' ? item.id : undefined;
}

/**
 * The checkpoint summaries of `messages` (summary lines with `checkpoint`), by the index
 * of the message whose compaction they stand for; a later line for the same compaction
 * wins. A line that names no compaction there, another item id, or a message after
 * itself is ignored.
 */
export function checkpointSummaries(messages: readonly Message[]): Map<number, string> {
  const found = new Map<number, string>();
  for (const [index, line] of messages.entries()) {
    // A line comes after the compaction it stands for (it is written once the item is saved).
    if (line.role !== 'summary' || line.checkpoint === undefined || line.checkpoint.message >= index) continue;
    const target = messages[line.checkpoint.message];
    if (target?.role !== 'assistant') continue;
    const part = target.content.findLast((candidate): candidate is CompactionPart => candidate.type === 'compaction');
    const id = part && itemId(part);
    if (!part || (id !== undefined && line.checkpoint.id !== undefined && id !== line.checkpoint.id)) continue;
    found.set(line.checkpoint.message, line.content);
  }
  return found;
}

/**
 * The text a model that cannot read `message`'s compaction gets in its place (another
 * model's; its opaque data is gone by the time the call is packed): a portable
 * checkpoint. Anthropic's summary is readable text; OpenAI's item is opaque and stands
 * for nothing until Episodic's own summary of it (a checkpoint line) is in `checkpoints`.
 */
function portableSummaryOf(
  part: CompactionPart | undefined,
  index: number,
  checkpoints: ReadonlyMap<number, string>,
): string | undefined {
  if (!part) return undefined;
  if (typeof part.text === 'string' && part.text.length > 0) return part.text;
  return checkpoints.get(index);
}

/** True when `message` holds a compaction part that `model` made (the only model that can read it), and that did not fail. */
export function holdsCompactionFor(message: Message, model: CompactionReader): message is AssistantMessage {
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
 * A later compaction by another model is a portable checkpoint when it has a readable
 * summary (Anthropic's text, or Episodic's checkpoint line for an opaque item): the
 * summary goes as one user message in place of the history before it, so a fallback or
 * a switched model continues from it. A later foreign compaction with neither is
 * reported as `uncovered`, and the history goes whole (the adapter leaves the opaque
 * item out).
 * An on-demand compaction (`summarizedMessages`) goes first instead, in place of the
 * messages it names (on-demand-cut.ts).
 */
export function messagesAfterCompaction(transcript: readonly Message[], model: CompactionReader): CompactionCut {
  // An on-demand compaction goes first in place of the messages it names (on-demand-cut.ts).
  const onDemand = onDemandView(transcript, model, (message) => compactionFor(message, model) !== undefined);
  if (onDemand) return { messages: onDemand, compacted: transcript.length - onDemand.length };
  const messages = withoutOnDemandCompactions(transcript);
  const at = messages.findLastIndex((message) => holdsCompactionFor(message, model));
  const foreign = messages.findLastIndex((message) => foreignCompactionOf(message, model) !== undefined);
  if (foreign > at) {
    const checkpoints = checkpointsAt(transcript, messages);
    for (let index = foreign; index > at; index -= 1) {
      const text = portableSummaryOf(foreignCompactionOf(messages[index] as Message, model), index, checkpoints);
      if (text === undefined) continue;
      // That text stands for the history before it.
      const sent = [summaryMessage(text), ...messages.slice(index)];
      return { messages: sent, compacted: index, at: index, ...(index < foreign ? { uncovered: foreign } : {}) };
    }
    if (at === -1) return { messages: [...messages], compacted: 0, uncovered: foreign };
    return { ...ownCut(messages, model, at), uncovered: foreign };
  }
  if (at === -1) return { messages: [...messages], compacted: 0 };
  return ownCut(messages, model, at);
}

/**
 * The checkpoint summaries of `transcript` by index in `messages` (the transcript without
 * its on-demand compactions): a checkpoint line names its message by its transcript index.
 */
function checkpointsAt(transcript: readonly Message[], messages: readonly Message[]): Map<number, string> {
  const byTranscript = checkpointSummaries(transcript);
  if (messages === transcript) return byTranscript;
  const origin = transcript.flatMap((message, index) => (holdsOnDemandCompaction(message) ? [] : [index]));
  const found = new Map<number, string>();
  for (const [index, at] of origin.entries()) {
    const text = byTranscript.get(at);
    if (text !== undefined) found.set(index, text);
  }
  return found;
}

/** The cut at `model`'s own compaction in message `at`. */
function ownCut(messages: readonly Message[], model: ModelRef, at: number): CompactionCut {
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
