/**
 * Maps a Chat Completions chunk stream (OpenAI or compatible) to neutral stream
 * events and the finished assistant message.
 *
 * Reasoning arrives in a delta field that depends on the server (`reasoning_content`,
 * `reasoning`, `thinking`), optionally with OpenRouter `reasoning_details`, or inside
 * `content` as `<think>` tags or Harmony channels, which a core splitter separates.
 *
 * @see https://platform.openai.com/docs/api-reference/chat-streaming/streaming
 */
import {
  type AssistantMessage,
  type AssistantPart,
  ModelError,
  type ModelRef,
  type ModelStreamEvent,
  type Usage,
} from '@episodic/core';
import { type SplitPiece, type StreamSplitter } from '@episodic/core/reasoning';
import { openAISdk } from '../openai-shared/openai-sdk.js';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import type { CompletionUsage } from 'openai/resources/completions';
import { providerDataFor } from '../shared/provider-data.js';
import { recordReasoningTokens } from '../shared/reasoning-tokens.js';
import { callProviderData } from '../shared/tool-arguments.js';
import { UnreadMessageFields } from './chat-message-fields.js';
import { mapOpenAIChatStopReason } from './map-openai-chat-stop-reason.js';

/** How to read reasoning from a chunk stream. */
export interface ChatReasoningReader {
  /** Delta fields that carry reasoning text, tried in order. */
  fields: readonly string[];
  /** Keep OpenRouter `reasoning_details` entries verbatim on the reasoning part. */
  details?: boolean;
  /** Splits reasoning out of `content` (`<think>` tags, Harmony channels). */
  contentSplitter?: () => StreamSplitter<SplitPiece | ContentPiece>;
}

type UsageWithExtras = CompletionUsage & { prompt_cache_hit_tokens?: number };

/** A piece a content splitter returns; Harmony commentary carries its recipient (`functions.NAME` for a tool call). */
interface ContentPiece {
  kind: string;
  text: string;
  recipient?: string;
}

/** Neutral usage; DeepSeek reports cache hits as `prompt_cache_hit_tokens`. */
export function mapOpenAIChatUsage(usage: UsageWithExtras | null | undefined): Usage {
  if (!usage) return { inputTokens: 0, outputTokens: 0 };
  return {
    inputTokens: usage.prompt_tokens,
    cachedInputTokens: usage.prompt_tokens_details?.cached_tokens ?? usage.prompt_cache_hit_tokens ?? 0,
    outputTokens: usage.completion_tokens,
    reasoningTokens: usage.completion_tokens_details?.reasoning_tokens ?? 0,
  };
}

/**
 * `reasoning_details` fields that arrive in pieces and are concatenated; the others
 * (type, format, id, signature, index) are replaced by their latest value.
 * @see https://openrouter.ai/docs/use-cases/reasoning-tokens#reasoning-details-array-structure
 */
const streamedDetailKeys = new Set(['text', 'summary', 'data']);

interface PendingCall {
  id: string;
  name: string;
  args: string;
}

/** Accumulates one streamed answer. */
class ChatAccumulator {
  reasoning = '';
  text = '';
  details: Record<string, unknown>[] = [];
  readonly calls = new Map<number, PendingCall>();
  finishReason: string | null = null;
  /** Content chunk types already warned about. */
  readonly unknownChunks = new Set<string>();
  usage: UsageWithExtras | undefined;
  /** The delta field reasoning arrived in (the first one that carried it). */
  reasoningField: string | undefined;
  /** Delta fields this reader does not read, kept for the same model. */
  readonly unread: UnreadMessageFields;

  /** The Harmony tool call being written in `content`, if the last piece was one. */
  private harmonyCall: PendingCall | undefined;

  constructor(
    private readonly splitter: StreamSplitter<ContentPiece> | undefined,
    reader: ChatReasoningReader,
  ) {
    this.unread = new UnreadMessageFields([...reader.fields, ...(reader.details ? ['reasoning_details'] : [])]);
    this.primaryField = reader.fields[0];
  }

  /** The field this host's profile expects reasoning in. */
  private readonly primaryField: string | undefined;

  * content(text: string): Generator<ModelStreamEvent> {
    const pieces = this.splitter ? this.splitter.push(text) : [{ kind: 'text', text }];
    yield* this.pieces(pieces);
  }

  * flush(): Generator<ModelStreamEvent> {
    if (this.splitter) yield* this.pieces(this.splitter.end());
  }

  private* pieces(pieces: readonly ContentPiece[]): Generator<ModelStreamEvent> {
    for (const piece of pieces) {
      if (piece.kind === 'commentary' && piece.recipient?.startsWith('functions.')) {
        yield* this.harmonyToolCall(piece.recipient.slice('functions.'.length), piece.text);
        continue;
      }
      this.harmonyCall = undefined;
      if (piece.kind === 'reasoning') {
        this.reasoning += piece.text;
        yield { type: 'reasoning-delta', text: piece.text };
      } else {
        this.text += piece.text;
        yield { type: 'text-delta', text: piece.text };
      }
    }
  }

  /**
   * Raw Harmony `commentary to=functions.NAME` messages are tool calls: their text
   * is the arguments. Consecutive pieces to the same function continue one call
   * (the parser merges a message's pieces; two calls in a row to the same function
   * with nothing between them would read as one).
   */
  private* harmonyToolCall(name: string, args: string): Generator<ModelStreamEvent> {
    let pending = this.harmonyCall?.name === name ? this.harmonyCall : undefined;
    if (!pending) {
      const index = this.calls.size === 0 ? 0 : Math.max(...this.calls.keys()) + 1;
      pending = { id: generatedCallId(), name, args: '' };
      this.calls.set(index, pending);
      this.harmonyCall = pending;
      yield { type: 'tool-call-start', id: pending.id, name };
    }
    pending.args += args;
    yield { type: 'tool-call-delta', id: pending.id, argsDelta: args };
  }

  /**
   * Merges streamed `reasoning_details` fragments by their `index` and `type`: a
   * summary and its encrypted item can share an index (recorded from OpenRouter on
   * OpenAI models), and they are two entries, not one.
   */
  addDetails(entries: unknown): void {
    if (!Array.isArray(entries)) return;
    for (const entry of entries as Record<string, unknown>[]) {
      const existing =
        typeof entry.index === 'number'
          ? this.details.find((d) => d.index === entry.index && (entry.type === undefined || d.type === entry.type))
          : undefined;
      if (!existing) {
        this.details.push({ ...entry });
        continue;
      }
      for (const [key, value] of Object.entries(entry)) {
        const previous = existing[key];
        const streamed = streamedDetailKeys.has(key) && typeof value === 'string' && typeof previous === 'string';
        existing[key] = streamed ? previous + value : value;
      }
    }
  }

  message(model: ModelRef, withDetails: boolean): AssistantMessage {
    const content: AssistantPart[] = [];
    if (this.reasoning || this.details.length > 0) {
      const fields: Record<string, unknown> = withDetails && this.details.length > 0 ? { reasoning_details: this.details } : {};
      // A host that answered in another field than its profile's (GLM on a vLLM host: `reasoning`) gets it back there.
      if (this.reasoningField !== undefined && this.reasoningField !== this.primaryField) fields.field = this.reasoningField;
      content.push({ type: 'reasoning', text: this.reasoning, providerData: providerDataFor(model, fields) });
    }
    if (this.text) content.push({ type: 'text', text: this.text });
    for (const call of [...this.calls.entries()].sort(([a], [b]) => a - b).map(([, value]) => value)) {
      const args = parseArguments(call, model);
      const providerData = callProviderData(model, call.args, args);
      content.push({ type: 'tool-call', id: call.id, name: call.name, args, ...(providerData ? { providerData } : {}) });
    }
    const unread = this.unread.part(model);
    if (unread) content.push(unread);
    recordReasoningTokens(content, this.usage?.completion_tokens_details?.reasoning_tokens);
    return { role: 'assistant', content, model: { ...model }, usage: mapOpenAIChatUsage(this.usage) };
  }
}

function parseArguments(call: PendingCall, model: ModelRef): unknown {
  if (call.args.trim() === '') return {};
  try {
    return JSON.parse(call.args);
  } catch (cause) {
    throw new ModelError('protocol', `${model.provider} sent arguments for tool ${call.name} that are not valid JSON`, {
      retryable: true,
      cause,
    });
  }
}

/** Consumes the chunks and yields neutral events; the last one is `finish`. */
export async function* mapOpenAIChatStream(
  chunks: AsyncIterable<ChatCompletionChunk>,
  model: ModelRef,
  reader: ChatReasoningReader,
): AsyncGenerator<ModelStreamEvent> {
  const state = new ChatAccumulator(reader.contentSplitter?.(), reader);
  let warning: ModelStreamEvent | undefined;
  try {
    yield* readChunks(chunks, state, reader);
  } catch (error) {
    warning = errorAfterLengthWarning(error, state, model);
    if (!warning) throw error;
  }
  yield* state.flush();
  if (state.finishReason === null) {
    throw new ModelError('protocol', `${model.provider} stream ended without a finish_reason`, { retryable: true });
  }
  if (warning) yield warning;
  const message = state.message(model, reader.details === true);
  const hasToolCalls = state.calls.size > 0;
  const usage = message.usage ?? { inputTokens: 0, outputTokens: 0 };
  yield { type: 'finish', message, usage, stopReason: mapOpenAIChatStopReason(state.finishReason, hasToolCalls) };
}

/**
 * OpenRouter ends a stream that hit the output limit with an error chunk after the
 * `finish_reason: "length"` chunks ("Token limit reached", code 400), which the SDK
 * throws. That is a max-tokens finish, not a bad request: the partial output is
 * kept and a warning says what the stream ended with. Any other error is thrown.
 */
function errorAfterLengthWarning(error: unknown, state: ChatAccumulator, model: ModelRef): ModelStreamEvent | undefined {
  // An error chunk is an APIError with the chunk's error body and no HTTP status (aborts and dropped connections have no body).
  const sdk = openAISdk.loaded;
  const errorChunk =
    sdk !== undefined &&
    error instanceof sdk.APIError &&
    error.status === undefined &&
    error.error !== undefined &&
    !(error instanceof sdk.APIUserAbortError);
  if (state.finishReason !== 'length' || !errorChunk) return undefined;
  return {
    type: 'warning',
    code: 'error-after-max-tokens',
    message: `${model.provider}: the answer reached its output limit (finish_reason "length") and the stream then ended with an error (${error.message}); the partial output is kept as a max-tokens finish.`,
  };
}

async function* readChunks(
  chunks: AsyncIterable<ChatCompletionChunk>,
  state: ChatAccumulator,
  reader: ChatReasoningReader,
): AsyncGenerator<ModelStreamEvent> {
  for await (const chunk of chunks) {
    if (chunk.usage) state.usage = chunk.usage;
    const choice = chunk.choices?.[0];
    if (!choice) continue;
    // Moonshot puts usage on the finishing choice instead of a trailing usage chunk.
    const choiceUsage = (choice as { usage?: UsageWithExtras | null }).usage;
    if (!chunk.usage && choiceUsage) state.usage = choiceUsage;
    const delta = (choice.delta ?? {}) as ChatCompletionChunk.Choice.Delta & Record<string, unknown>;
    const field = reader.fields.find((name) => typeof delta[name] === 'string' && delta[name] !== '');
    const reasoning = field === undefined ? undefined : (delta[field] as string);
    if (field !== undefined && reasoning !== undefined) {
      state.reasoning += reasoning;
      state.reasoningField ??= field;
      yield { type: 'reasoning-delta', text: reasoning };
    }
    if (reader.details) state.addDetails(delta.reasoning_details);
    state.unread.add(delta);
    if (typeof delta.content === 'string' && delta.content) yield* state.content(delta.content);
    else if (Array.isArray(delta.content)) yield* contentChunks(state, delta.content as unknown[]);
    for (const call of delta.tool_calls ?? []) yield* toolCallDelta(state, call);
    if (choice.finish_reason) state.finishReason = choice.finish_reason;
  }
}

/**
 * Content sent as a list of chunks (Mistral's reasoning models: `thinking` chunks
 * holding text chunks, then `text` chunks): each read by its type, never joined as
 * objects. A chunk of another type is said once, not turned into text.
 */
function* contentChunks(state: ChatAccumulator, chunks: readonly unknown[]): Generator<ModelStreamEvent> {
  for (const chunk of chunks as { type?: unknown; text?: unknown; thinking?: unknown }[]) {
    if (chunk.type === 'text' && typeof chunk.text === 'string') yield* state.content(chunk.text);
    else if (chunk.type === 'thinking') {
      const inner = Array.isArray(chunk.thinking) ? (chunk.thinking as { text?: unknown }[]) : [];
      const text = inner.map((entry) => (typeof entry.text === 'string' ? entry.text : '')).join('');
      if (text) {
        state.reasoning += text;
        yield { type: 'reasoning-delta', text };
      }
    } else if (!state.unknownChunks.has(String(chunk.type))) {
      state.unknownChunks.add(String(chunk.type));
      yield { type: 'warning', code: 'unknown-content-chunk', message: `a content chunk of type "${String(chunk.type)}" is not read by this adapter` };
    }
  }
}

function* toolCallDelta(
  state: ChatAccumulator,
  call: ChatCompletionChunk.Choice.Delta.ToolCall,
): Generator<ModelStreamEvent> {
  const index = callIndexOf(state, call);
  let pending = state.calls.get(index);
  if (!pending) {
    pending = { id: call.id ?? generatedCallId(), name: call.function?.name ?? '', args: '' };
    state.calls.set(index, pending);
    yield { type: 'tool-call-start', id: pending.id, name: pending.name };
  }
  const args = call.function?.arguments;
  if (args) {
    pending.args += args;
    yield { type: 'tool-call-delta', id: pending.id, argsDelta: args };
  }
}

/**
 * The call a delta belongs to. Some servers (Moonshot) send tool-call deltas
 * without `index`: a delta with a new id starts the next call, one without an id
 * continues the latest.
 */
function callIndexOf(state: ChatAccumulator, call: ChatCompletionChunk.Choice.Delta.ToolCall): number {
  if (typeof call.index === 'number') return call.index;
  const known = [...state.calls.entries()];
  const byId = call.id ? known.find(([, pending]) => pending.id === call.id) : undefined;
  if (byId) return byId[0];
  const latest = known.length > 0 ? Math.max(...known.map(([index]) => index)) : -1;
  return call.id || latest < 0 ? latest + 1 : latest;
}

/**
 * An id for a call the server sent without one. Random, not numbered: a durable
 * episode's approvals are named by call id, and an id known in advance (`call_0`)
 * could be decided before the model proposed the call.
 */
function generatedCallId(): string {
  return `call_${globalThis.crypto.randomUUID().replace(/-/g, '').slice(0, 24)}`;
}
