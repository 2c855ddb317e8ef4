/**
 * Fields of a Chat Completions assistant message (or of its streamed deltas) that the
 * adapter does not read: OpenRouter's `annotations` (`url_citation` from its web
 * plugin, `file` annotations), OpenAI's `refusal` and `audio`, and any field a
 * compatible host adds later. Nothing is dropped: they are kept verbatim on one
 * provider-tool part, `message-fields`, and go back on the same assistant message to
 * the model that produced them. Any other adapter or model leaves them out with the
 * one `provider-tool-dropped` warning, as for other providers' unknown blocks (see
 * docs/providers.md).
 */
import type { AssistantMessage, ModelRef, ProviderToolPart } from '@episodic/core';
import { providerDataFor } from '../shared/provider-data.js';

/** The name of the provider-tool part that holds a message's unread fields. */
export const MESSAGE_FIELDS_PART = 'message-fields';

/**
 * Fields the stream reader reads itself, besides the host's reasoning fields. Groq's
 * `channel` only labels the Harmony channel of a delta whose text already arrives in
 * `reasoning` or `content`: it is read, not kept.
 */
const alwaysRead = ['role', 'content', 'tool_calls', 'channel'];

/** A value that says nothing (null, "", [] or {}): not kept, so nothing empty goes back. */
function isEmpty(value: unknown): boolean {
  if (value === null || value === undefined || value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  return typeof value === 'object' && Object.keys(value).length === 0;
}

/** Collects the unread fields of one answer, delta by delta. */
export class UnreadMessageFields {
  private readonly read: ReadonlySet<string>;
  private readonly fields: Record<string, unknown> = {};

  /** `reasoningFields`: the delta fields this host's reasoning is read from (with `reasoning_details` when read). */
  constructor(reasoningFields: readonly string[]) {
    this.read = new Set([...alwaysRead, ...reasoningFields]);
  }

  /**
   * Adds one delta (or a whole message). A list streamed a few entries at a time
   * (OpenRouter's `annotations`) is appended; any other value is replaced by its latest.
   */
  add(delta: Record<string, unknown>): void {
    for (const [key, value] of Object.entries(delta)) {
      if (this.read.has(key) || isEmpty(value)) continue;
      const previous = this.fields[key];
      this.fields[key] = Array.isArray(previous) && Array.isArray(value) ? [...previous, ...(value as unknown[])] : value;
    }
  }

  /** The provider-tool part that holds them, or undefined when the answer had none. */
  part(model: ModelRef): ProviderToolPart | undefined {
    const names = Object.keys(this.fields);
    if (names.length === 0) return undefined;
    return {
      type: 'provider-tool',
      name: MESSAGE_FIELDS_PART,
      kind: 'result',
      text: names.join(', '),
      providerData: providerDataFor(model, { fields: { ...this.fields } }),
    };
  }
}

/**
 * The unread fields to send back on `message`: those of its `message-fields` part when
 * `model` produced them, else none (the caller's warning says they were left out).
 */
export function messageFieldsFor(message: AssistantMessage, model: ModelRef | undefined): Record<string, unknown> {
  if (!model) return {};
  const fields: Record<string, unknown> = {};
  for (const part of message.content) {
    if (part.type !== 'provider-tool' || part.name !== MESSAGE_FIELDS_PART) continue;
    // Another model's parts reach here without their data (the foreign-data strip takes it).
    const data = part.providerData as ProviderToolPart['providerData'] | undefined;
    if (data?.provider !== model.provider || data.model !== model.id) continue;
    if (typeof data.fields === 'object' && data.fields !== null) Object.assign(fields, data.fields);
  }
  return fields;
}
