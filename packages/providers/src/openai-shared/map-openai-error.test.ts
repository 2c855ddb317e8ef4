import { APIError } from 'openai';
import { beforeAll, describe, expect, it } from 'vitest';
import { mapOpenAIError } from './map-openai-error.js';
import { openAISdk } from './openai-sdk.js';

// The adapters load the SDK with their first request, before any error can arrive.
beforeAll(() => openAISdk.load());

/** What the SDK throws for an `{error: ...}` chunk in the middle of a stream: no HTTP status. */
const inStream = (error: Record<string, unknown>) => new APIError(undefined, error, undefined, new Headers());

describe('mapOpenAIError', () => {
  it('classifies a mid-stream error chunk by its code (OpenRouter, DeepSeek)', () => {
    expect(
      mapOpenAIError(inStream({ code: 'server_error', message: 'Provider disconnected unexpectedly' }), 'openrouter'),
    ).toMatchObject({ kind: 'server', retryable: true });
    expect(mapOpenAIError(inStream({ code: 502, message: 'Provider returned error' }), 'openrouter')).toMatchObject({
      kind: 'server',
      retryable: true,
      status: 502,
    });
    expect(mapOpenAIError(inStream({ code: 429, message: 'Provider is busy' }), 'openrouter')).toMatchObject({
      kind: 'rate-limit',
      retryable: true,
    });
  });

  it('recognises a context overflow by its code when the wording is unknown', () => {
    const error = new APIError(
      400,
      { message: 'Too many tokens.', code: 'context_length_exceeded', type: 'invalid_request_error' },
      undefined,
      new Headers(),
    );
    expect(mapOpenAIError(error, 'groq')).toMatchObject({ kind: 'context-overflow', retryable: false });
  });
});
