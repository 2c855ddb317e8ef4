/**
 * A model adapter's assistant message is checked against transcript format v1
 * before it is saved: a store must never hold a line that a later load refuses.
 * Built-in adapters always pass; this guards custom adapters, and costs little for
 * messages of the common shapes (see `plain-message.ts`). For the same reason a
 * tool-call id the transcript already holds is renamed (some servers number calls
 * per response, `call_0` every time): the readers refuse duplicate ids.
 */
import type { AgentEventHandler } from './agent-events.js';
import { EpisodicError } from '../errors/episodic-error.js';
import type { AssistantMessage } from '../message/message.js';
import { ModelError } from '../model/model-adapter.js';
import { copyMessage } from '../message/transcript.js';
import { isPlainAssistantMessage } from '../message/plain-message.js';

/**
 * Returns `message` when it is valid; throws a non-retryable protocol {@link ModelError}
 * otherwise. The common shapes pass a fast structural check ({@link isPlainAssistantMessage});
 * anything else takes the full check, which names the field that is wrong.
 */
export function checkedAssistantMessage(message: AssistantMessage, provider: string): AssistantMessage {
  if (isPlainAssistantMessage(message)) return message;
  try {
    copyMessage(message, 1);
    return message;
  } catch (error) {
    if (!EpisodicError.isInstance(error)) throw error;
    const detail = error.message.replace(/^line 1: /, '');
    throw new ModelError(
      'protocol',
      `The ${provider} adapter returned an assistant message that cannot be saved (${detail}); nothing was written. ` +
        'Fix the adapter so its messages follow transcript format v1.',
      { cause: error },
    );
  }
}

/** An assistant message whose tool-call ids are unused, and the ids that had to change. */
export interface UniqueIds {
  message: AssistantMessage;
  /** `[given id, new id]` pairs; empty when nothing changed (then `message` is the one given). */
  renamed: [string, string][];
}

/**
 * Gives every tool call of `message` an id that no earlier message (`usedIds`: the
 * transcript's tool-call ids) and no other call of this one uses: `<id>-2`, `<id>-3`,
 * ... The provider only needs a call and its result to agree, and both are sent from
 * the transcript.
 */
export function withUniqueToolCallIds(message: AssistantMessage, usedIds: ReadonlySet<string>): UniqueIds {
  const used = new Set<string>();
  const taken = (id: string) => usedIds.has(id) || used.has(id);
  const renamed: [string, string][] = [];
  const content = message.content.map((part) => {
    if (part.type !== 'tool-call') return part;
    let id = part.id;
    for (let suffix = 2; taken(id); suffix += 1) id = `${part.id}-${suffix}`;
    used.add(id);
    if (id === part.id) return part;
    renamed.push([part.id, id]);
    return { ...part, id };
  });
  return renamed.length === 0 ? { message, renamed } : { message: { ...message, content }, renamed };
}

/**
 * The message as it may be saved: checked ({@link checkedAssistantMessage}), with
 * unique tool-call ids ({@link withUniqueToolCallIds}); a renamed id is reported
 * as a `duplicate-tool-call-id` warning.
 */
export function savableAssistantMessage(
  message: AssistantMessage,
  context: { provider: string; usedIds: ReadonlySet<string>; step: number; emit: AgentEventHandler },
): AssistantMessage {
  const unique = withUniqueToolCallIds(checkedAssistantMessage(message, context.provider), context.usedIds);
  if (unique.renamed.length > 0) {
    const list = unique.renamed.map(([from, to]) => `${JSON.stringify(from)} -> ${JSON.stringify(to)}`).join(', ');
    context.emit({
      type: 'warning',
      step: context.step,
      code: 'duplicate-tool-call-id',
      message: `The ${context.provider} model reused tool-call ids the transcript already holds; renamed ${list}.`,
    });
  }
  return unique.message;
}
