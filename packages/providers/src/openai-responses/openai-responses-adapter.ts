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
import { type AssistantMessage, ModelError, type ModelRef, type ModelRequest, type Usage } from '@episodic/core';
import type OpenAI from 'openai';
import type { CompactedResponse, ResponseCreateParamsStreaming } from 'openai/resources/responses/responses';
import type { OpenAIProfile } from '../profiles/openai.js';
import { resolveOpenAIProfile } from '../profiles/openai-resolver.js';
import { openAIClient, openAIStreamError } from '../openai-shared/openai-client.js';
import { openAIJsonSchemaFormat } from '../openai-shared/openai-output-format.js';
import { apiKeysOf } from '../shared/missing-api-key-error.js';
import {
  callProvider,
  createProviderAdapter,
  leftOutProviderTools,
  plainWarnings,
  type PreparedRequest,
  type ProviderAdapter,
  unknownOptionWarnings,
} from '../shared/provider-adapter.js';
import { convertToOpenAIResponsesMessages } from './convert-to-openai-responses-messages.js';
import { mapOpenAIResponsesError } from './openai-responses-error.js';
import { prepareOpenAIResponsesTools } from './openai-responses-prepare-tools.js';
import { mapOpenAIResponsesStream } from './openai-responses-stream.js';
import { openAIContextParams } from './openai-responses-context-management.js';
import { hidesPastReasoning } from './openai-responses-input-transformations.js';
import type { OpenAIResponsesCallSettings } from './openai-responses-settings.js';
import { buildReasoningParams } from './openai-responses-thinking.js';

export type {
  OpenAIReasoningEffort,
  OpenAIReasoningSummary,
  OpenAIResponsesCallSettings,
} from './openai-responses-settings.js';

/** Options of {@link createOpenAIResponsesAdapter}. */
export interface OpenAIResponsesAdapterOptions extends OpenAIResponsesCallSettings {
  model: string;
  /** Default: the `OPENAI_API_KEY` environment variable (or the profile's `apiKeyEnv`). */
  apiKey?: string | undefined;
  /** Default: the profile's base URL (`https://api.openai.com/v1`). */
  baseURL?: string | undefined;
  /** Overrides of any profile field. */
  profile?: Partial<OpenAIProfile> | undefined;
  /** A ready client (then `apiKey` and `baseURL` are ignored). */
  client?: OpenAI | undefined;
  /** Ask the API to store responses. Default false: the transcript is the truth. */
  store?: boolean | undefined;
  /** Retries the SDK itself makes on 429/5xx. Default 0: the agent loop retries on `retryable` errors. */
  maxRetries?: number | undefined;
}

const callSettingKeys = new Set(['reasoningEffort', 'reasoningSummary', 'promptCacheKey']);

/** The OpenAI Responses adapter. */
export type OpenAIResponsesAdapter = ProviderAdapter<ResponseCreateParamsStreaming, OpenAIProfile>;

/** Creates an adapter for the OpenAI Responses API. */
export function createOpenAIResponsesAdapter(options: OpenAIResponsesAdapterOptions): OpenAIResponsesAdapter {
  const profile = resolveOpenAIProfile(options.model, options.profile);
  const model: ModelRef = { provider: 'openai', id: options.model };
  const client = openAIClient(options, profile);
  const prepare = (request: ModelRequest) => prepareOpenAIResponsesRequest(request, model, profile, options);
  const errors = { secretValues: () => apiKeysOf(client), mapError: openAIStreamError('openai', mapOpenAIResponsesError) };
  const adapter = createProviderAdapter({
    nativeContext: true,
    ...errors,
    model,
    profile,
    prepare,
    open: async ({ body }, signal) => (await client.get()).responses.create(body, { signal }),
    map: (events, { body }) =>
      mapOpenAIResponsesStream(events, model, {
        input: body.input,
        hidesPastReasoning: hidesPastReasoning(body.reasoning, profile.pastReasoning === 'stripped'),
      }),
  });
  return {
    ...adapter,
    // `POST /responses/compact`: the conversation as the next call would send it, compacted.
    async compact(request, { signal } = {}) {
      const { body } = prepare(request);
      const compacted = await callProvider(errors, signal, async () =>
        (await client.get()).responses.compact(
          { model: model.id, input: body.input, ...(body.instructions ? { instructions: body.instructions } : {}) },
          { signal },
        ),
      );
      return compactionMessage(compacted, model);
    },
  };
}

/**
 * The compaction item of a `/responses/compact` answer as an assistant message: one
 * opaque `compaction` part, sent back verbatim and only to this model. The answer's user
 * messages are the transcript's own and are not copied; the part says how many there
 * were, so later calls send them before the item, as the compacted window has them.
 */
function compactionMessage(compacted: CompactedResponse, model: ModelRef): { message: AssistantMessage; usage: Usage } {
  const at = compacted.output.findIndex((entry) => (entry.type as string) === 'compaction');
  const item = compacted.output[at];
  if (!item) throw new ModelError('protocol', 'openai: /responses/compact answered without a compaction item.');
  const userMessagesKept = compacted.output.slice(0, at).filter((entry) => (entry as { role?: unknown }).role === 'user').length;
  const tag = { provider: model.provider, model: model.id };
  const usage: Usage = {
    inputTokens: compacted.usage?.input_tokens ?? 0,
    cachedInputTokens: compacted.usage?.input_tokens_details?.cached_tokens ?? 0,
    outputTokens: compacted.usage?.output_tokens ?? 0,
  };
  const part = { type: 'compaction' as const, userMessagesKept, providerData: { ...tag, item: { ...item } } };
  return { message: { role: 'assistant', content: [part], model, usage }, usage };
}

/** Builds the streaming request body and the warnings it raised. */
function prepareOpenAIResponsesRequest(
  request: ModelRequest,
  model: ModelRef,
  profile: OpenAIProfile,
  defaults: OpenAIResponsesAdapterOptions,
): PreparedRequest<ResponseCreateParamsStreaming> {
  const leftOut = leftOutProviderTools(request.messages, model);
  const callOptions = request.providerOptions ?? {};
  const settings = { ...defaults, ...(callOptions as OpenAIResponsesCallSettings) };
  const input = convertToOpenAIResponsesMessages(request.messages);
  const tools = prepareOpenAIResponsesTools(request.tools);
  const thinking = buildReasoningParams(model.id, profile, settings);
  const native = openAIContextParams(request.nativeContext, thinking.reasoning !== undefined);
  const reasoning =
    thinking.reasoning && native.reasoningContext ? { ...thinking.reasoning, context: native.reasoningContext } : thinking.reasoning;
  const warnings = [
    ...leftOut,
    ...unknownOptionWarnings('openai-responses', callOptions, callSettingKeys),
    ...plainWarnings(thinking.warnings, native.warnings),
  ];
  const body: ResponseCreateParamsStreaming = {
    model: model.id,
    input,
    stream: true,
    store: defaults.store ?? false,
    ...(request.system ? { instructions: request.system } : {}),
    ...(tools ? { tools } : {}),
    ...(request.maxOutputTokens ? { max_output_tokens: request.maxOutputTokens } : {}),
    ...(thinking.include ? { include: thinking.include } : {}),
    ...(settings.promptCacheKey ? { prompt_cache_key: settings.promptCacheKey } : {}),
    ...(reasoning ? { reasoning } : {}),
    ...(native.contextManagement ? { context_management: native.contextManagement } : {}),
    ...(request.output ? { text: { format: { type: 'json_schema', ...openAIJsonSchemaFormat(request.output) } } } : {}),
  };
  return { body, warnings };
}
