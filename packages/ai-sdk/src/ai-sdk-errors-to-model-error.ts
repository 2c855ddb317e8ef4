/**
 * AI SDK failures as Episodic's typed {@link ModelError}s, through the same
 * classification table as the native adapters: an `APICallError` by its HTTP status,
 * message and response body (a context overflow is a 400 whose text says so), a
 * `retry-after` header (or Gemini's `RetryInfo` in the body) as `retryAfter`, an error part inside the stream by its
 * message, a dropped connection as a retryable network error, an abort as `aborted`.
 */
import { ModelError } from '@episodic/core';
import { abortedError, classifyModelError, connectionFailure, parseRetryAfter } from '@episodic/providers/internal';
import { APICallError } from '@ai-sdk/provider';

/** Longest share of a response body quoted in an error message. */
const BODY_QUOTE = 500;

/** The error an adapter throws for `error`, raised while calling or streaming the model of `provider`. */
export function toModelError(provider: string, error: unknown, signal?: AbortSignal): ModelError {
  if (ModelError.isInstance(error)) return error;
  if (signal?.aborted || (error instanceof Error && error.name === 'AbortError')) return abortedError(provider, error);
  if (APICallError.isInstance(error)) {
    const headers = error.responseHeaders ?? {};
    const body = error.responseBody && !error.message.includes(error.responseBody) ? ` ${error.responseBody.slice(0, BODY_QUOTE)}` : '';
    const classified = classifyModelError({
      provider,
      message: `${error.message}${body}`,
      cause: error,
      ...(error.statusCode === undefined ? {} : { status: error.statusCode }),
      ...retryAfterOf(headers, error.responseBody),
    });
    if (classified.retryable || !error.isRetryable) return classified;
    // The provider package knows its API: a failure it calls retryable (a 408 timeout, a 409 lock) stays retryable.
    return new ModelError(classified.kind, classified.message, {
      retryable: true,
      status: error.statusCode,
      retryAfter: classified.retryAfter,
      cause: error,
    });
  }
  const network = connectionFailure(provider, error);
  if (network) return network;
  return classifyModelError({ provider, message: messageOf(error), cause: error });
}

/**
 * The wait the provider asked for: `retry-after-ms` or `retry-after` headers, else a
 * Gemini `google.rpc.RetryInfo` detail in the error body (`"retryDelay": "2s"`).
 */
function retryAfterOf(headers: Record<string, string>, body: string | undefined): { retryAfter?: number } {
  const milliseconds = Number(headers['retry-after-ms']);
  if (headers['retry-after-ms'] !== undefined && Number.isFinite(milliseconds) && milliseconds >= 0) {
    return { retryAfter: milliseconds / 1000 };
  }
  const seconds = parseRetryAfter(headers['retry-after']) ?? retryDelayIn(body);
  return seconds === undefined ? {} : { retryAfter: seconds };
}

function retryDelayIn(body: string | undefined): number | undefined {
  const delay = body === undefined ? undefined : /"retryDelay"\s*:\s*"(\d+(?:\.\d+)?)s"/.exec(body)?.[1];
  return delay === undefined ? undefined : Number(delay);
}

/** The message of a thrown value or an in-stream error part (often a provider's JSON error object). */
function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'string') return error;
  if (error && typeof error === 'object') {
    const record = error as { message?: unknown; error?: { message?: unknown; type?: unknown }; type?: unknown };
    const nested = record.error && typeof record.error === 'object' ? record.error : undefined;
    const message = nested?.message ?? record.message;
    const type = nested?.type ?? record.type;
    if (typeof message === 'string') return typeof type === 'string' ? `${type}: ${message}` : message;
    return JSON.stringify(error).slice(0, BODY_QUOTE);
  }
  return String(error);
}
