/**
 * Maps errors thrown by the `openai` SDK (OpenAI Responses, Chat Completions and
 * every OpenAI-compatible endpoint) to a typed {@link ModelError} through the shared
 * error-classification table.
 *
 * @see https://platform.openai.com/docs/guides/error-codes
 */
import { ModelError } from '@episodic/core';
import { openAISdk } from './openai-sdk.js';
import {
  abortedError,
  classifyModelError,
  connectionFailure,
  parseRetryAfter,
} from '../shared/error-classification.js';

/**
 * An error chunk in the middle of a stream has no HTTP status; its code stands
 * for one: OpenRouter puts the HTTP status there, others a name
 * (https://openrouter.ai/docs/api-reference/errors).
 */
const statusOfCodeName: Readonly<Record<string, number>> = {
  server_error: 500,
  rate_limit_exceeded: 429,
  context_length_exceeded: 400,
};

function statusOfCode(code: unknown): number | undefined {
  if (typeof code === 'number' && code >= 400 && code <= 599) return code;
  if (typeof code === 'string' && /^[45]\d\d$/.test(code)) return Number(code);
  return typeof code === 'string' ? statusOfCodeName[code] : undefined;
}

/**
 * Turns anything the `openai` SDK throws into a {@link ModelError}. `provider` names
 * the endpoint in the message (`openai`, `deepseek`, ...). A ModelError passes through.
 */
export function mapOpenAIError(error: unknown, provider: string): ModelError {
  if (error instanceof ModelError) return error;
  // The SDK is loaded once a request was made; before that nothing it throws can arrive.
  const sdk = openAISdk.loaded;
  if ((sdk && error instanceof sdk.APIUserAbortError) || (error instanceof Error && error.name === 'AbortError')) {
    return abortedError(provider, error);
  }
  if (sdk && error instanceof sdk.APIConnectionError) {
    return new ModelError(
      'network',
      `${provider}: could not connect (${error.message}). Check the base URL and retry.`,
      {
        retryable: true,
        cause: error,
      },
    );
  }
  if (sdk && error instanceof sdk.APIError) {
    // The SDK prefixes the status ("400 ..."); the classification adds it back as "(HTTP 400)".
    const text = error.message.replace(/^\d{3}\s+/, '');
    // The error code is not part of the SDK's message; wording varies by server, the code does not.
    const code = typeof error.code === 'string' && !text.includes(error.code) ? `${error.code}: ` : '';
    const status = error.status ?? statusOfCode(error.code);
    if (status !== undefined) {
      return classifyModelError({
        provider,
        status,
        message: `${code}${text}`,
        retryAfter: parseRetryAfter(error.headers?.get('retry-after')),
        cause: error,
      });
    }
  }
  const dropped = connectionFailure(provider, error);
  if (dropped) return dropped;
  const detail = error instanceof Error ? error.message : String(error);
  return classifyModelError({ provider, message: `stream failed: ${detail}`, cause: error });
}
