/**
 * Any AI SDK language model (`LanguageModelV3` from `ai@6` providers, `LanguageModelV4`
 * from `ai@7` providers) as an Episodic {@link ModelAdapter}: an `Agent` packs, the
 * adapter converts the packed request to the AI SDK's prompt, streams `doStream`, and
 * maps the stream back (see `ai-sdk-stream.ts`). The profile comes from the provider
 * name and model id (`model-profile-lookup.ts`); errors become Episodic's typed
 * `ModelError`s (`ai-sdk-errors-to-model-error.ts`). The AI SDK's own retries are not
 * involved: `doStream` makes one call, and the agent loop retries what is retryable.
 */
import type { ModelAdapter, ModelProfile, ModelRef, ModelRequest, ModelStreamEvent, StreamOptions, ToolSpec } from '@episodic/core';
import { toModelError } from './ai-sdk-errors-to-model-error.js';
import { AISDKStreamFold } from './ai-sdk-stream.js';
import type { AISDKCallOptions, AISDKLanguageModel, AISDKProviderOptions, AISDKStreamPart, LooseMessage, SpecVersion } from './ai-sdk-types.js';
import { breakpointsOutsidePrompt, placeAnthropicBreakpoints } from './anthropic-breakpoints.js';
import { guardAnthropicThinking } from './anthropic-thinking-guard.js';
import { modelRefOf, profileOf } from './model-profile-lookup.js';
import { toAISDKPrompt } from './to-ai-sdk-prompt.js';

/** Options of {@link fromAISDK}. */
export interface FromAISDKOptions {
  /** Fields over the profile found for the model (context window, retention, pricing, ...). */
  profile?: Partial<ModelProfile>;
  /** Who the adapter says answers, when the provider-name lookup guesses wrong (e.g. a proxy). Default from the model. */
  model?: ModelRef;
  /** AI SDK `providerOptions` sent with every call (a request's own `providerOptions` go over them, per provider). */
  providerOptions?: AISDKProviderOptions;
  /** Secret values the model holds (its API key), kept out of tool results and transcripts by the agent. */
  secrets?: readonly string[];
}

/** The AI SDK `providerOptions` of a request: the adapter's, with the request's over them per provider. */
function mergeOptions(
  base: AISDKProviderOptions | undefined,
  extra: Record<string, unknown> | undefined,
): AISDKProviderOptions | undefined {
  if (!extra) return base;
  const out: AISDKProviderOptions = { ...base };
  for (const [provider, fields] of Object.entries(extra)) {
    out[provider] = { ...out[provider], ...(fields as Record<string, unknown>) };
  }
  return out;
}

function functionTool(tool: ToolSpec) {
  return { type: 'function' as const, name: tool.name, description: tool.description, inputSchema: tool.inputSchema };
}

/** The AI SDK call options of a packed Episodic request. */
export function callOptionsFor(
  request: ModelRequest,
  setup: { version: SpecVersion; profile: ModelProfile; providerOptions?: AISDKProviderOptions; signal?: AbortSignal },
  warnings: string[],
): AISDKCallOptions {
  const { prompt: messages, indexOf } = toAISDKPrompt(request.messages, setup.version, warnings);
  const system: LooseMessage[] = request.system ? [{ role: 'system', content: request.system }] : [];
  const prompt = [...system, ...messages];
  const merged = mergeOptions(setup.providerOptions, request.providerOptions);
  if (setup.profile.cacheStyle === 'anthropic-breakpoints' && request.cacheBreakpoints) {
    const shifted = indexOf.map((index) => (index < 0 ? index : index + system.length));
    const lastUser = prompt.findLastIndex((message) => message.role === 'user');
    placeAnthropicBreakpoints(prompt, request.cacheBreakpoints, {
      systemCount: system.length,
      indexOf: shifted,
      currentUser: lastUser < 0 ? undefined : lastUser,
      // The call's own cacheControl (automatic caching) is a breakpoint too.
      outside: breakpointsOutsidePrompt({ providerOptions: merged }),
    });
  }
  const providerOptions = setup.profile.provider === 'anthropic' ? guardAnthropicThinking(prompt, merged, warnings) : merged;
  return {
    prompt,
    maxOutputTokens: request.maxOutputTokens ?? setup.profile.maxOutputTokens,
    ...(request.tools && request.tools.length > 0 ? { tools: request.tools.map(functionTool) } : {}),
    ...(request.output ? { responseFormat: { type: 'json', schema: request.output.schema, name: request.output.name } } : {}),
    ...(providerOptions ? { providerOptions } : {}),
    ...(setup.signal ? { abortSignal: setup.signal } : {}),
  } as AISDKCallOptions;
}

/**
 * An Episodic model adapter on an AI SDK model:
 * `new Agent({ model: fromAISDK(anthropic('claude-sonnet-4-5')), ... })`.
 */
export function fromAISDK(model: AISDKLanguageModel, options: FromAISDKOptions = {}): ModelAdapter {
  const ref = options.model ?? modelRefOf(model);
  const profile = profileOf(model, options.profile);
  const version: SpecVersion = model.specificationVersion === 'v4' ? 'v4' : 'v3';
  const secrets = options.secrets ?? [];
  return {
    model: ref,
    profile,
    // The AI SDK has no form for an opaque compaction item (OpenAI's): core sends what it stands for instead.
    sendsCompactionItems: false,
    secretValues: () => secrets,
    async* stream(request: ModelRequest, streamOptions: StreamOptions = {}): AsyncIterable<ModelStreamEvent> {
      const { signal } = streamOptions;
      const warnings: string[] = [];
      const setup = { version, profile, providerOptions: options.providerOptions, ...(signal ? { signal } : {}) };
      const call = callOptionsFor(request, setup, warnings);
      for (const message of warnings) yield { type: 'warning', message };
      const fold = new AISDKStreamFold(ref);
      let reader: ReadableStreamDefaultReader<AISDKStreamPart> | undefined;
      try {
        type DoStream = (options: AISDKCallOptions) => PromiseLike<{ stream: ReadableStream<AISDKStreamPart> }>;
        const doStream = model.doStream.bind(model) as DoStream;
        const result = await doStream(call);
        reader = result.stream.getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          if (value.type === 'stream-start') {
            for (const warning of value.warnings) yield { type: 'warning', message: warningText(warning) };
          }
          yield* fold.accept(value);
        }
      } catch (error) {
        await reader?.cancel().catch(() => undefined);
        throw toModelError(ref.provider, error, signal);
      }
      yield fold.result();
    },
  };
}

/** An AI SDK call warning as one line. */
function warningText(warning: unknown): string {
  const record = warning as { type?: string; feature?: string; setting?: string; details?: string; message?: string };
  const subject = record.feature ?? record.setting ?? record.message ?? record.type ?? 'warning';
  return `AI SDK: ${record.type ?? 'warning'} ${subject}${record.details ? `: ${record.details}` : ''}`;
}
