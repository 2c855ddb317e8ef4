/**
 * SDK errors to typed {@link ModelError}s (https://docs.claude.com/en/api/errors).
 * Status and message classification is the shared table; this file only reads
 * the SDK's error shapes.
 */
import { ModelError } from '@episodic/core';
import {
  abortedError,
  classifyModelError,
  connectionFailure,
  parseRetryAfter,
} from '../shared/error-classification.js';
import { anthropicSdk } from './anthropic-sdk.js';

/** Error `type`s of in-stream `error` events, which carry no HTTP status, as the status they stand for. */
const statusOfErrorType: Record<string, number> = {
  invalid_request_error: 400,
  authentication_error: 401,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  overloaded_error: 529,
};

/** Maps anything the SDK throws to a {@link ModelError}. */
export function mapAnthropicError(error: unknown, signal?: AbortSignal): ModelError {
  // An abort surfaces in many shapes (SDK abort error, a stream that just ends): the signal decides.
  // The SDK is loaded once a request was made; before that nothing it throws can arrive.
  const sdk = anthropicSdk.loaded;
  if (signal?.aborted || (sdk && error instanceof sdk.APIUserAbortError)) return abortedError('anthropic', error);
  if (error instanceof ModelError) return error;
  if (sdk && error instanceof sdk.APIConnectionError)
    return new ModelError('network', `anthropic: ${error.message} Check connectivity and retry.`, {
      retryable: true,
      cause: error,
    });
  if (sdk && error instanceof sdk.APIError) {
    const status = error.status ?? (error.type ? statusOfErrorType[error.type] : undefined);
    return classifyModelError({
      provider: 'anthropic',
      status,
      message: error.apiMessage ?? error.message,
      retryAfter: parseRetryAfter(error.headers?.get('retry-after')),
      cause: error,
    });
  }
  const dropped = connectionFailure('anthropic', error);
  if (dropped) return dropped;
  return new ModelError('protocol', `anthropic: ${error instanceof Error ? error.message : String(error)}`, {
    cause: error,
  });
}
