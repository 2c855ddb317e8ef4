/**
 * The model adapter contract: neutral requests in, neutral stream events out.
 * Adapters (in `@episodic/providers`) convert to and from each wire API.
 */
import type { AssistantMessage, Message, ModelRef, ToolSpec, Usage } from '../message/message.js';
import type { ModelProfile } from './model-profile.js';
import type { NativeContextOptions } from './native-context.js';

export { ModelError, type ModelErrorCode, type ModelErrorKind } from '../errors/model-error.js';

/**
 * Suggested prompt-cache breakpoints: `prefix` (after system and tools) and indexes
 * into the packed messages, ascending. The packer computes them; adapters whose API
 * takes explicit breakpoints place them.
 */
export interface CacheBreakpoints {
  prefix: boolean;
  messages: number[];
}

/** Why the model stopped. */
export type StopReason = 'stop' | 'tool-calls' | 'max-tokens' | 'content-filter' | 'error' | 'other';

/**
 * A JSON answer the model must give when it answers without tool calls (native
 * structured output). Adapters whose profile says `structuredOutput: 'native'` send
 * it in their wire API's field; the loop checks the answer against the schema.
 */
export interface OutputFormat {
  /** Names the format where the wire API asks for a name (letters, digits, `_`, `-`). */
  name: string;
  /** JSON Schema of the answer, an object at the root. */
  schema: Record<string, unknown>;
}

/** One model call, already packed. */
export interface ModelRequest {
  system?: string;
  /**
   * Packed messages (no system lines). The packer never puts a summary line here (it
   * sends summaries as user messages); adapters skip one if a caller does.
   */
  messages: readonly Message[];
  tools?: readonly ToolSpec[];
  maxOutputTokens?: number;
  /** Where the packer suggests cache breakpoints (used by Anthropic-style caching). */
  cacheBreakpoints?: CacheBreakpoints;
  /** Options for this provider only; unknown keys give a warning event, not an error. */
  providerOptions?: Record<string, unknown>;
  /** The final answer's JSON format, for adapters with native structured output (see {@link OutputFormat}). */
  output?: OutputFormat;
  /** The provider's own context management for this call; an adapter warns about options its API lacks. */
  nativeContext?: NativeContextOptions;
}

/** Neutral stream events. */
export type ModelStreamEvent =
  | { type: 'text-delta'; text: string }
  | { type: 'reasoning-delta'; text: string }
  | { type: 'tool-call-start'; id: string; name: string }
  | { type: 'tool-call-delta'; id: string; argsDelta: string }
  /** Something the caller should know; `code` names the kind for warnings meant to be matched (e.g. `foreign-reasoning-dropped`). */
  | { type: 'warning'; message: string; code?: string }
  | { type: 'finish'; message: AssistantMessage; usage: Usage; stopReason: StopReason };

/** Options of one model call. */
export interface StreamOptions {
  signal?: AbortSignal;
}

/** A model behind one wire API. */
export interface ModelAdapter {
  /** Who answers: copied onto every assistant message this adapter produces. */
  readonly model: ModelRef;
  /** The profile in force (retention, context window, cache style, pricing). */
  readonly profile?: ModelProfile;
  /** Streams one model call. The last event is `finish`, or the iterator throws a {@link ModelError}. */
  stream(request: ModelRequest, options?: StreamOptions): AsyncIterable<ModelStreamEvent>;
  /** Optional exact token count of a request by the provider's own tokenizer. */
  countTokens?(request: ModelRequest, options?: StreamOptions): Promise<number>;
  /**
   * Optional standalone compaction (OpenAI `POST /responses/compact`, Anthropic on-demand
   * compaction): the provider summarizes the request's conversation into an opaque
   * `compaction` part (a `failed` one when no summary came), returned as an assistant
   * message that later calls send back verbatim in place of the history before it;
   * `request.nativeContext.compaction.instructions`, where the API takes them, replace
   * the summarization prompt. See `Session.compact()` and `OnDemandCompactor`.
   */
  compact?(request: ModelRequest, options?: StreamOptions): Promise<{ message: AssistantMessage; usage: Usage }>;
  /**
   * `false` when this adapter cannot send an opaque compaction item back, though its model
   * made it (an OpenAI compaction item through the AI SDK, which has no form for one): the
   * packer then reads this model's opaque items as it reads another model's, sending
   * Episodic's checkpoint summary of one or the history it replaced. A compaction with a
   * readable summary (Anthropic's) is unaffected. Default: the adapter sends its own items.
   */
  readonly sendsCompactionItems?: boolean;
  /**
   * The secret values this adapter uses (its API key), so the agent can keep them out
   * of tool results, errors and the transcript. A method, not a field, so logging the
   * adapter never prints them.
   */
  secretValues?(): readonly string[];
}
