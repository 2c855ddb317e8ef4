/**
 * What a provider changed in a request's input before the model read it, one entry per
 * block: Anthropic's `input_transformations` (a thinking block dropped, or let through,
 * after it failed a binding check; docs/providers.md, "Bound thinking") and OpenAI
 * Responses' (a reasoning item withheld, kept with its `id`, `action` and `reason`;
 * "Reasoning withheld by the API"). Kept on the step's usage, so the transcript says
 * which reasoning the model did not see.
 */

/** One change a provider made to a request's input (`Usage.inputTransformations`). */
export interface InputTransformation {
  /** The provider's kind, e.g. `thinking_dropped`, `thinking_mismatch_allowed` (Anthropic), `reasoning` (OpenAI). */
  type: string;
  /** Where the block was in the wire request, e.g. `messages.3.content.0`, `input.3`; empty when unknown. */
  path: string;
  /** Which check it failed, e.g. `prefix_binding_mismatch`, `turn_boundary`. */
  reason: string;
  [extra: string]: unknown;
}
