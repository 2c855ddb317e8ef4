/**
 * The response's `input_transformations` (beta `thinking-binding-controls-2026-08-01`,
 * https://platform.claude.com/docs/en/build-with-claude/preserved-thinking; shape from
 * the SDK's `BetaInputTransformation`): the thinking blocks the API dropped, or let
 * through, because they failed a binding check. Read from `message_start` (final there)
 * and from a `message_delta` that carries it (after a server-side model fallback, and
 * then it replaces the first). Each entry becomes a warning and is kept on the step's usage.
 */
import type { BetaInputTransformation } from '@anthropic-ai/sdk/resources/beta/messages/messages';
import type { InputTransformation, ModelStreamEvent } from '@episodic/core';

/** The beta header that asks for `input_transformations` and allows `thinking.block_binding`. */
export const thinkingBindingBeta = 'thinking-binding-controls-2026-08-01';

/**
 * The entries of `value` (an event's message or delta), or undefined when it carries none.
 * Entries of a type this code does not know are kept as they came (the SDK says more may come).
 */
export function inputTransformationsOf(value: unknown): InputTransformation[] | undefined {
  const list = (value as { input_transformations?: unknown } | undefined)?.input_transformations;
  if (!Array.isArray(list)) return undefined;
  return list.flatMap((entry: Partial<BetaInputTransformation> | null): InputTransformation[] => {
    if (typeof entry !== 'object' || entry === null) return [];
    return [{ ...entry, type: String(entry.type), path: String(entry.path ?? ''), reason: String(entry.reason ?? '') }];
  });
}

/** One warning per entry, saying what the API did with which block. */
export function inputTransformationWarnings(entries: readonly InputTransformation[]): ModelStreamEvent[] {
  return entries.map((entry) => ({
    type: 'warning',
    code: 'thinking-dropped',
    message:
      entry.type === 'thinking_mismatch_allowed'
        ? `anthropic: the thinking block at ${entry.path} failed the binding check (${entry.reason}) and was shown to the model all the same; with the check enforced it would be dropped.`
        : `anthropic: the API left out the block at ${entry.path} (${entry.type}, ${entry.reason}); the model did not see that reasoning.`,
  }));
}
