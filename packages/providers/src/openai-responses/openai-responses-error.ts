/**
 * Errors of the Responses API, mapped to {@link ModelError} with a hint on what to do
 * for the reasoning-specific failures.
 *
 * @see https://platform.openai.com/docs/guides/error-codes
 */
import type { ModelError } from '@episodic/core';
import { mapOpenAIError } from '../openai-shared/map-openai-error.js';

/** Known Responses failures and what the user can do, one sample message per row. */
const hints: readonly { pattern: RegExp; sample: string; hint: string }[] = [
  {
    pattern: /invalid_encrypted_content|encrypted content/i,
    sample: 'invalid_encrypted_content',
    hint: 'Reasoning from another model, organisation or a tampered transcript was sent; drop its providerData.',
  },
  {
    pattern: /without its required (following item|'reasoning' item)/,
    sample: "Item 'fc_1' of type 'function_call' was provided without its required 'reasoning' item: 'rs_1'.",
    hint: 'A reasoning item and the item it produced were separated; send both or send the call without its id.',
  },
  {
    pattern: /Items are not persisted when `store` is set to false/,
    sample: "Item with id 'rs_1' not found. Items are not persisted when `store` is set to false.",
    hint: 'The reasoning item has no encrypted_content; ask for it with include: ["reasoning.encrypted_content"].',
  },
];

/** Maps an `openai` SDK error from a Responses call to a {@link ModelError}. */
export function mapOpenAIResponsesError(error: unknown, provider = 'openai'): ModelError {
  const mapped = mapOpenAIError(error, provider);
  const hint = hints.find((row) => row.pattern.test(mapped.message));
  if (hint) mapped.message = `${mapped.message} (${hint.hint})`;
  return mapped;
}
