/**
 * What an on-demand compaction (Anthropic `compaction: {type: "summarize"}`, see
 * `loop/on-demand-compaction.ts`) changes in what a call sends. The compaction is stored
 * where it was swapped in, at a user boundary after the messages it summarizes, and says
 * how many of the transcript's first messages it stands for (`summarizedMessages`). Its
 * model reads it first, in their place, then every message after them word for word
 * (the kept turns, and the turns taken while it was written); the message holding it is
 * never sent where it is stored, and an older or failed one is never sent at all (the API
 * takes exactly one block, first in `messages`). Another model cannot read the block: it
 * gets the readable summary as a user message in the same place.
 */
import type { CompactionPart, Message, ModelRef } from '../message/message.js';
import { summaryMessage } from './pack-summary.js';

/** A compaction part made on demand: it names the transcript messages it stands for. */
export type OnDemandCompactionPart = CompactionPart & { summarizedMessages: number };

/** The on-demand compaction part of `message`, if it holds one. */
export function onDemandPartOf(message: Message): OnDemandCompactionPart | undefined {
  if (message.role !== 'assistant') return undefined;
  return message.content.find(
    (part): part is OnDemandCompactionPart => part.type === 'compaction' && typeof part.summarizedMessages === 'number',
  );
}

/** True when `message` holds an on-demand compaction (succeeded or failed): it is never sent where it is stored. */
export function holdsOnDemandCompaction(message: Message): boolean {
  return onDemandPartOf(message) !== undefined;
}

function madeBy(part: CompactionPart, model: ModelRef): boolean {
  return part.providerData?.provider === model.provider && part.providerData?.model === model.id;
}

/** The part stands for its messages when sent to `model`: its own model reads the block, another its readable text. */
function usableFor(part: OnDemandCompactionPart | undefined, model: ModelRef): part is OnDemandCompactionPart {
  if (!part || part.failed === true) return false;
  return madeBy(part, model) || (typeof part.text === 'string' && part.text.length > 0);
}

/**
 * The messages to pack for a call to `model` after the latest usable on-demand compaction:
 * the transcript's leading system lines (the system prompt), the compaction (or its
 * summary, for another model), then the messages after the ones it summarizes, without
 * any message holding an on-demand compaction. Undefined when no on-demand compaction
 * applies, or a later compaction of another kind (server-side) supersedes it.
 */
export function onDemandView(
  messages: readonly Message[],
  model: ModelRef,
  supersededAfter: (message: Message) => boolean,
): Message[] | undefined {
  const at = messages.findLastIndex((message) => usableFor(onDemandPartOf(message), model));
  if (at === -1) return undefined;
  if (messages.slice(at + 1).some(supersededAfter)) return undefined;
  const part = onDemandPartOf(messages[at] as Message) as OnDemandCompactionPart;
  const covered = Math.max(0, Math.min(part.summarizedMessages, at));
  let leading = 0;
  while (leading < covered && messages[leading]?.role === 'system') leading += 1;
  const first = madeBy(part, model) ? (messages[at] as Message) : summaryMessage(part.text as string);
  const rest = messages.slice(covered).filter((message) => !holdsOnDemandCompaction(message));
  return [...messages.slice(0, leading), first, ...rest];
}

/** `messages` without the on-demand compactions that apply to no call (failed, or another model's without text). */
export function withoutOnDemandCompactions(messages: readonly Message[]): readonly Message[] {
  return messages.some(holdsOnDemandCompaction) ? messages.filter((message) => !holdsOnDemandCompaction(message)) : messages;
}
