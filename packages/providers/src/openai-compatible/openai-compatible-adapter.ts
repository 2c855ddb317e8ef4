/**
 * The OpenAI-compatible Chat Completions adapter (over the official `openai` SDK),
 * driven by model profiles: DeepSeek, Z.AI GLM, Kimi, MiniMax, OpenRouter, Groq,
 * Cerebras, Fireworks, Ollama, vLLM, SiliconFlow, DeepInfra, Together, Nebius,
 * SambaNova, OpenCode Zen, Xiaomi, and the reasoning model families on any of them. Each family's quirks
 * are capability flags resolved once from its profile (data the user can override).
 *
 * @see https://platform.openai.com/docs/api-reference/chat/create
 */
import {
  InvalidArgumentError,
  type ModelRef,
  type ModelRequest,
} from '@episodic/core';
import { openAIJsonSchemaFormat } from '../openai-shared/openai-output-format.js';
import type OpenAI from 'openai';
import { type LazyOpenAIClient, openAISdk } from '../openai-shared/openai-sdk.js';
import { LazyClient } from '../shared/lazy-sdk.js';
import type { ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions';
import { convertToOpenAIChatMessages } from '../openai-chat/convert-to-openai-chat-messages.js';
import { prepareOpenAIChatTools } from '../openai-chat/openai-chat-prepare-tools.js';
import { mapOpenAIChatStream } from '../openai-chat/openai-chat-stream.js';
import type { CompatibleProfile } from '../profiles/openai-compatible.js';
import type { ModelFamily } from '../profiles/model-families.js';
import { openAIStreamError } from '../openai-shared/openai-client.js';
import { apiKeysOf, MissingApiKeyError, NO_API_KEY, resolveApiKey } from '../shared/missing-api-key-error.js';
import {
  createProviderAdapter,
  leftOutProviderTools,
  type PreparedRequest,
  type ProviderAdapter,
  unknownOptionWarnings,
} from '../shared/provider-adapter.js';
import { type CompatibleCapabilities, resolveCompatibleCapabilities } from './openai-compatible-capabilities.js';
import { mapOpenAICompatibleError, withWrappedErrorBodies } from './openai-compatible-error.js';
import { resolveCompatibleProfile } from '../profiles/openai-compatible-resolver.js';
import { openChatChunks } from '../openai-chat/openai-chat-raw-stream.js';

/** Per-call settings, also accepted in `request.providerOptions`. */
export interface OpenAICompatibleCallSettings {
  /** Sent the way the profile says (`reasoning_effort` or OpenRouter's `reasoning.effort`). */
  reasoningEffort?: string;
}

/** Options of {@link createOpenAICompatibleAdapter}. */
export interface OpenAICompatibleAdapterOptions extends OpenAICompatibleCallSettings {
  /** The host: `deepseek`, `zai`, `moonshot`, `minimax`, `openrouter`, `groq`, `cerebras`, `fireworks`, `ollama`, `vllm`, `siliconflow`, `deepinfra`, `together`, `nebius`, `sambanova`, `opencode`, `xiaomi`, or your own. */
  provider: string;
  model: string;
  /** Default: the profile's environment variables (e.g. `DEEPSEEK_API_KEY`). */
  apiKey?: string | undefined;
  /** Default: the profile's base URL. */
  baseURL?: string | undefined;
  /** Overrides of any profile field; a provider without a built-in profile needs at least `baseURL`. */
  profile?: Partial<CompatibleProfile> | undefined;
  /**
   * Model families matched by model id on any host (default: the built-in ones).
   * Put your own rows in front of `modelFamilies` to add or override one.
   */
  families?: readonly ModelFamily[] | undefined;
  /** A ready client (then `apiKey` and `baseURL` are ignored). */
  client?: OpenAI | undefined;
  /** Retries the SDK itself makes on 429/5xx. Default 0: the agent loop retries on `retryable` errors. */
  maxRetries?: number | undefined;
}

function createClient(options: OpenAICompatibleAdapterOptions, profile: CompatibleProfile): LazyOpenAIClient {
  const baseURL = options.baseURL ?? profile.baseURL;
  if (!baseURL) {
    throw new InvalidArgumentError(
      `No base URL for provider "${options.provider}": pass \`baseURL\` (e.g. https://host/v1) to the adapter.`,
    );
  }
  let apiKey: string;
  try {
    apiKey = resolveApiKey(options.provider, options.apiKey, profile.apiKeyEnv);
  } catch (error) {
    if (!(error instanceof MissingApiKeyError && profile.apiKeyOptional)) throw error;
    apiKey = NO_API_KEY;
  }
  const maxRetries = options.maxRetries ?? 0;
  return LazyClient.create(openAISdk, apiKey, (sdk, key) =>
    new sdk.OpenAI({ apiKey: key, baseURL, maxRetries, fetch: withWrappedErrorBodies() }),
  );
}

const callSettingKeys = new Set(['reasoningEffort']);

/** The adapter for an OpenAI-compatible server. */
export type OpenAICompatibleAdapter = ProviderAdapter<ChatCompletionCreateParamsStreaming, CompatibleProfile>;

/** Creates an adapter for an OpenAI-compatible server. */
export function createOpenAICompatibleAdapter(options: OpenAICompatibleAdapterOptions): OpenAICompatibleAdapter {
  const profile = resolveCompatibleProfile(options.provider, options.model, options.profile, options.families);
  const capabilities = resolveCompatibleCapabilities(profile);
  const model: ModelRef = { provider: options.provider, id: options.model };
  const given = options.client;
  const client = given ? LazyClient.given(openAISdk, given) : createClient(options, profile);
  const prepare = (request: ModelRequest) => prepareOpenAICompatibleRequest(request, model, capabilities, options);
  return createProviderAdapter({
    secretValues: () => apiKeysOf(client),
    model,
    profile,
    prepare,
    open: ({ body }, signal) => openChatChunks(client, body, signal),
    map: (chunks) => mapOpenAIChatStream(chunks, model, capabilities.reader),
    mapError: openAIStreamError(model.provider, (error) => mapOpenAICompatibleError(error, model.provider)),
  });
}

/** Builds the streaming request body for a compatible server. */
function prepareOpenAICompatibleRequest(
  request: ModelRequest,
  model: ModelRef,
  capabilities: CompatibleCapabilities,
  defaults: OpenAICompatibleCallSettings,
): PreparedRequest<ChatCompletionCreateParamsStreaming> {
  const leftOut = leftOutProviderTools(request.messages, model);
  const callOptions = request.providerOptions ?? {};
  const warnings = [...leftOut, ...unknownOptionWarnings(model.provider, callOptions, callSettingKeys)];
  const effort = (callOptions.reasoningEffort as string | undefined) ?? defaults.reasoningEffort;
  const messages = convertToOpenAIChatMessages(request.system, request.messages, capabilities.wire, model);
  const tools = prepareOpenAIChatTools(request.tools);
  const body = {
    ...capabilities.requestFlags,
    model: model.id,
    messages,
    stream: true,
    stream_options: { include_usage: true },
    ...(tools ? { tools } : {}),
    ...(request.maxOutputTokens ? { [capabilities.maxTokensField]: request.maxOutputTokens } : {}),
    // Sent only when the profile says the host has it (structuredOutput: 'native'); else the loop uses a tool.
    ...(request.output ? { response_format: { type: 'json_schema', json_schema: openAIJsonSchemaFormat(request.output) } } : {}),
  } as ChatCompletionCreateParamsStreaming & Record<string, unknown>;
  if (effort) {
    if (capabilities.effortParameter === 'reasoning_effort') body.reasoning_effort = effort as never;
    else if (capabilities.effortParameter === 'reasoning.effort') body.reasoning = { effort };
    else warnings.push({ message: `${model.provider}: ${model.id} takes no reasoning effort; reasoningEffort ignored` });
  }
  return { body, warnings };
}
