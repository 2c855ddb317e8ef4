/**
 * The `openai` SDK client for OpenAI's own endpoints (Responses and Chat
 * Completions), and the error mapping their streams share.
 */
import OpenAI from 'openai';
import type { OpenAIProfile } from '../profiles/openai.js';
import { abortedError } from '../shared/error-classification.js';
import { resolveApiKey } from '../shared/missing-api-key-error.js';
import { newClient } from '../shared/provider-adapter.js';

/** Client options both OpenAI adapters take. */
export interface OpenAIClientOptions {
  apiKey?: string;
  baseURL?: string;
  maxRetries?: number;
  client?: OpenAI;
}

/** The given client, or a new one with the key from options or the profile's variable (SDK retries off by default: the loop retries). */
export function openAIClient(options: OpenAIClientOptions, profile: OpenAIProfile): OpenAI {
  if (options.client) return options.client;
  const baseURL = options.baseURL ?? profile.baseURL;
  return newClient(resolveApiKey('openai', options.apiKey, [profile.apiKeyEnv]), (apiKey) =>
    new OpenAI({ apiKey, baseURL, maxRetries: options.maxRetries ?? 0 }),
  );
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
