/**
 * The Anthropic Messages API adapter over `@anthropic-ai/sdk`
 * (https://docs.claude.com/en/api/messages-streaming).
 *
 * Per call: convert the packed messages (own thinking back verbatim, foreign or
 * prefix-stale thinking dropped), set thinking from the profile, place up to 4
 * cache breakpoints, stream, and map usage, stop reason and errors. The SDK's
 * own retries are off by default: the agent loop decides about retries.
 */
import Anthropic from '@anthropic-ai/sdk';
import type { MessageCreateParamsStreaming, OutputConfig } from '@anthropic-ai/sdk/resources/messages';
import type {
  ModelAdapter,
  ModelProfile,
  ModelRef,
  ModelRequest,
  ModelStreamEvent,
  StreamOptions,
} from '@episodic/core';
import type { AnthropicModelProfile, AnthropicThinkingSetting } from '../profiles/anthropic.js';
import { resolveApiKey } from '../shared/missing-api-key-error.js';
import { foreignReasoningWarning } from '../shared/provider-data.js';
import { streamCall, unknownOptionWarnings } from '../shared/stream-call.js';
import { placeCacheBreakpoints } from './anthropic-cache-control.js';
import { mapAnthropicError } from './anthropic-error.js';
import { anthropicOutputFormat } from './anthropic-output-format.js';
import { prepareAnthropicTools } from './anthropic-prepare-tools.js';
import { resolveAnthropicProfile } from './anthropic-profile.js';
import { mapAnthropicStream } from './anthropic-stream.js';
import { buildThinkingParams } from './anthropic-thinking.js';
import {
  anthropicPrefixHash,
  continuesToolUseTurn,
  convertToAnthropicMessages,
  finalTurnLacksThinking,
} from './convert-to-anthropic-messages.js';

export interface AnthropicAdapterOptions {
  /** Model id, e.g. `claude-sonnet-4-5`. */
  model: string;
  /** Default: `ANTHROPIC_API_KEY`. */
  apiKey?: string;
  baseURL?: string;
  /** Profile fields to override (context window, retention, cache TTL, ...). */
  profile?: Partial<ModelProfile>;
  /** Overrides the profile's thinking setting. */
  thinking?: AnthropicThinkingSetting;
  /** A preconfigured SDK client (then `apiKey` and `baseURL` are ignored). */
  client?: Anthropic;
  /** SDK-level retries. Default 0: the agent loop retries retryable errors itself. */
  maxRetries?: number;
}

/** A prepared call: SDK parameters, extra headers and what to tell the caller. */
export interface PreparedAnthropicCall {
  params: MessageCreateParamsStreaming;
  headers: Record<string, string>;
  warnings: string[];
  /** Fingerprint of what was sent; stored on the reasoning this call returns. */
  prefix: string;
}

const knownProviderOptions = new Set(['thinking']);

/** The Anthropic adapter. */
export class AnthropicAdapter implements ModelAdapter {
  readonly model: ModelRef;
  readonly profile: AnthropicModelProfile;
  /** An ES private field, so inspecting or logging the adapter never shows the client's API key. */
  readonly #client: Anthropic;

  constructor(options: AnthropicAdapterOptions) {
    this.model = { provider: 'anthropic', id: options.model };
    this.profile = resolveAnthropicProfile(options.model, options.profile, options.thinking);
    this.#client =
      options.client ??
      new Anthropic({
        apiKey: resolveApiKey('anthropic', options.apiKey, ['ANTHROPIC_API_KEY']),
        baseURL: options.baseURL,
        maxRetries: options.maxRetries ?? 0,
      });
  }

  /** Builds the SDK request for a packed neutral request (exposed for tests and debugging). */
  prepare(request: ModelRequest): PreparedAnthropicCall {
    const tools = prepareAnthropicTools(request.tools);
    const converted = convertToAnthropicMessages(request, { model: this.model, profile: this.profile, tools });
    const prefix = anthropicPrefixHash(converted.system, tools, converted.messages);
    const thinkingSetting = this.thinkingFor(request);
    const thinking = buildThinkingParams(thinkingSetting, request.maxOutputTokens ?? this.profile.maxOutputTokens, {
      betaHeaders: this.profile.betaHeaders,
      forceOff: finalTurnLacksThinking(converted.messages),
      lostThinking: continuesToolUseTurn(converted.messages) && converted.lastAssistantDroppedReasoning > 0,
    });
    const suggested = (request.cacheBreakpoints?.messages ?? []).map((index) => converted.wireIndexOf[index] ?? -1);
    placeCacheBreakpoints(
      { system: converted.system, tools, messages: converted.messages },
      this.profile.cacheTtl,
      suggested,
    );
    const params: MessageCreateParamsStreaming = {
      model: this.model.id,
      max_tokens: thinking.maxTokens,
      messages: converted.messages,
      stream: true,
      ...(converted.system ? { system: converted.system } : {}),
      ...(tools ? { tools } : {}),
      ...(thinking.thinking ? { thinking: thinking.thinking } : {}),
      ...outputConfig(thinking.output_config, request),
    };
    const headers: Record<string, string> =
      thinking.betas.length > 0 ? { 'anthropic-beta': thinking.betas.join(',') } : {};
    const warnings = [
      ...foreignReasoningWarning('anthropic', converted.foreignReasoning),
      ...thinking.warnings,
      ...unknownOptionWarnings('anthropic', request.providerOptions, knownProviderOptions),
    ];
    return { params, headers, warnings, prefix };
  }

  async* stream(request: ModelRequest, { signal }: StreamOptions = {}): AsyncGenerator<ModelStreamEvent> {
    const prepared = this.prepare(request);
    yield* streamCall({
      warnings: prepared.warnings,
      open: () => this.#client.messages.create(prepared.params, { signal, headers: prepared.headers }),
      map: (events) => mapAnthropicStream(events, this.model, prepared.prefix),
      mapError: (error) => mapAnthropicError(error, signal),
    });
  }

  /** Exact input tokens by Anthropic's tokenizer (`POST /v1/messages/count_tokens`). */
  async countTokens(request: ModelRequest, options: StreamOptions = {}): Promise<number> {
    const { params, headers } = this.prepare(request);
    try {
      const { stream: _stream, max_tokens: _maxTokens, ...body } = params;
      const counted = await this.#client.messages.countTokens(body, { signal: options.signal, headers });
      return counted.input_tokens;
    } catch (error) {
      throw mapAnthropicError(error, options.signal);
    }
  }

  private thinkingFor(request: ModelRequest): AnthropicThinkingSetting {
    const override = request.providerOptions?.thinking;
    if (override === undefined) return this.profile.thinking;
    return resolveAnthropicProfile(this.model.id, this.profile, override as AnthropicThinkingSetting).thinking;
  }
}

/** `output_config`: the thinking effort and the structured answer's format, when there are any. */
function outputConfig(thinking: OutputConfig | undefined, request: ModelRequest): { output_config?: OutputConfig } {
  const format = request.output ? { format: anthropicOutputFormat(request.output) } : {};
  return thinking || request.output ? { output_config: { ...thinking, ...format } } : {};
}

/** Creates an {@link AnthropicAdapter}. */
export function createAnthropicAdapter(options: AnthropicAdapterOptions): AnthropicAdapter {
  return new AnthropicAdapter(options);
}
