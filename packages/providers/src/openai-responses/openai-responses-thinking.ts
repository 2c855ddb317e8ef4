/**
 * The reasoning fields of a Responses request from the profile and the call's
 * settings (https://platform.openai.com/docs/guides/reasoning): reasoning models
 * get `reasoning.summary` (default `auto`, so summaries stream as reasoning deltas),
 * the effort when one is set, and `include: ['reasoning.encrypted_content']`, since
 * with `store: false` the encrypted item is the only way to send reasoning back.
 * A model that does not reason gets none of them, and a warning for an effort.
 */
import type { Reasoning } from 'openai/resources/shared';
import type { ResponseIncludable } from 'openai/resources/responses/responses';
import type { OpenAIProfile } from '../profiles/openai.js';
import type { OpenAIResponsesCallSettings } from './openai-responses-settings.js';

/** The fields to put on the request body, and what to tell the caller. */
export interface ReasoningParams {
  include?: ResponseIncludable[];
  reasoning?: Reasoning;
  warnings: string[];
}

/** Builds the reasoning fields for `model` with `profile` and the call's `settings`. */
export function buildReasoningParams(
  model: string,
  profile: OpenAIProfile,
  settings: OpenAIResponsesCallSettings,
): ReasoningParams {
  if (!profile.reasoning) {
    const warnings = settings.reasoningEffort ? [`openai-responses: ${model} does not reason; reasoningEffort ignored`] : [];
    return { warnings };
  }
  return {
    include: ['reasoning.encrypted_content'],
    reasoning: {
      ...(settings.reasoningEffort ? { effort: settings.reasoningEffort } : {}),
      summary: settings.reasoningSummary ?? 'auto',
    },
    warnings: [],
  };
}
