import { APICallError } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { toModelError } from './ai-sdk-errors-to-model-error.js';

const apiError = (statusCode: number, message: string, extra: Partial<ConstructorParameters<typeof APICallError>[0]> = {}) =>
  new APICallError({ message, url: 'http://127.0.0.1/v1/messages', requestBodyValues: {}, statusCode, ...extra });

describe('toModelError', () => {
  it('maps a 429 with retry-after to a retryable rate limit with its wait', () => {
    const error = toModelError('anthropic', apiError(429, 'rate limited', { responseHeaders: { 'retry-after': '7' }, isRetryable: true }));
    expect(error).toMatchObject({ kind: 'rate-limit', retryable: true, status: 429, retryAfter: 7 });
  });

  it('reads Gemini`s RetryInfo from the body and retry-after-ms from the headers', () => {
    const body = JSON.stringify({ error: { details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '2.5s' }] } });
    expect(toModelError('google', apiError(429, 'quota', { responseBody: body }))).toMatchObject({ retryAfter: 2.5 });
    expect(toModelError('openai', apiError(429, 'slow', { responseHeaders: { 'retry-after-ms': '1500' } }))).toMatchObject({ retryAfter: 1.5 });
  });

  it('maps a 400 that says the prompt is too long to context-overflow, other 400s to invalid-request', () => {
    expect(toModelError('anthropic', apiError(400, 'prompt is too long: 212345 tokens > 200000 maximum'))).toMatchObject({
      kind: 'context-overflow',
      retryable: false,
    });
    expect(toModelError('anthropic', apiError(400, 'messages.1: bad'))).toMatchObject({ kind: 'invalid-request', retryable: false });
  });

  it('maps overload, server errors, a dropped connection, an abort and an in-stream error object', () => {
    expect(toModelError('anthropic', apiError(529, 'Overloaded'))).toMatchObject({ kind: 'overloaded', retryable: true });
    expect(toModelError('openai', apiError(502, 'bad gateway'))).toMatchObject({ kind: 'server', retryable: true });
    expect(toModelError('openai', new TypeError('fetch failed'))).toMatchObject({ kind: 'network', retryable: true });
    const controller = new AbortController();
    controller.abort();
    expect(toModelError('openai', new Error('stopped'), controller.signal)).toMatchObject({ kind: 'aborted' });
    expect(toModelError('anthropic', { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } })).toMatchObject({
      kind: 'overloaded',
      retryable: true,
    });
  });

  it('keeps a failure the table does not know but the AI SDK calls retryable, retryable', () => {
    expect(toModelError('openai', apiError(409, 'conflict', { isRetryable: true }))).toMatchObject({ retryable: true });
  });
});
