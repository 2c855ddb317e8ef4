/**
 * The Gemini API adapter over `@google/genai`
 * (https://ai.google.dev/api/generate-content#method:-models.streamgeneratecontent).
 *
 * Per call: convert the packed messages (own thoughts and signatures back,
 * foreign ones dropped, placeholder signatures on current-turn calls the model
 * did not make), set `thinkingConfig` from the profile, stream, and map usage,
 * finish reason and errors. Gemini caches implicitly: no breakpoints to place.
 */

import type {
  ModelAdapter,
  ModelProfile,
  ModelRef,
  ModelRequest,
  ModelStreamEvent,
  StreamOptions,
} from '@episodic/core';
import { googleOutputConfig } from './google-output-format.js';
import { type Content, type GenerateContentParameters, GoogleGenAI } from '@google/genai';
import type { GoogleModelProfile, GoogleThinkingSetting } from '../profiles/google.js';
import { resolveApiKey } from '../shared/missing-api-key-error.js';
import { foreignReasoningWarning } from '../shared/provider-data.js';
import { streamCall, unknownOptionWarnings } from '../shared/stream-call.js';
import { convertToGoogleMessages } from './convert-to-google-messages.js';
import { mapGoogleError } from './google-error.js';
import { prepareGoogleTools } from './google-prepare-tools.js';
import { resolveGoogleProfile } from './google-profile.js';
import { mapGoogleStream } from './google-stream.js';
import { buildThinkingConfig } from './google-thinking.js';

export interface GoogleAdapterOptions {
  /** Model id, e.g. `gemini-3-pro-preview`. */
  model: string;
  /** Default: `GEMINI_API_KEY`, then `GOOGLE_API_KEY`. */
  apiKey?: string;
  /** Passed to the SDK as `httpOptions.baseUrl`. */
  baseURL?: string;
  /** Profile fields to override. */
  profile?: Partial<ModelProfile>;
  /** Overrides the profile's thinking setting (a budget or a level, never both). */
  thinking?: GoogleThinkingSetting;
  /** A preconfigured SDK client (then `apiKey` and `baseURL` are ignored). */
  client?: GoogleGenAI;
}

const knownProviderOptions = new Set<string>();

/** The Gemini adapter. */
export class GoogleAdapter implements ModelAdapter {
  readonly model: ModelRef;
  readonly profile: GoogleModelProfile;
  /** An ES private field, so inspecting or logging the adapter never shows the client's API key. */
  readonly #client: GoogleGenAI;

  constructor(options: GoogleAdapterOptions) {
    this.model = { provider: 'google', id: options.model };
    this.profile = resolveGoogleProfile(options.model, options.profile, options.thinking);
    this.#client =
      options.client ??
      new GoogleGenAI({
        apiKey: resolveApiKey('google', options.apiKey, ['GEMINI_API_KEY', 'GOOGLE_API_KEY']),
        ...(options.baseURL ? { httpOptions: { baseUrl: options.baseURL } } : {}),
      });
  }

  /** Builds the SDK parameters for a packed neutral request (exposed for tests and debugging). */
  prepare(request: ModelRequest, signal?: AbortSignal): { params: GenerateContentParameters; warnings: string[] } {
    const converted = convertToGoogleMessages(request.system, request.messages, {
      model: this.model,
      profile: this.profile,
    });
    const tools = prepareGoogleTools(request.tools);
    const thinkingConfig = buildThinkingConfig(this.profile.thinking);
    const params: GenerateContentParameters = {
      model: this.model.id,
      contents: converted.contents,
      config: {
        maxOutputTokens: request.maxOutputTokens ?? this.profile.maxOutputTokens,
        ...(converted.systemInstruction ? { systemInstruction: converted.systemInstruction } : {}),
        ...(tools ? { tools } : {}),
        ...(thinkingConfig ? { thinkingConfig } : {}),
        ...(request.output ? googleOutputConfig(request.output) : {}),
        ...(signal ? { abortSignal: signal } : {}),
      },
    };
    const warnings = [
      ...foreignReasoningWarning('google', converted.droppedReasoning),
      ...unknownOptionWarnings('google', request.providerOptions, knownProviderOptions),
    ];
    return { params, warnings };
  }

  async* stream(request: ModelRequest, { signal }: StreamOptions = {}): AsyncGenerator<ModelStreamEvent> {
    const prepared = this.prepare(request, signal);
    yield* streamCall({
      warnings: prepared.warnings,
      open: () => this.#client.models.generateContentStream(prepared.params),
      map: (chunks) => mapGoogleStream(chunks, this.model),
      mapError: (error) => mapGoogleError(error, signal),
    });
  }

  /**
   * Exact input tokens by Gemini's tokenizer (`models.countTokens`). The Gemini
   * API counts contents only here, so the system instruction is counted as a
   * leading user turn and tool declarations are not counted.
   */
  async countTokens(request: ModelRequest, options: StreamOptions = {}): Promise<number> {
    const { params } = this.prepare(request);
    const system = params.config?.systemInstruction as Content | undefined;
    const contents = [...(system ? [{ role: 'user', parts: system.parts }] : []), ...(params.contents as Content[])];
    try {
      const counted = await this.#client.models.countTokens({
        model: this.model.id,
        contents,
        ...(options.signal ? { config: { abortSignal: options.signal } } : {}),
      });
      return counted.totalTokens ?? 0;
    } catch (error) {
      throw mapGoogleError(error, options.signal);
    }
  }
}

/** Creates a {@link GoogleAdapter}. */
export function createGoogleAdapter(options: GoogleAdapterOptions): GoogleAdapter {
  return new GoogleAdapter(options);
}
