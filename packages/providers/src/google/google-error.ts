/**
 * `@google/genai` errors to typed {@link ModelError}s
 * (https://ai.google.dev/gemini-api/docs/troubleshooting). The SDK's `ApiError`
 * carries the HTTP status and the JSON error body as its message.
 */

import { ModelError } from '@episodic/core';
import { abortedError, classifyModelError } from '../shared/error-classification.js';
import { googleSdk } from './google-sdk.js';

interface GoogleErrorBody {
  error?: { message?: string; status?: string; details?: { '@type'?: string; retryDelay?: string }[] };
}

/** The error body inside an SDK message (`{...}` or `got status: X. {...}`). */
function parseBody(message: string): GoogleErrorBody | undefined {
  const start = message.indexOf('{');
  if (start < 0) return undefined;
  try {
    return JSON.parse(message.slice(start)) as GoogleErrorBody;
  } catch {
    return undefined;
  }
}

/** `RetryInfo.retryDelay` ("12s" or "1.5s") in seconds. */
function retryDelayOf(body: GoogleErrorBody | undefined): number | undefined {
  const delay = body?.error?.details?.find((detail) => detail.retryDelay !== undefined)?.retryDelay;
  const seconds = delay === undefined ? Number.NaN : Number.parseFloat(delay);
  return Number.isFinite(seconds) ? seconds : undefined;
}

/** Maps anything the SDK throws to a {@link ModelError}. */
export function mapGoogleError(error: unknown, signal?: AbortSignal): ModelError {
  if (signal?.aborted) return abortedError('google', error);
  if (error instanceof ModelError) return error;
  // The SDK is loaded once a request was made; before that nothing it throws can arrive.
  const sdk = googleSdk.loaded;
  if (sdk && error instanceof sdk.ApiError) {
    const body = parseBody(error.message);
    return classifyModelError({
      provider: 'google',
      status: error.status,
      message: body?.error?.message ?? error.message,
      retryAfter: retryDelayOf(body),
      cause: error,
    });
  }
  if (error instanceof TypeError)
    return new ModelError('network', `google: ${error.message}. Check connectivity and retry.`, {
      retryable: true,
      cause: error,
    });
  return new ModelError('protocol', `google: ${error instanceof Error ? error.message : String(error)}`, {
    cause: error,
  });
}
