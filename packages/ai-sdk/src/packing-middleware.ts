/**
 * Episodic's packer inside an AI SDK loop, as a language-model middleware:
 * `wrapLanguageModel({ model, middleware: episodicPacking() })`. Before every model
 * call (each step of `generateText`/`streamText`, an `Agent`'s steps, a chat route's
 * call) it converts the AI SDK prompt to Episodic messages (`from-ai-sdk-prompt.ts`),
 * packs them as an Episodic `Agent` packs its transcript (same budget, retention,
 * tuning and calibrated counter from the model's profile), and converts the packed
 * messages back, each part its original where the packer kept it (`to-ai-sdk-prompt.ts`).
 *
 * A middleware rather than a `prepareStep`: it sees the call as the provider gets it
 * (tools as JSON Schema, which the budget counts; the prompt after the AI SDK's own
 * conversion, with every part's `providerOptions`), it packs any caller (`generateText`,
 * `streamText`, the AI SDK's `Agent`, a route that calls the model once per request),
 * and it reads the reported usage of the call it packed, which calibrates the counter.
 *
 * One middleware holds one conversation's packing state (evictions, the current
 * episode's cuts, the cache lifetime): wrap the model once per conversation. A prompt
 * that does not continue the previous one starts a fresh state.
 */
import type { Message, ModelProfile, ModelRef, Retention, TokenCounter, ToolSpec } from '@episodic/core';
import { Calibration, createTokenCounter } from '@episodic/core';
import {
  defaultPackingForProfile,
  type PackResult,
  type PackState,
  type PackStats,
  type PackTuning,
  packContext,
} from '@episodic/core/packing';
import { packingWithReader } from '@episodic/core/internal';
import { type ConvertedMessage, fromAISDKPrompt } from './from-ai-sdk-prompt.js';
import { toAISDKPrompt } from './to-ai-sdk-prompt.js';
import { breakpointsOutsidePrompt, placeAnthropicBreakpoints } from './anthropic-breakpoints.js';
import { modelRefOf, profileOf } from './model-profile-lookup.js';
import type { AISDKCallOptions, AISDKLanguageModel, AISDKStreamPart, LooseMessage, LoosePart, SpecVersion } from './ai-sdk-types.js';
import type { Tool } from 'ai';
import { CutResultTool, READ_CUT_RESULT, type ReadCutResultInput } from './cut-result-tool.js';

/** Options of {@link episodicPacking}. */
export interface EpisodicPackingOptions {
  /** Max input tokens per call, as the packer counts them. Default: the profile's context window minus the call's max output tokens. */
  budget?: number;
  /** Fields over the profile found for the wrapped model (`model-profile-lookup.ts`). */
  profile?: Partial<ModelProfile>;
  /** Which reasoning goes back across episodes. Default: the profile's. */
  retention?: Retention;
  /** Packing knobs, as `AgentOptions.context.pack` takes them. Default: the cache lifetime from the profile, as an Agent packs. */
  pack?: PackTuning;
  /** Counter for the packer; calibrated from each call's reported usage. Default o200k_base at the profile's factor. */
  tokenizer?: TokenCounter;
  /** The state of an earlier packing of this conversation (`middleware.state`), to go on from it. */
  state?: PackState;
  /** Place Anthropic prompt-cache breakpoints where the packer suggests (providers with breakpoints only). Default true. */
  cacheBreakpoints?: boolean;
  /** Called after each pack with what it did. */
  onPacked?(event: PackedEvent): void;
}

/** What one pack did, for {@link EpisodicPackingOptions.onPacked}. */
export interface PackedEvent {
  model: ModelRef;
  stats: PackStats;
  state: PackState;
  /** Messages in the prompt before and after packing (leading system messages included). */
  messages: { before: number; after: number };
}

/**
 * The packing middleware, typed so `wrapLanguageModel` of `ai@6` and `ai@7` both take
 * it, with the conversation's packing state and the tools it offers.
 */
export interface EpisodicPackingMiddleware {
  readonly specificationVersion: 'v3';
  /** Packs the prompt of one call (the middleware hook; {@link EpisodicPackingMiddleware.packParams} does the work). */
  transformParams<P extends AISDKCallOptions>(options: { type: 'generate' | 'stream'; params: P; model: AISDKLanguageModel }): Promise<P>;
  /**
   * Packs the call options of one call of `model`, synchronously: what `transformParams`
   * does, for callers outside `wrapLanguageModel` (a `prepareStep`, a benchmark).
   */
  packParams<P extends AISDKCallOptions>(params: P, model: AISDKLanguageModel): P;
  /** Runs one call and calibrates the counter from its reported input tokens. */
  wrapGenerate<R>(options: { doGenerate: () => PromiseLike<R>; params: AISDKCallOptions; model: AISDKLanguageModel }): Promise<R>;
  /** Runs one streamed call and calibrates the counter from the input tokens of its finish part. */
  wrapStream<R extends { stream: ReadableStream<unknown> }>(options: {
    doStream: () => PromiseLike<R>;
    params: AISDKCallOptions;
    model: AISDKLanguageModel;
  }): Promise<R>;
  /** The packing state after the latest call; pass it as `state` to go on in another process. */
  readonly state: PackState | undefined;
  /** What the latest pack did. */
  readonly stats: PackStats | undefined;
  /**
   * The reader of cut tool results as an AI SDK tool (`read_cut_result`). Add it to the
   * loop's tools (`tools: { ...tools, ...packing.tools }`) and the packer's cut markers
   * name it: the model can read any cut part back. It is sent from the first call on,
   * as an Episodic `Agent` offers it, so the tools never change within a conversation.
   */
  readonly tools: { [READ_CUT_RESULT]: Tool<ReadCutResultInput, string> };
}

/** What a pack leaves for the call it packed: the count to calibrate against. */
interface Counted {
  tokens: number;
  factor: number;
}

/** The packer's view of the call's tools: function tools as specs, provider tools by their arguments. */
function toolSpecsOf(tools: AISDKCallOptions['tools']): ToolSpec[] {
  return (tools ?? []).map((tool) => {
    const loose = tool as unknown as LoosePart;
    if (loose.type === 'function') {
      return { name: String(loose.name), description: String(loose.description ?? ''), inputSchema: (loose.inputSchema ?? {}) as Record<string, unknown> };
    }
    return { name: String(loose.name ?? loose.id), description: '', inputSchema: (loose.args ?? {}) as Record<string, unknown> };
  });
}

/** The original of a conversation's first message, which tells whether a prompt continues the previous one. */
function conversationKey(messages: readonly Message[]): string {
  const first = messages[0];
  return first ? JSON.stringify(first.aiSdk ?? first) : '';
}

/** Builds the middleware; see the module comment. */
export function episodicPacking(options: EpisodicPackingOptions = {}): EpisodicPackingMiddleware {
  let state = options.state;
  let stats: PackStats | undefined;
  let conversation: { key: string; length: number; kept: ConvertedMessage[] } | undefined;
  let setup: { ref: ModelRef; profile: ModelProfile; version: SpecVersion; tokenizer: TokenCounter } | undefined;
  const counted = new WeakMap<object, Counted>();
  const reader = new CutResultTool();

  const setupFor = (model: AISDKLanguageModel) => {
    if (!setup) {
      const profile = profileOf(model, options.profile);
      const tokenizer = options.tokenizer ?? createTokenCounter({ calibration: new Calibration({ initial: profile.tokenizerFactor }) });
      setup = { ref: modelRefOf(model), profile, version: model.specificationVersion === 'v4' ? 'v4' : 'v3', tokenizer };
    }
    return setup;
  };

  const observe = (params: object, inputTokens: unknown) => {
    const call = counted.get(params);
    if (call && setup && typeof inputTokens === 'number') setup.tokenizer.calibration.observe(call.tokens, inputTokens, call.factor);
  };

  function packParams<P extends AISDKCallOptions>(params: P, model: AISDKLanguageModel): P {
    const { ref, profile, version, tokenizer } = setupFor(model);
    const converted = fromAISDKPrompt(params.prompt, ref, conversation?.kept);
    const key = conversationKey(converted.messages);
    if (conversation && (conversation.key !== key || converted.messages.length < conversation.length)) {
      state = undefined;
      reader.reset();
    }
    conversation = { key, length: converted.messages.length, kept: converted.kept };
    const budget = options.budget ?? profile.contextWindow - (params.maxOutputTokens ?? profile.maxOutputTokens);
    const specs = toolSpecsOf(params.tools);
    const hasReader = specs.some((spec) => spec.name === READ_CUT_RESULT);
    const pack = packingWithReader(hasReader ? 'readable' : 'cut', budget, { ...defaultPackingForProfile(profile), ...options.pack });
    reader.configure({ messages: converted.messages, budget, pack, counter: tokenizer });
    // The reader, when the loop has it, is in the tools from the first call, as an Agent
    // offers it: tools never change within a conversation (a tool added later changes the
    // prefix of every later call, a full cache miss, and loses bound thinking).
    reader.offered = hasReader;
    const packed = packContext({
      ...pack,
      messages: converted.messages,
      system: converted.system,
      tools: specs,
      budget,
      retention: options.retention ?? profile.retention,
      tokenizer,
      state,
      ...(pack.cacheTtlMs === undefined ? {} : { now: Date.now() }),
    });
    const factor = tokenizer.calibration.factor;
    state = packed.state;
    stats = packed.stats;
    const breakpoints = profile.cacheStyle === 'anthropic-breakpoints' && options.cacheBreakpoints !== false;
    const prompt = packedPrompt(converted.leadingSystem, packed, version, breakpoints && { outside: breakpointsOutsidePrompt(params) });
    const messageCounts = { before: params.prompt.length, after: prompt.length };
    options.onPacked?.({ model: ref, stats: packed.stats, state: packed.state, messages: messageCounts });
    const result = { ...params, prompt } as P;
    counted.set(result, { tokens: packed.stats.tokens.total, factor });
    return result;
  }

  return {
    specificationVersion: 'v3',
    get state() {
      return state;
    },
    get stats() {
      return stats;
    },
    tools: { [READ_CUT_RESULT]: reader.tool() },

    async transformParams<P extends AISDKCallOptions>({ params, model }: { params: P; model: AISDKLanguageModel }): Promise<P> {
      return packParams(params, model);
    },

    packParams,

    async wrapGenerate<R>({ doGenerate, params }: { doGenerate: () => PromiseLike<R>; params: AISDKCallOptions }): Promise<R> {
      const result = await doGenerate();
      observe(params, inputTotal((result as { usage?: unknown }).usage));
      return result;
    },

    async wrapStream<R extends { stream: ReadableStream<unknown> }>({
      doStream,
      params,
    }: {
      doStream: () => PromiseLike<R>;
      params: AISDKCallOptions;
    }): Promise<R> {
      const result = await doStream();
      const watch = new TransformStream<AISDKStreamPart, AISDKStreamPart>({
        transform(part, controller) {
          if (part.type === 'finish') observe(params, inputTotal(part.usage));
          controller.enqueue(part);
        },
      });
      return { ...result, stream: (result.stream as ReadableStream<AISDKStreamPart>).pipeThrough(watch) } as R;
    },
  };
}

/** The packed messages as the AI SDK prompt, after the caller's leading system messages, with Anthropic breakpoints if asked. */
function packedPrompt(
  leadingSystem: readonly LooseMessage[],
  packed: PackResult,
  version: SpecVersion,
  breakpoints: false | { outside: number },
): LooseMessage[] {
  const { prompt: messages, indexOf } = toAISDKPrompt(packed.messages, version);
  const prompt: LooseMessage[] = [...leadingSystem, ...messages];
  if (!breakpoints) return prompt;
  const systemCount = leadingSystem.length;
  const lastUser = prompt.findLastIndex((message) => message.role === 'user');
  placeAnthropicBreakpoints(prompt, packed.stats.cacheBreakpoints, {
    systemCount,
    indexOf: indexOf.map((index) => (index < 0 ? index : index + systemCount)),
    currentUser: lastUser < 0 ? undefined : lastUser,
    outside: breakpoints.outside,
  });
  return prompt;
}

/** All input tokens of an AI SDK usage (v3/v4 nested, v2 flat). */
function inputTotal(usage: unknown): number | undefined {
  const input = (usage as { inputTokens?: unknown } | undefined)?.inputTokens;
  if (typeof input === 'number') return input;
  const total = (input as { total?: unknown } | undefined)?.total;
  return typeof total === 'number' ? total : undefined;
}
