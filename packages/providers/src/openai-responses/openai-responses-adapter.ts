/**
 * The OpenAI Responses API adapter (over the official `openai` SDK).
 *
 * Runs with `store: false` by default: reasoning comes back as encrypted items that
 * we keep on the transcript and send back within the episode, so our transcript is
 * the single source of truth (no `previous_response_id`).
 *
 * @see https://platform.openai.com/docs/api-reference/responses/create
 * @see https://platform.openai.com/docs/guides/reasoning
 */
import type { ModelAdapter, ModelRef, ModelRequest, ModelStreamEvent, StreamOptions } from '@episodic/core';
import { openAIJsonSchemaFormat } from '../openai-shared/openai-output-format.js';
import type OpenAI from 'openai';
import type { ResponseCreateParamsStreaming, ResponseIncludable } from 'openai/resources/responses/responses';
import { type OpenAIProfile, resolveOpenAIProfile } from '../profiles/openai.js';
import { droppedReasoningWarning, openAIClient, openAIStreamError } from '../openai-shared/openai-client.js';
import { streamCall, unknownOptionWarnings } from '../shared/stream-call.js';
import { convertToOpenAIResponsesMessages } from './convert-to-openai-responses-messages.js';
import { mapOpenAIResponsesError } from './openai-responses-error.js';
import { prepareOpenAIResponsesTools } from './openai-responses-prepare-tools.js';
import { mapOpenAIResponsesStream } from './openai-responses-stream.js';

/** `reasoning.effort` values. */
export type OpenAIReasoningEffort = 'none' | 'minimal' | 'low' | 'medium' | 'high' | 'xhigh';
/** `reasoning.summary` values. */
export type OpenAIReasoningSummary = 'auto' | 'concise' | 'detailed';

/** Per-call settings, also accepted in `request.providerOptions`. */
export interface OpenAIResponsesCallSettings {
  reasoningEffort?: OpenAIReasoningEffort;
  /** Default `auto` for reasoning models, so summaries stream as reasoning deltas. */
  reasoningSummary?: OpenAIReasoningSummary;
  /** Improves cache routing for requests that share a long prefix. */
  promptCacheKey?: string;
}

/** Options of {@link createOpenAIResponsesAdapter}. */
export interface OpenAIResponsesAdapterOptions extends OpenAIResponsesCallSettings {
  model: string;
  /** Default: the `OPENAI_API_KEY` environment variable (or the profile's `apiKeyEnv`). */
  apiKey?: string;
  /** Default: the profile's base URL (`https://api.openai.com/v1`). */
  baseURL?: string;
  /** Overrides of any profile field. */
  profile?: Partial<OpenAIProfile>;
  /** A ready client (then `apiKey` and `baseURL` are ignored). */
  client?: OpenAI;
  /** Ask the API to store responses. Default false: the transcript is the truth. */
  store?: boolean;
  /** Retries the SDK itself makes on 429/5xx. Default 0: the agent loop retries on `retryable` errors. */
  maxRetries?: number;
}

const callSettingKeys = new Set(['reasoningEffort', 'reasoningSummary', 'promptCacheKey']);

/** Creates a {@link ModelAdapter} for the OpenAI Responses API. */
export function createOpenAIResponsesAdapter(options: OpenAIResponsesAdapterOptions): ModelAdapter {
  const profile = resolveOpenAIProfile(options.model, options.profile);
  const model: ModelRef = { provider: 'openai', id: options.model };
  const client = openAIClient(options, profile);
  return {
    model,
    profile,
    async* stream(request: ModelRequest, { signal }: StreamOptions = {}): AsyncGenerator<ModelStreamEvent> {
      const { body, warnings } = buildOpenAIResponsesBody(request, model, profile, options);
      yield* streamCall({
        warnings,
        open: () => client.responses.create(body, { signal }),
        map: (events) => mapOpenAIResponsesStream(events, model),
        mapError: openAIStreamError(signal, 'openai', mapOpenAIResponsesError),
      });
    },
  };
}

/** Builds the streaming request body and the warnings it raised. */
export function buildOpenAIResponsesBody(
  request: ModelRequest,
  model: ModelRef,
  profile: OpenAIProfile,
  defaults: OpenAIResponsesAdapterOptions,
): { body: ResponseCreateParamsStreaming; warnings: string[] } {
  const callOptions = request.providerOptions ?? {};
  const warnings = unknownOptionWarnings('openai-responses', callOptions, callSettingKeys);
  const settings = { ...defaults, ...(callOptions as OpenAIResponsesCallSettings) };
  const { input, droppedForeignReasoning } = convertToOpenAIResponsesMessages(request.messages, model);
  warnings.push(...droppedReasoningWarning('openai-responses', droppedForeignReasoning));
  const tools = prepareOpenAIResponsesTools(request.tools);
  const include: ResponseIncludable[] = profile.reasoning ? ['reasoning.encrypted_content'] : [];
  const body: ResponseCreateParamsStreaming = {
    model: model.id,
    input,
    stream: true,
    store: defaults.store ?? false,
    ...(request.system ? { instructions: request.system } : {}),
    ...(tools ? { tools } : {}),
    ...(request.maxOutputTokens ? { max_output_tokens: request.maxOutputTokens } : {}),
    ...(include.length > 0 ? { include } : {}),
    ...(settings.promptCacheKey ? { prompt_cache_key: settings.promptCacheKey } : {}),
    ...(request.output ? { text: { format: { type: 'json_schema', ...openAIJsonSchemaFormat(request.output) } } } : {}),
  };
  if (profile.reasoning) {
    body.reasoning = {
      ...(settings.reasoningEffort ? { effort: settings.reasoningEffort } : {}),
      summary: settings.reasoningSummary ?? 'auto',
    };
  } else if (settings.reasoningEffort) {
    warnings.push(`openai-responses: ${model.id} does not reason; reasoningEffort ignored`);
  }
  return { body, warnings };
}
