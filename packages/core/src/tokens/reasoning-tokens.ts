/**
 * What a reasoning part weighs when it is sent back. Its text is not the whole of
 * it: OpenAI `encrypted_content`, Anthropic `redacted_thinking` data and
 * signature-only thinking (`display: "omitted"`) carry reasoning the provider bills
 * as input and counts toward the context window, with little or no text. In one
 * recorded Codex session the same-episode reasoning sent back reached 7.8k tokens a
 * call while its text counted about 2.
 *
 * So a part weighs the larger of its text and its opaque reasoning: the tokens the
 * provider reported when it produced the part (`ReasoningPart.tokens`, set by the
 * adapters), else its share of the reasoning tokens its message's usage reports
 * (transcripts written before parts recorded theirs, imported sessions), else an
 * estimate from the size of its opaque payload.
 */
import type { AssistantMessage, ReasoningPart } from '../message/message.js';

/**
 * Characters of opaque payload per token. Recorded gpt-5 `encrypted_content` of
 * 9.6k and 13.7k characters held 1.8k and 2.1k reasoning tokens, Claude signatures
 * of 300 to 540 characters held 15 to 55: five characters a token counts those
 * payloads at or above what they held (small ones well above: the envelope counts too).
 */
export const OPAQUE_CHARACTERS_PER_TOKEN = 5;

/** Provider data fields that tag or locate the part rather than carry reasoning. */
const tagFields = new Set(['provider', 'model', 'id', 'prefix', 'reasoningFields']);

/** Length of the part's opaque payload: its signature and its provider data besides the tags. */
function payloadLength(part: ReasoningPart): number {
  let length = part.signature?.length ?? 0;
  for (const [field, value] of Object.entries(part.providerData ?? {})) {
    if (tagFields.has(field) || value === undefined) continue;
    length += typeof value === 'string' ? value.length : JSON.stringify(value).length;
  }
  return length;
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

/**
 * The share of its message's reported reasoning tokens that falls to each reasoning
 * part without a count of its own (split evenly), or undefined when the message
 * reports none.
 */
export function reportedShare(message: AssistantMessage): number | undefined {
  const reported = message.usage?.reasoningTokens;
  if (!isCount(reported)) return undefined;
  let uncounted = 0;
  let counted = 0;
  for (const part of message.content) {
    if (part.type !== 'reasoning') continue;
    if (isCount(part.tokens)) counted += part.tokens;
    else uncounted += 1;
  }
  return uncounted === 0 ? undefined : Math.ceil(Math.max(0, reported - counted) / uncounted);
}

/**
 * Tokens of the reasoning a part carries beyond its text: the provider-reported
 * count recorded on it, else `share` (its part of the message's reported reasoning
 * tokens), else the estimate from its payload size (0 without one).
 */
export function opaqueReasoningTokens(part: ReasoningPart, share?: number): number {
  if (isCount(part.tokens)) return part.tokens;
  if (share !== undefined) return share;
  return Math.ceil(payloadLength(part) / OPAQUE_CHARACTERS_PER_TOKEN);
}

/** Raw tokens of a reasoning part's content (no framing): the larger of its text and its opaque reasoning. */
export function reasoningContentTokens(part: ReasoningPart, textTokens: number, share?: number): number {
  return Math.max(textTokens, opaqueReasoningTokens(part, share));
}
