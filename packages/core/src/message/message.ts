/**
 * The neutral message model (transcript format v1). Plain interfaces: the zod
 * schemas that validate them at the edge live in `transcript-schema.ts`, which
 * proves when compiling that both describe the same data.
 *
 * Every object may carry extra fields; they survive a read/write round trip.
 */

/** Which provider and model produced a message or a piece of opaque data. */
export interface ModelRef {
  /** Provider name, e.g. `anthropic`, `openai`, `google`, `deepseek`. */
  provider: string;
  /** The model id the provider knows it by. */
  id: string;
  [extra: string]: unknown;
}

/** Visible text. */
export interface TextPart {
  type: 'text';
  text: string;
  /** Provider-opaque data bound to this part (e.g. a Gemini `thoughtSignature`). */
  providerData?: ProviderData;
  [extra: string]: unknown;
}

/** A reasoning trace (thinking). */
export interface ReasoningPart {
  type: 'reasoning';
  text: string;
  /** Anthropic thinking signature (opaque, bound to the producing model). */
  signature?: string;
  /** True for a redacted trace whose content only exists as opaque data. */
  redacted?: boolean;
  /** Provider-opaque data (OpenAI `id` + `encrypted_content`, Anthropic redacted `data`, ...). */
  providerData?: ProviderData;
  [extra: string]: unknown;
}

/** A tool call the model asked for. */
export interface ToolCallPart {
  type: 'tool-call';
  id: string;
  name: string;
  args: unknown;
  providerData?: ProviderData;
  [extra: string]: unknown;
}

/** An image in user content. */
export interface ImagePart {
  type: 'image';
  /** base64 data or a URL. */
  data?: string;
  url?: string;
  mediaType?: string;
  [extra: string]: unknown;
}

/** Opaque provider data, tagged with the model that produced it. */
export interface ProviderData {
  provider: string;
  model: string;
  [field: string]: unknown;
}

/** A part of an assistant message. */
export type AssistantPart = TextPart | ReasoningPart | ToolCallPart;
/** A part of a user message. */
export type UserPart = TextPart | ImagePart;

/** A system prompt line; only at the top of a transcript (the packer folds it into the system prompt). */
export interface SystemMessage {
  role: 'system';
  content: string;
  [extra: string]: unknown;
}

/** A user message: plain text or parts. Each one opens an episode. */
export interface UserMessage {
  role: 'user';
  content: string | UserPart[];
  [extra: string]: unknown;
}

/** Token usage reported by a provider for one model call. */
export interface Usage {
  /** All input tokens, including cached reads and cache writes. */
  inputTokens: number;
  /** Input tokens served from the provider's prompt cache. */
  cachedInputTokens?: number;
  /** Input tokens written to the cache (Anthropic). */
  cacheWriteTokens?: number;
  outputTokens: number;
  /** Output tokens spent on reasoning (part of `outputTokens`). */
  reasoningTokens?: number;
  /** Estimated USD of the call, from the producing model's list prices when it was made. */
  costUsd?: number;
  [extra: string]: unknown;
}

/** One model answer: reasoning, text and tool calls, with the model that produced it and the call's usage. */
export interface AssistantMessage {
  role: 'assistant';
  content: AssistantPart[];
  /** Who produced it. */
  model?: ModelRef;
  usage?: Usage;
  [extra: string]: unknown;
}

/** The result of one tool call, paired with the call by `toolCallId`. Never an episode boundary. */
export interface ToolMessage {
  role: 'tool';
  toolCallId: string;
  toolName: string;
  content: string;
  isError?: boolean;
  [extra: string]: unknown;
}

/**
 * A summary of evicted episodes (transcript v1 addition, see DESIGN.md). The agent
 * loop writes one when a background summarizer has summarized episodes the packer
 * evicted; it is never sent as is: the packer turns the summaries that cover its
 * evicted episodes into one user message. Being in the transcript, it makes every
 * later pack a pure function of the transcript. It belongs to no episode.
 */
export interface SummaryMessage {
  role: 'summary';
  /** The summary text. */
  content: string;
  /**
   * The episodes it covers, `from` inclusive to `to` exclusive, numbered as
   * `splitEpisodes` numbers them (a preamble is episode 0; summary lines count for none).
   */
  episodes: { from: number; to: number };
  /** The model that wrote it. */
  model?: ModelRef;
  /** The summarizer call's usage. */
  usage?: Usage;
  [extra: string]: unknown;
}

/** What a model call sends and gets back: the messages adapters convert. */
export type ModelMessage = SystemMessage | UserMessage | AssistantMessage | ToolMessage;

/** One line of a transcript (format v1): a message, or a summary of evicted episodes. */
export type Message = ModelMessage | SummaryMessage;

/** A tool as the model sees it: name, description and a JSON Schema for its input. */
export interface ToolSpec {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

/** The text of a user message, parts joined. */
export function userText(message: UserMessage): string {
  if (typeof message.content === 'string') return message.content;
  return message.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

/** The visible text of an assistant message. */
export function assistantText(message: AssistantMessage): string {
  return message.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

/** The tool calls of an assistant message. */
export function toolCallsOf(message: AssistantMessage): ToolCallPart[] {
  return message.content.filter((part): part is ToolCallPart => part.type === 'tool-call');
}
