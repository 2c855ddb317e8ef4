/**
 * Opaque reasoning data is valid only for the model that produced it (docs/providers.md,
 * "Switching provider or model inside a session"). This step makes that a guarantee
 * of the loop for every adapter, user-written ones included: before packing,
 * reasoning parts from another model are removed, opaque data of another model is
 * taken off text and tool-call parts, and its provider-tool parts (nothing but that data) go whole.
 *
 * Untagged data (no `providerData`, no `model` on the message) counts as the
 * target's own: that is history an application brought without provenance.
 *
 * A provider-tool or compaction part cannot lose its `providerData` (the part is
 * nothing without it, and every reader relies on the producer's tag): it keeps the
 * tag alone, so the compaction cut still tells whose it is, the counter counts the
 * tag and the adapters, finding no block or item in it, leave it out with their warning.
 *
 * {@link stripForeignReasoning} is the one place this happens, with the one
 * warning: the loop calls it before every model call (`handoff-call.ts`), and the
 * adapters do not strip again, so they rely on it. A caller that streams from an
 * adapter without the loop calls it first (it is public in `@episodic/core/reasoning`).
 * Results are cached per message and target, so consecutive calls pack the same
 * objects and the packer's per-message caches keep working.
 */
import type { AssistantMessage, AssistantPart, Message, ModelRef } from '../../message/message.js';
import { currentEpisodeStart } from '../../message/episodes.js';
import { isForeign, reasoningProducer } from './handoff-note.js';

const cleaned = new WeakMap<AssistantMessage, Map<string, AssistantMessage>>();

function isForeignData(part: AssistantPart, target: ModelRef): boolean {
  const data = part.providerData;
  if (data === undefined || isTagOnly(part)) return false;
  return isForeign({ provider: data.provider, id: data.model }, target);
}

/** True for a part whose opaque data was taken off already (its producer's tag kept). */
function isTagOnly(part: AssistantPart): boolean {
  if (part.type !== 'provider-tool' && part.type !== 'compaction') return false;
  return Object.keys(part.providerData).every((field) => field === 'provider' || field === 'model');
}

/** `part` without its opaque data: removed where optional, the producer's tag kept where required. */
function withoutOpaqueData(part: AssistantPart): AssistantPart {
  if (part.type === 'provider-tool' || part.type === 'compaction') {
    const { provider, model } = part.providerData;
    return { ...part, providerData: { provider, model } };
  }
  const { providerData: _dropped, ...rest } = part;
  return rest as AssistantPart;
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
    } else if (isForeignData(part, target)) content.push(withoutOpaqueData(part));
    else content.push(part);
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

/** The warning given when another model's reasoning is left out of a call. */
export interface ForeignReasoningWarning {
  code: 'foreign-reasoning-dropped';
  message: string;
}

/**
 * `messages` for a call to `target` without another model's reasoning or opaque
 * data (reasoning parts of another model removed, its opaque data taken off text and
 * tool-call parts; the same array when nothing is foreign), and the warning to give when the
 * current episode held such reasoning. Earlier episodes' foreign reasoning goes
 * without a warning: under the default retention it would not be sent anyway.
 */
export function stripForeignReasoning(
  messages: readonly Message[],
  target: ModelRef,
): { messages: readonly Message[]; warning: ForeignReasoningWarning | undefined } {
  const stripped = withoutForeignReasoning(messages, target);
  const dropped = stripped === messages ? 0 : foreignReasoningOfCurrentEpisode(messages, target);
  if (dropped === 0) return { messages: stripped, warning: undefined };
  const message =
    `${dropped} reasoning part(s) of another model in this episode were not sent to ${target.provider}/${target.id}: ` +
    'opaque reasoning is valid only for the model that produced it. Open the session with { handoff: true } to pass their text on as a note.';
  return { messages: stripped, warning: { code: 'foreign-reasoning-dropped', message } };
}

/**
 * Reasoning parts of other models than `target` in the current episode: from the
 * last user message a person typed (an injected one, such as structured-output
 * feedback, does not end the episode).
 */
function foreignReasoningOfCurrentEpisode(messages: readonly Message[], target: ModelRef): number {
  let count = 0;
  for (let index = currentEpisodeStart(messages); index < messages.length; index += 1) {
    const message = messages[index] as Message;
    if (message.role !== 'assistant') continue;
    for (const part of message.content)
      if (part.type === 'reasoning' && isForeign(reasoningProducer(part, message.model), target)) count += 1;
  }
  return count;
}
