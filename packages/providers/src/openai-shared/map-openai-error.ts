/**
 * Maps errors thrown by the `openai` SDK (OpenAI Responses, Chat Completions and
 * every OpenAI-compatible endpoint) to a typed {@link ModelError} through the shared
 * error-classification table.
 *
 * @see https://platform.openai.com/docs/guides/error-codes
 */
import { ModelError } from '@episodic/core';
import { APIConnectionError, APIError, APIUserAbortError } from 'openai';
import { abortedError, classifyModelError, parseRetryAfter } from '../shared/error-classification.js';

/**
 * Turns anything the `openai` SDK throws into a {@link ModelError}. `provider` names
 * the endpoint in the message (`openai`, `deepseek`, ...). A ModelError passes through.
 */
export function mapOpenAIError(error: unknown, provider: string): ModelError {
  if (error instanceof ModelError) return error;
  if (error instanceof APIUserAbortError || (error instanceof Error && error.name === 'AbortError')) {
    return abortedError(provider, error);
  }
  if (error instanceof APIConnectionError) {
    return new ModelError(
      'network',
      `${provider}: could not connect (${error.message}). Check the base URL and retry.`,
      {
        retryable: true,
        cause: error,
      },
    );
  }
  if (error instanceof APIError && error.status !== undefined) {
    // The SDK prefixes the status ("400 ..."); the classification adds it back as "(HTTP 400)".
    const message = error.message.replace(/^\d{3}\s+/, '');
    return classifyModelError({
      provider,
      status: error.status,
      message,
      retryAfter: parseRetryAfter(error.headers?.get('retry-after')),
      cause: error,
    });
  }
  const detail = error instanceof Error ? error.message : String(error);
  return classifyModelError({ provider, message: `stream failed: ${detail}`, cause: error });
}
