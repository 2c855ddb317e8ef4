/**
 * Errors of OpenAI-compatible servers. Some (Cerebras) answer with an error body
 * that has no `error` wrapper, so `openai` 6 reports only "400 status code (no
 * body)" (7 wraps such a body itself). The client's fetch is wrapped to put such
 * bodies under `error`, so the user reads the server's real reason on either major.
 *
 * @see https://inference-docs.cerebras.ai/support/error
 */
import type { ModelError } from '@episodic/core';
import { mapOpenAIError } from '../openai-shared/map-openai-error.js';

/** The fetch signature the `openai` SDK takes. */
export type SdkFetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/**
 * Wraps `fetch` so that a failed response whose JSON body lacks an `error` field
 * reaches the SDK as `{error: <body>}` (plain-text bodies as `{error: {message}}`).
 */
export function withWrappedErrorBodies(base: SdkFetch = fetch): SdkFetch {
  return async (input, init) => {
    const response = await base(input, init);
    if (response.ok) return response;
    const text = await response.text();
    const wrapped = wrapErrorBody(text);
    return new Response(wrapped, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}

/** The body with an `error` wrapper added when it has none. */
export function wrapErrorBody(text: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return text.trim() === '' ? text : JSON.stringify({ error: { message: text.trim() } });
  }
  if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) && !('error' in parsed)) {
    return JSON.stringify({ error: parsed });
  }
  return text;
}

/** Maps an `openai` SDK error from a compatible server to a {@link ModelError}. */
export function mapOpenAICompatibleError(error: unknown, provider: string): ModelError {
  return mapOpenAIError(error, provider);
}
