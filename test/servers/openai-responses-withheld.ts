/**
 * Reasoning the loopback Responses server withholds from the model, reported as the
 * response's `input_transformations` (openai-node 7.56+, `Response.InputTransformation`;
 * openai 6 does not type it). The one rule modelled: where `reasoning.context` is
 * `current_turn` (sent, or the default before gpt-5.6; docs/providers.md, "Model
 * generations and earlier turns' reasoning"), every reasoning item before the last user
 * message is withheld with reason `turn_boundary`. That the real API lists these items
 * is read from the SDK's reason names; no recording shows the field. Tests may add other
 * entries (any reason, known or not) through the script.
 */
import type { Response } from 'openai7/resources/responses/responses';
import type { InputItem } from './openai-responses-validation.js';

/** One entry as openai 7 types it. */
export type WithheldEntry = NonNullable<Response['input_transformations']>[number];

/** Models whose `reasoning.context` defaults to `all_turns` (the gpt-5.6 family and later). */
const allTurnsByDefault = /^gpt-5\.([6-9]|\d{2,})/;

/** The `turn_boundary` entries for a request, in input order. */
export function withheldAtTurnBoundary(body: Record<string, unknown>, input: readonly InputItem[]): WithheldEntry[] {
  const context = (body.reasoning as { context?: unknown } | undefined)?.context;
  const allTurns = context === 'all_turns' || (context !== 'current_turn' && allTurnsByDefault.test(String(body.model)));
  if (allTurns) return [];
  const lastUser = input.findLastIndex((item) => item.role === 'user');
  return input
    .slice(0, Math.max(lastUser, 0))
    .filter((item) => item.type === 'reasoning' && typeof item.id === 'string')
    .map((item) => ({ id: String(item.id), action: 'removed', reason: 'turn_boundary', type: 'reasoning' }));
}
