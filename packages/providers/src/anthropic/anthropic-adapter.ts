/**
 * The Anthropic Messages API adapter over `@anthropic-ai/sdk`
 * (https://docs.claude.com/en/api/messages-streaming).
 *
 * Per call: convert the packed messages (own thinking back verbatim, prefix-stale
 * thinking dropped; other models' data was already taken by core's
 * `stripForeignReasoning`), set thinking from the profile, place up to 4
 * cache breakpoints, stream, and map usage, stop reason and errors. The SDK's
 * own retries are off by default: the agent loop decides about retries.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type {
  MessageCreateParamsStreaming,
  BetaOutputConfig as OutputConfig,
} from '@anthropic-ai/sdk/resources/beta/messages/messages';
import type { AssistantMessage, ModelProfile, ModelRef, ModelRequest, StreamOptions, Usage } from '@episodic/core';
import { InvalidArgumentError } from '@episodic/core';
import type { AnthropicModelProfile, AnthropicThinkingSetting } from '../profiles/anthropic.js';
import { apiKeysOf, resolveApiKey } from '../shared/missing-api-key-error.js';
import {
  type AdapterWarning,
  callProvider,
  createProviderAdapter,
  type ErrorParts,
  leftOutProviderTools,
  plainWarnings,
  type PreparedRequest,
  type ProviderAdapter,
  unknownOptionWarnings,
} from '../shared/provider-adapter.js';
import { LazyClient } from '../shared/lazy-sdk.js';
import { placeCacheBreakpoints } from './anthropic-cache-control.js';
import { anthropicContextParams, carriesCompactionBlock, withBlockCompaction } from './anthropic-context-management.js';
import { mapAnthropicError } from './anthropic-error.js';
import { anthropicOutputFormat } from './anthropic-output-format.js';
import { anthropicSdk, type LazyAnthropicClient } from './anthropic-sdk.js';
import { prepareAnthropicTools } from './anthropic-prepare-tools.js';
import { resolveAnthropicProfile } from '../profiles/anthropic-resolver.js';
import { mapAnthropicStream } from './anthropic-stream.js';
import {
  carriesOnDemandBlock,
  compactionAnswer,
  compactionBody,
  compactionSource,
  ON_DEMAND_COMPACTION_BETA,
  withOnDemandBeta,
} from './anthropic-on-demand.js';
import { buildThinkingParams, type MissingThinkingCause } from './anthropic-thinking.js';
import {
  type AnthropicConversion,
  anthropicPrefixHash,
  continuesToolUseTurn,
  convertToAnthropicMessages,
  finalTurnLacksThinking,
} from './convert-to-anthropic-messages.js';

/** Options of {@link createAnthropicAdapter}. */
export interface AnthropicAdapterOptions {
  /** Model id, e.g. `claude-sonnet-4-6`. */
  model: string;
  /** Default: `ANTHROPIC_API_KEY`. */
  apiKey?: string | undefined;
  baseURL?: string | undefined;
  /** Profile fields to override (context window, retention, cache TTL, ...). */
  profile?: Partial<ModelProfile> | undefined;
  /** Overrides the profile's thinking setting. */
  thinking?: AnthropicThinkingSetting | undefined;
  /** A preconfigured SDK client (then `apiKey` and `baseURL` are ignored). */
  client?: Anthropic | undefined;
  /** SDK-level retries. Default 0: the agent loop retries retryable errors itself. */
  maxRetries?: number | undefined;
  /**
   * What the API does with a thinking block whose prefix changed, on models that bind
   * their thinking (`thinking.block_binding.prefix_mismatch_behavior`, beta
   * `thinking-binding-controls-2026-08-01`): `drop_block` (default) leaves it out and the
   * call goes on, with a `thinking-dropped` warning per block; `error` refuses the call
   * with a 400. `false` sends no choice (the account's default; no report of dropped blocks).
   */
  prefixMismatch?: 'error' | 'drop_block' | false | undefined;
  /**
   * Where a system or developer line after the first message goes. `in-place` (default):
   * a `role: "system"` message at its point of the session, on the models that take one
   * (profile `midConversationSystem`; no beta header), so the cached prefix and the
   * thinking bound to it stay as they were; other models, and a line with no user turn
   * before the next assistant turn, fold it into the top-level `system`. `fold`: always
   * into the top-level `system` (for hosts without the feature: the docs name Bedrock,
   * Vertex AI and Foundry). On a model that binds its thinking, a fold that costs thinking
   * blocks says so in a `thinking-dropped` warning.
   */
  systemMessages?: 'in-place' | 'fold' | undefined;
}

/** A prepared Anthropic call: the body, the extra headers it needs, and the fingerprint of what it sends. */
export interface PreparedAnthropicRequest extends PreparedRequest<MessageCreateParamsStreaming> {
  /** `anthropic-beta` and other per-call headers. */
  headers: Record<string, string>;
  /** Fingerprint of what was sent; stored on the reasoning this call returns. */
  prefix: string;
  /** The native context options sent, to read back which tool results the API cleared. */
  nativeContext?: ModelRequest['nativeContext'];
}

/** The Anthropic adapter: a `ProviderAdapter` plus exact token counts. */
export interface AnthropicAdapter extends ProviderAdapter<MessageCreateParamsStreaming, AnthropicModelProfile> {
  prepare(request: ModelRequest): PreparedAnthropicRequest;
  /** Exact input tokens by Anthropic's tokenizer (`POST /v1/messages/count_tokens`). */
  countTokens(request: ModelRequest, options?: StreamOptions): Promise<number>;
  /**
   * On-demand compaction (beta `compact-2026-09-04`, models whose profile says
   * `nativeContext.compaction.onDemand`): the request's conversation summarized into one
   * signed `compaction` part (a failed part when no summary came), with the call's usage.
   * The agent runs it (`OnDemandCompactor`); `request.nativeContext.compaction.instructions`
   * replaces the summarization prompt. Throws `InvalidArgumentError` on other models.
   */
  compact(request: ModelRequest, options?: StreamOptions): Promise<{ message: AssistantMessage; usage: Usage }>;
}

const knownProviderOptions = new Set(['thinking']);

/** Creates an adapter for the Anthropic Messages API. */
export function createAnthropicAdapter(options: AnthropicAdapterOptions): AnthropicAdapter {
  const model: ModelRef = { provider: 'anthropic', id: options.model };
  const profile = resolveAnthropicProfile(options.model, options.profile, options.thinking);
  const client = anthropicClient(options);
  const binding = bindingFor(options, profile);
  const inPlace = systemMessagesInPlace(options, profile);
  const prepare = (request: ModelRequest) => prepareAnthropicRequest(request, model, profile, { binding, inPlace });
  const errors: ErrorParts = { mapError: mapAnthropicError, secretValues: () => apiKeysOf(client) };
  return {
    ...createProviderAdapter({
      nativeContext: true,
      ...errors,
      model,
      profile,
      prepare,
      open: async (prepared, signal) => (await client.get()).beta.messages.create(prepared.body, { signal, headers: prepared.headers }),
      map: (events, prepared) =>
        mapAnthropicStream(events, model, prepared.prefix, { sent: prepared.body.messages, native: prepared.nativeContext }),
    }),
    async compact(request, { signal } = {}) {
      if (!profile.nativeContext?.compaction?.onDemand)
        throw new InvalidArgumentError(
          `anthropic: ${model.id} has no on-demand compaction (its profile says nativeContext.compaction.onDemand is not true); see docs/providers.md.`,
        );
      const source = compactionSource(request);
      const prepared = prepare(source.request);
      const body = compactionBody(prepared.body, source.instructions);
      const headers = withOnDemandBeta(prepared.headers);
      return callProvider(errors, signal, async () => {
        const events = await (await client.get()).beta.messages.create(body, { signal, headers });
        return compactionAnswer(mapAnthropicStream(events, model, prepared.prefix, { sent: body.messages, native: undefined }), model);
      });
    },
    async countTokens(request, { signal } = {}) {
      const { body, headers } = prepare(request);
      const { stream: _stream, max_tokens: _maxTokens, ...counted } = body;
      return callProvider(errors, signal, async () => {
        // The SDK's beta count adds `token-counting-2024-11-01` (GA now) unless told otherwise: only the request's own betas go.
        const betas = { 'anthropic-beta': headers['anthropic-beta'] ?? null };
        const counts = await (await client.get()).beta.messages.countTokens(counted, { signal, headers: { ...headers, ...betas } });
        return counts.input_tokens;
      });
    },
  };
}

/**
 * The given client, or one made on the first request (SDK retries off by default: the
 * loop retries). A missing key is reported here, when the adapter is created.
 */
function anthropicClient(options: AnthropicAdapterOptions): LazyAnthropicClient {
  if (options.client) return LazyClient.given(anthropicSdk, options.client);
  const apiKey = resolveApiKey('anthropic', options.apiKey, ['ANTHROPIC_API_KEY']);
  const maxRetries = options.maxRetries ?? 0;
  return LazyClient.create(anthropicSdk, apiKey, (sdk, key) => new sdk.default({ apiKey: key, baseURL: options.baseURL, maxRetries }));
}

/** Builds the SDK request for a packed neutral request. */
function prepareAnthropicRequest(
  request: ModelRequest,
  model: ModelRef,
  profile: AnthropicModelProfile,
  { binding, inPlace }: { binding?: 'error' | 'drop_block' | undefined; inPlace: boolean },
): PreparedAnthropicRequest {
  const leftOut = leftOutProviderTools(request.messages, model);
  const tools = prepareAnthropicTools(request.tools);
  const converted = convertToAnthropicMessages(request, { profile, tools, inPlace });
  const prefix = anthropicPrefixHash(converted.system, tools, converted.messages);
  const thinking = buildThinkingParams(
    thinkingFor(request, model, profile),
    request.maxOutputTokens ?? profile.maxOutputTokens,
    {
      betaHeaders: profile.betaHeaders,
      forceOff: finalTurnLacksThinking(converted.messages) && missingThinkingCause(request, model),
      lostThinking: continuesToolUseTurn(converted.messages) && converted.lastAssistantDroppedReasoning > 0,
      ...(binding ? { binding } : {}),
    },
  );
  const suggested = (request.cacheBreakpoints?.messages ?? []).map((index) => converted.wireIndexOf[index] ?? -1);
  placeCacheBreakpoints({ system: converted.system, tools, messages: converted.messages }, profile.cacheTtl, suggested);
  const onDemand = carriesOnDemandBlock(request, model);
  const nativeOptions = onDemand
    ? withoutThresholdCompaction(request.nativeContext)
    : withBlockCompaction(request.nativeContext, carriesCompactionBlock(converted.messages), profile.contextWindow);
  const native = anthropicContextParams(nativeOptions, thinking.thinking?.type === 'enabled' || thinking.thinking?.type === 'adaptive');
  if (onDemand) native.betas.push(ON_DEMAND_COMPACTION_BETA);
  if (onDemand && request.nativeContext?.compaction)
    native.warnings.push('anthropic: a request that carries an on-demand compaction block takes no threshold compaction; nativeContext.compaction not sent.');
  const body: MessageCreateParamsStreaming = {
    model: model.id,
    max_tokens: thinking.maxTokens,
    messages: converted.messages,
    stream: true,
    ...(converted.system ? { system: converted.system } : {}),
    ...(tools ? { tools } : {}),
    ...(thinking.thinking ? { thinking: thinking.thinking } : {}),
    ...outputConfig(thinking.output_config, request),
    ...(native.contextManagement ? { context_management: native.contextManagement } : {}),
  };
  const betas = [...new Set([...thinking.betas, ...native.betas])];
  const headers: Record<string, string> = betas.length > 0 ? { 'anthropic-beta': betas.join(',') } : {};
  const warnings = [
    ...leftOut,
    ...foldWarnings(converted, inPlace),
    ...plainWarnings(thinking.warnings, native.warnings),
    ...unknownOptionWarnings('anthropic', request.providerOptions, knownProviderOptions),
  ];
  return { body, headers, warnings, prefix, ...(request.nativeContext ? { nativeContext: request.nativeContext } : {}) };
}

/** The native options without the server-side compaction (the API refuses it next to a signed on-demand block). */
function withoutThresholdCompaction(options: ModelRequest['nativeContext']): ModelRequest['nativeContext'] {
  if (!options?.compaction) return options;
  const { compaction: _compaction, ...rest } = options;
  return rest;
}

/** The binding choice sent: only to models whose thinking is bound (others take no `block_binding`). */
function bindingFor(options: AnthropicAdapterOptions, profile: AnthropicModelProfile): 'error' | 'drop_block' | undefined {
  const choice = options.prefixMismatch ?? 'drop_block';
  if (choice !== false && choice !== 'error' && choice !== 'drop_block')
    throw new InvalidArgumentError(`prefixMismatch must be 'error', 'drop_block' or false (got ${JSON.stringify(choice)}).`);
  return profile.signatureBoundToPrefix && choice !== false ? choice : undefined;
}

/** True when mid-session system lines go in place: asked for (the default) and the model takes them. */
function systemMessagesInPlace(options: AnthropicAdapterOptions, profile: AnthropicModelProfile): boolean {
  const choice = options.systemMessages ?? 'in-place';
  if (choice !== 'in-place' && choice !== 'fold')
    throw new InvalidArgumentError(`systemMessages must be 'in-place' or 'fold' (got ${JSON.stringify(choice)}).`);
  return choice === 'in-place' && profile.midConversationSystem === true;
}

/**
 * A `thinking-dropped` warning when folding mid-session system lines into the top-level
 * `system` cost thinking blocks: on a model that binds its thinking, the fold changes the
 * prefix of every block before the line, and those blocks cannot be sent.
 */
function foldWarnings(converted: AnthropicConversion, inPlace: boolean): AdapterWarning[] {
  if (converted.droppedForFold === 0) return [];
  const why = inPlace
    ? 'with no user turn between it and the assistant turn before it, it cannot go in place'
    : "this model or the adapter's `systemMessages: 'fold'` sends none in place";
  return [
    {
      code: 'thinking-dropped',
      message: `anthropic: ${converted.foldedMidSession} mid-session system line(s) went into the top-level system (${why}), which changes the prefix the earlier thinking is bound to: ${converted.droppedForFold} thinking block(s) left out.`,
    },
  ];
}

/** Why the last assistant message has no thinking of this model: another model produced it, or it has none. */
function missingThinkingCause(request: ModelRequest, model: ModelRef): MissingThinkingCause {
  const last = request.messages.findLast((message) => message.role === 'assistant');
  const producer = last?.role === 'assistant' ? last.model : undefined;
  return producer && (producer.provider !== model.provider || producer.id !== model.id) ? 'other-model' : 'no-thinking';
}

/** `output_config`: the thinking effort and the structured answer's format, when there are any. */
function outputConfig(thinking: OutputConfig | undefined, request: ModelRequest): { output_config?: OutputConfig } {
  const format = request.output ? { format: anthropicOutputFormat(request.output) } : {};
  return thinking || request.output ? { output_config: { ...thinking, ...format } } : {};
}

/** The profile's thinking setting, or the one this call's `providerOptions.thinking` asks for. */
function thinkingFor(request: ModelRequest, model: ModelRef, profile: AnthropicModelProfile): AnthropicThinkingSetting {
  const override = request.providerOptions?.thinking;
  if (override === undefined) return profile.thinking;
  return resolveAnthropicProfile(model.id, profile, override as AnthropicThinkingSetting).thinking;
}
