/**
 * The Gemini API adapter over `@google/genai`
 * (https://ai.google.dev/api/generate-content#method:-models.streamgeneratecontent).
 *
 * Per call: convert the packed messages (own thoughts and signatures back, other
 * models' already taken by core's `stripForeignReasoning`, placeholder signatures
 * on current-turn calls the model did not make), set `thinkingConfig` from the profile, stream, and map usage,
 * finish reason and errors. Gemini caches implicitly: no breakpoints to place.
 */

import type { ModelProfile, ModelRef, ModelRequest, StreamOptions } from '@episodic/core';
import type { Content, GenerateContentParameters, GoogleGenAI } from '@google/genai';
import type { GoogleModelProfile, GoogleThinkingSetting } from '../profiles/google.js';
import { apiKeysOf, resolveApiKey } from '../shared/missing-api-key-error.js';
import {
  callProvider,
  createProviderAdapter,
  type ErrorParts,
  leftOutProviderTools,
  type PreparedRequest,
  type ProviderAdapter,
  unknownOptionWarnings,
} from '../shared/provider-adapter.js';
import { LazyClient } from '../shared/lazy-sdk.js';
import { convertToGoogleMessages } from './convert-to-google-messages.js';
import { mapGoogleError } from './google-error.js';
import { googleOutputConfig } from './google-output-format.js';
import { prepareGoogleTools } from './google-prepare-tools.js';
import { googleSdk, type LazyGoogleClient } from './google-sdk.js';
import { resolveGoogleProfile } from '../profiles/google-resolver.js';
import { mapGoogleStream } from './google-stream.js';
import { buildThinkingConfig } from './google-thinking.js';

/** Options of {@link createGoogleAdapter}. */
export interface GoogleAdapterOptions {
  /** Model id, e.g. `gemini-3-pro-preview`. */
  model: string;
  /** Default: `GEMINI_API_KEY`, then `GOOGLE_API_KEY`. */
  apiKey?: string | undefined;
  /** Passed to the SDK as `httpOptions.baseUrl`. */
  baseURL?: string | undefined;
  /** Profile fields to override. */
  profile?: Partial<ModelProfile> | undefined;
  /** Overrides the profile's thinking setting (a budget or a level, never both). */
  thinking?: GoogleThinkingSetting | undefined;
  /** A preconfigured SDK client (then `apiKey` and `baseURL` are ignored). */
  client?: GoogleGenAI | undefined;
}

/** The Gemini adapter: a `ProviderAdapter` plus exact token counts. */
export interface GoogleAdapter extends ProviderAdapter<GenerateContentParameters, GoogleModelProfile> {
  /**
   * Exact input tokens by Gemini's tokenizer (`models.countTokens`). The Gemini
   * API counts contents only here, so the system instruction is counted as a
   * leading user turn and tool declarations are not counted.
   */
  countTokens(request: ModelRequest, options?: StreamOptions): Promise<number>;
}

const knownProviderOptions = new Set<string>();

/** Creates an adapter for the Gemini API. */
export function createGoogleAdapter(options: GoogleAdapterOptions): GoogleAdapter {
  const model: ModelRef = { provider: 'google', id: options.model };
  const profile = resolveGoogleProfile(options.model, options.profile, options.thinking);
  const client = googleClient(options);
  const prepare = (request: ModelRequest) => prepareGoogleRequest(request, model, profile);
  const errors: ErrorParts = { mapError: mapGoogleError, secretValues: () => apiKeysOf(client) };
  return {
    ...createProviderAdapter({
      ...errors,
      model,
      profile,
      prepare,
      // The SDK takes the abort signal inside the request's config.
      open: async ({ body }, signal) => (await client.get()).models.generateContentStream(signal ? withSignal(body, signal) : body),
      map: (chunks) => mapGoogleStream(chunks, model),
    }),
    async countTokens(request, { signal } = {}) {
      const { body } = prepare(request);
      const system = body.config?.systemInstruction as Content | undefined;
      const contents = [...(system ? [{ role: 'user', parts: system.parts }] : []), ...(body.contents as Content[])];
      return callProvider(errors, signal, async () => {
        const counted = await (await client.get()).models.countTokens({
          model: model.id,
          contents,
          ...(signal ? { config: { abortSignal: signal } } : {}),
        });
        return counted.totalTokens ?? 0;
      });
    },
  };
}

/** The given client, or one made on the first request; a missing key is reported here, when the adapter is created. */
function googleClient(options: GoogleAdapterOptions): LazyGoogleClient {
  if (options.client) return LazyClient.given(googleSdk, options.client);
  const apiKey = resolveApiKey('google', options.apiKey, ['GEMINI_API_KEY', 'GOOGLE_API_KEY']);
  const httpOptions = options.baseURL ? { httpOptions: { baseUrl: options.baseURL } } : {};
  return LazyClient.create(googleSdk, apiKey, (sdk, key) => new sdk.GoogleGenAI({ apiKey: key, ...httpOptions }));
}

/** Builds the SDK parameters for a packed neutral request. */
function prepareGoogleRequest(
  request: ModelRequest,
  model: ModelRef,
  profile: GoogleModelProfile,
): PreparedRequest<GenerateContentParameters> {
  const leftOut = leftOutProviderTools(request.messages, model);
  const converted = convertToGoogleMessages(request.system, request.messages, { profile });
  const tools = prepareGoogleTools(request.tools);
  const thinkingConfig = buildThinkingConfig(profile.thinking);
  const body: GenerateContentParameters = {
    model: model.id,
    contents: converted.contents,
    config: {
      maxOutputTokens: request.maxOutputTokens ?? profile.maxOutputTokens,
      ...(converted.systemInstruction ? { systemInstruction: converted.systemInstruction } : {}),
      ...(tools ? { tools } : {}),
      ...(thinkingConfig ? { thinkingConfig } : {}),
      ...(request.output ? googleOutputConfig(request.output) : {}),
    },
  };
  const warnings = [
    ...leftOut,
    ...unknownOptionWarnings('google', request.providerOptions, knownProviderOptions),
  ];
  return { body, warnings };
}

function withSignal(body: GenerateContentParameters, signal: AbortSignal): GenerateContentParameters {
  return { ...body, config: { ...body.config, abortSignal: signal } };
}
