/**
 * The `openai` SDK client for OpenAI's own endpoints (Responses and Chat
 * Completions), and the error mapping their streams share.
 */
import type OpenAI from 'openai';
import type { OpenAIProfile } from '../profiles/openai.js';
import { abortedError } from '../shared/error-classification.js';
import { resolveApiKey } from '../shared/missing-api-key-error.js';
import { LazyClient } from '../shared/lazy-sdk.js';
import { type LazyOpenAIClient, openAISdk } from './openai-sdk.js';

/** Client options both OpenAI adapters take. */
export interface OpenAIClientOptions {
  apiKey?: string | undefined;
  baseURL?: string | undefined;
  maxRetries?: number | undefined;
  client?: OpenAI | undefined;
}

/**
 * The given client, or one made on the first request with the key from options or
 * the profile's variable (SDK retries off by default: the loop retries). A missing
 * key is reported here, when the adapter is created.
 */
export function openAIClient(options: OpenAIClientOptions, profile: OpenAIProfile): LazyOpenAIClient {
  if (options.client) return LazyClient.given(openAISdk, options.client);
  const apiKey = resolveApiKey('openai', options.apiKey, [profile.apiKeyEnv]);
  const baseURL = options.baseURL ?? profile.baseURL;
  const maxRetries = options.maxRetries ?? 0;
  return LazyClient.create(openAISdk, apiKey, (sdk, key) => new sdk.OpenAI({ apiKey: key, baseURL, maxRetries }));
}

/**
 * Maps a stream failure: the SDK may end an aborted stream quietly or with any
 * error, so once the caller aborted, the error is an abort whatever surfaced.
 */
export function openAIStreamError(
  provider: string,
  map: (error: unknown) => Error,
): (error: unknown, signal: AbortSignal | undefined) => Error {
  return (error, signal) => (signal?.aborted ? abortedError(provider, error) : map(error));
}
