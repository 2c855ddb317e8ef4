/**
 * The response's `input_transformations` (openai-node 7.56 and later, `Response.InputTransformation`:
 * "Reasoning inputs withheld from the model, in input order"; each entry `{id, action: 'removed',
 * reason, type: 'reasoning'}`): the reasoning items of the request the API did not show the
 * model. openai 6 does not type the field; the JSON carries it all the same, so it is read
 * from the untyped object. Entries are kept as they came (a reason or type this code does
 * not know included), with where the item was in the request (`input.{i}`) added as `path`.
 * See docs/providers.md, "Reasoning withheld by the API".
 */
import type { InputTransformation, ModelStreamEvent } from '@episodic/core';

/** What each documented reason says, for the warning (the SDK names them; no guide explains them). */
const reasonText: Readonly<Record<string, string>> = {
  organization_mismatch: 'it was made under another organization',
  end_user_mismatch: 'it was made for another end user',
  model_mismatch: 'another model made it',
  prefix_mismatch: 'the input before it is not the one it was made after',
  turn_boundary: 'it belongs to an earlier turn, which this model does not read',
};

/**
 * The entries of `response` (a Responses `Response`, typed or not), or undefined when it has
 * none. `input` is the request's input, to say where each withheld item was.
 */
export function responsesInputTransformations(response: unknown, input: unknown): InputTransformation[] | undefined {
  const list = (response as { input_transformations?: unknown } | null | undefined)?.input_transformations;
  if (!Array.isArray(list) || list.length === 0) return undefined;
  const items = Array.isArray(input) ? (input as unknown[]) : [];
  return list.flatMap((entry: unknown): InputTransformation[] => {
    if (typeof entry !== 'object' || entry === null) return [];
    const fields = entry as Record<string, unknown>;
    const at = typeof fields.id === 'string' ? items.findIndex((item) => (item as { id?: unknown } | null)?.id === fields.id) : -1;
    return [{ ...fields, type: String(fields.type ?? ''), path: at >= 0 ? `input.${at}` : '', reason: String(fields.reason ?? '') }];
  });
}

/**
 * One `thinking-dropped` warning per entry, except `turn_boundary` entries when the request
 * itself ran with past reasoning hidden (`expectTurnBoundary`: `reasoning.context` is
 * `current_turn`, sent or the model's default before gpt-5.6): that is the documented
 * behaviour the profile already prices, and a warning per past item on every call is noise.
 * Those entries are still recorded on the step.
 */
export function inputTransformationWarnings(
  entries: readonly InputTransformation[],
  expectTurnBoundary: boolean,
): ModelStreamEvent[] {
  return entries
    .filter((entry) => !(expectTurnBoundary && entry.reason === 'turn_boundary'))
    .map((entry) => {
      const item = `the ${entry.type} item ${String(entry.id ?? '')}${entry.path ? ` at ${entry.path}` : ''}`;
      const why = `${entry.reason}${reasonText[entry.reason] ? `: ${reasonText[entry.reason]}` : ''}`;
      // `removed` is the one action the SDK names; another is reported as it came, without guessing what it did.
      const message =
        entry.action === 'removed'
          ? `openai: the API withheld ${item} from the model (${why}); the model did not see that reasoning.`
          : `openai: the API reports ${item} as ${JSON.stringify(entry.action)} (${why}), an action this adapter does not know.`;
      return { type: 'warning', code: 'thinking-dropped', message };
    });
}

/**
 * Whether a request runs with earlier turns' reasoning hidden: `reasoning.context` as sent,
 * else the model's default (`current_turn` where the profile says past reasoning is stripped).
 */
export function hidesPastReasoning(reasoning: { context?: unknown } | null | undefined, pastReasoningStripped: boolean): boolean {
  const context = reasoning?.context;
  if (context === 'current_turn') return true;
  if (context === 'all_turns') return false;
  return pastReasoningStripped;
}
