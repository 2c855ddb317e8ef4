/**
 * Opaque reasoning data is valid only for the model that produced it (PROVIDERS.md,
 * "Switching provider or model inside a session"). The built-in adapters already
 * refuse to send it; this step makes it a guarantee of the loop for every adapter,
 * user-written ones included: before packing, reasoning parts from another model are
 * removed and opaque data of another model is taken off text and tool-call parts.
 *
 * Untagged data (no `providerData`, no `model` on the message) counts as the
 * target's own: that is history an application brought without provenance.
 * Results are cached per message and target, so consecutive calls pack the same
 * objects and the packer's per-message caches keep working.
 */
import type { AssistantMessage, AssistantPart, Message, ModelRef } from '../../message/message.js';
import { isForeign, reasoningProducer } from './handoff-note.js';

const cleaned = new WeakMap<AssistantMessage, Map<string, AssistantMessage>>();

function isForeignData(part: AssistantPart, target: ModelRef): boolean {
  const data = part.providerData;
  return data !== undefined && isForeign({ provider: data.provider, id: data.model }, target);
}

function hasForeign(message: AssistantMessage, target: ModelRef): boolean {
  return message.content.some((part) =>
    part.type === 'reasoning' ? isForeign(reasoningProducer(part, message.model), target) : isForeignData(part, target),
  );
}

function clean(message: AssistantMessage, target: ModelRef): AssistantMessage {
  const key = `${target.provider}\u0000${target.id}`;
  let variants = cleaned.get(message);
  const found = variants?.get(key);
  if (found) return found;
  const content: AssistantPart[] = [];
  for (const part of message.content) {
    if (part.type === 'reasoning') {
      if (!isForeign(reasoningProducer(part, message.model), target)) content.push(part);
    } else if (isForeignData(part, target)) {
      const { providerData: _dropped, ...rest } = part;
      content.push(rest as AssistantPart);
    } else content.push(part);
  }
  const result = { ...message, content };
  if (!variants) {
    variants = new Map();
    cleaned.set(message, variants);
  }
  variants.set(key, result);
  return result;
}

/**
 * `messages` without another model's reasoning or opaque data, for a call to
 * `target`. Returns the same array when nothing is foreign; otherwise a new array
 * of the same length (an assistant message may be left with no parts, which the
 * packer removes).
 */
export function withoutForeignReasoning(messages: readonly Message[], target: ModelRef): readonly Message[] {
  let result: Message[] | undefined;
  for (let index = 0; index < messages.length; index += 1) {
    const message = messages[index] as Message;
    if (message.role !== 'assistant' || !hasForeign(message, target)) continue;
    result ??= messages.slice();
    result[index] = clean(message, target);
  }
  return result ?? messages;
}
