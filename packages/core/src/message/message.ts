/**
 * The neutral message model (transcript format v1). Plain interfaces: the zod
 * schemas that validate them at the edge live in `transcript-schema.ts`.
 *
 * Every object may carry extra fields; they survive a read/write round trip.
 */

/** Which provider and model produced a message or a piece of opaque data. */
export interface ModelRef {
  provider: string;
  id: string;
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

/**
 * How a call of a tool that needs approval was decided, kept on its result (an
 * optional field, so v1 readers keep it as an unknown field and v1 files still load).
 * A rejected call has an error result saying why; an approved call's result is the
 * tool's output, followed by the person's note when there is one.
 */
export interface ToolApproval {
  decision: 'approved' | 'rejected';
  /** `person`: `session.approve()` / `reject()`; `policy`: the agent's approval policy. */
  by: 'person' | 'policy';
  /** The approver's note (approved calls). */
  note?: string;
  /** Why the call was rejected. */
  reason?: string;
  [extra: string]: unknown;
}

/**
 * The session an agent tool ran its sub-agent in (`agent.asTool()`), kept on the
 * call's result so it can be opened, inspected and resumed, with what its calls used.
 */
export interface SubSessionReference {
  /** Its id, in the agent tool's store. */
  id: string;
  /** Model calls the sub-agent made for this result. */
  calls: number;
  /** Their summed usage (`costUsd` when every call's cost was known). */
  usage: Usage;
  [extra: string]: unknown;
}

/** The result of one tool call, paired with the call by `toolCallId`. Never an episode boundary. */
export interface ToolMessage {
  role: 'tool';
  toolCallId: string;
  toolName: string;
  content: string;
  isError?: boolean;
  /** Set when the tool needed approval: who decided and what. */
  approval?: ToolApproval;
  /** Set by agent tools: the sub-agent's session and its usage (counted in the session's totals). */
  subSession?: SubSessionReference;
  /** True on the result of an accepted `final_answer` call: the episode ended with it (nothing left to resume). */
  finalAnswer?: boolean;
  [extra: string]: unknown;
}

/** One line of a transcript (format v1). */
export type Message = SystemMessage | UserMessage | AssistantMessage | ToolMessage;

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
