/**
 * Chat Completions errors: SDK errors mapped to {@link ModelError}, and the typed
 * error for a request this endpoint cannot serve.
 *
 * @see https://platform.openai.com/docs/guides/error-codes
 */
import { EpisodicError, type ModelError } from '@episodic/core';
import { mapOpenAIError } from '../openai-shared/map-openai-error.js';

/** Maps an `openai` SDK error from a Chat Completions call. */
export function mapOpenAIChatError(error: unknown, provider = 'openai'): ModelError {
  return mapOpenAIError(error, provider);
}

/**
 * The model rejects function tools together with a reasoning effort on Chat
 * Completions ("Function tools with reasoning_effort are not supported for <model> in
 * /v1/chat/completions"). Nothing is re-routed silently: the user picks.
 */
export class ChatToolsNeedResponsesError extends EpisodicError {
  readonly model: string;

  constructor(model: string) {
    super(
      'use_responses_api',
      `${model} does not accept function tools with reasoning on Chat Completions. Use ` +
        'createOpenAIResponsesAdapter for this model, or set reasoningEffort: "none" to run it without reasoning.',
    );
    this.model = model;
  }
}
