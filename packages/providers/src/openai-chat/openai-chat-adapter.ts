/**
 * The OpenAI Chat Completions adapter (over the official `openai` SDK).
 *
 * This endpoint returns no reasoning text and has no field to send reasoning back;
 * it takes `reasoning_effort` only. Models whose profile says Chat Completions
 * rejects tools with reasoning fail with {@link ChatToolsNeedResponsesError} before
 * any request is sent: nothing is re-routed or downgraded silently.
 *
 * @see https://platform.openai.com/docs/api-reference/chat/create
 */
import type { ModelRef, ModelRequest } from '@episodic/core';
import type OpenAI from 'openai';
import type { ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions';
import type { OpenAIReasoningEffort } from '../openai-responses/openai-responses-adapter.js';
import type { OpenAIProfile } from '../profiles/openai.js';
import { resolveOpenAIProfile } from '../profiles/openai-resolver.js';
import { openAIClient, openAIStreamError } from '../openai-shared/openai-client.js';
import { openAIJsonSchemaFormat } from '../openai-shared/openai-output-format.js';
import { apiKeysOf } from '../shared/missing-api-key-error.js';
import {
  createProviderAdapter,
  leftOutProviderTools,
  type PreparedRequest,
  type ProviderAdapter,
  unknownOptionWarnings,
} from '../shared/provider-adapter.js';
import { convertToOpenAIChatMessages } from './convert-to-openai-chat-messages.js';
import { ChatToolsNeedResponsesError, mapOpenAIChatError } from './openai-chat-error.js';
import { prepareOpenAIChatTools } from './openai-chat-prepare-tools.js';
import { mapOpenAIChatStream } from './openai-chat-stream.js';
import { openChatChunks } from './openai-chat-raw-stream.js';

/** Per-call settings, also accepted in `request.providerOptions`. */
export interface OpenAIChatCallSettings {
  reasoningEffort?: OpenAIReasoningEffort;
  promptCacheKey?: string;
}

/** Options of {@link createOpenAIChatAdapter}. */
export interface OpenAIChatAdapterOptions extends OpenAIChatCallSettings {
  model: string;
  /** Default: the `OPENAI_API_KEY` environment variable. */
  apiKey?: string | undefined;
  baseURL?: string | undefined;
  /** Overrides of any profile field. */
  profile?: Partial<OpenAIProfile> | undefined;
  /** A ready client (then `apiKey` and `baseURL` are ignored). */
  client?: OpenAI | undefined;
  /** Retries the SDK itself makes on 429/5xx. Default 0: the agent loop retries on `retryable` errors. */
  maxRetries?: number | undefined;
}

const callSettingKeys = new Set(['reasoningEffort', 'promptCacheKey']);

/** The OpenAI Chat Completions adapter. */
export type OpenAIChatAdapter = ProviderAdapter<ChatCompletionCreateParamsStreaming, OpenAIProfile>;

/** Creates an adapter for OpenAI Chat Completions. */
export function createOpenAIChatAdapter(options: OpenAIChatAdapterOptions): OpenAIChatAdapter {
  const profile = withoutNativeContext(resolveOpenAIProfile(options.model, options.profile));
  const model: ModelRef = { provider: 'openai', id: options.model };
  const client = openAIClient(options, profile);
  const prepare = (request: ModelRequest) => prepareOpenAIChatRequest(request, model, profile, options);
  return createProviderAdapter({
    secretValues: () => apiKeysOf(client),
    model,
    profile,
    prepare,
    open: ({ body }, signal) => openChatChunks(client, body, signal),
    map: (chunks) => mapOpenAIChatStream(chunks, model, { fields: [] }),
    mapError: openAIStreamError('openai', mapOpenAIChatError),
  });
}

/**
 * The profile without the Responses API's context management: Chat Completions has no
 * native field for it, so an agent on this adapter packs with `episodic` by default and
 * `hybrid` says that nothing native is sent.
 */
function withoutNativeContext(profile: OpenAIProfile): OpenAIProfile {
  const { nativeContext: _native, contextPolicy: _policy, ...rest } = profile;
  return rest;
}

/** Builds the streaming request body; throws {@link ChatToolsNeedResponsesError} when the model needs Responses. */
function prepareOpenAIChatRequest(
  request: ModelRequest,
  model: ModelRef,
  profile: OpenAIProfile,
  defaults: OpenAIChatAdapterOptions,
): PreparedRequest<ChatCompletionCreateParamsStreaming> {
  const leftOut = leftOutProviderTools(request.messages, model);
  const callOptions = request.providerOptions ?? {};
  const warnings = [...leftOut, ...unknownOptionWarnings('openai-chat', callOptions, callSettingKeys)];
  const settings = { ...defaults, ...(callOptions as OpenAIChatCallSettings) };
  const tools = prepareOpenAIChatTools(request.tools);
  if (profile.chatToolsNeedResponses && tools && settings.reasoningEffort !== 'none') {
    throw new ChatToolsNeedResponsesError(model.id);
  }
  const messages = convertToOpenAIChatMessages(request.system, request.messages, { sendAs: 'none' }, model);
  const body: ChatCompletionCreateParamsStreaming = {
    model: model.id,
    messages,
    stream: true,
    stream_options: { include_usage: true },
    ...(tools ? { tools } : {}),
    ...(request.maxOutputTokens ? { max_completion_tokens: request.maxOutputTokens } : {}),
    ...(settings.promptCacheKey ? { prompt_cache_key: settings.promptCacheKey } : {}),
    ...(request.output ? { response_format: { type: 'json_schema', json_schema: openAIJsonSchemaFormat(request.output) } } : {}),
  };
  if (settings.reasoningEffort) {
    if (profile.reasoning) body.reasoning_effort = settings.reasoningEffort;
    else warnings.push({ message: `openai-chat: ${model.id} does not reason; reasoningEffort ignored` });
  }
  return { body, warnings };
}
