/**
 * The neutral message model (transcript format v1.1, a strict superset of v1).
 * Plain interfaces: the zod schemas that validate them at the edge live in
 * `transcript-schema.ts`; `transcript-version.ts` says which parts need v1.1.
 *
 * Every object may carry extra fields; they survive a read/write round trip.
 */
import type { AppliedContextEdit } from './applied-context-edit.js';
import type { InputTransformation } from './input-transformation.js';

export type { AppliedContextEdit } from './applied-context-edit.js';

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
  /**
   * Reasoning tokens the provider reported for this part when it produced it (its
   * share of the call's reasoning tokens). Opaque reasoning (encrypted, redacted,
   * signature-only) is billed and fills the context window with little or no text:
   * the token counter counts the larger of this and the text.
   */
  tokens?: number;
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

/** An image in user content or (v1.1) in a tool result: base64 `data` or a `url`. */
export interface ImagePart {
  type: 'image';
  /** base64 data or a URL. */
  data?: string;
  url?: string;
  mediaType?: string;
  [extra: string]: unknown;
}

/**
 * A file in a tool result (v1.1): a PDF, a text document, by base64 `data` or a
 * `url` (one of them is required).
 */
export interface FilePart {
  type: 'file';
  data?: string;
  url?: string;
  /** e.g. `application/pdf`. */
  mediaType: string;
  filename?: string;
  [extra: string]: unknown;
}

/**
 * A tool the provider ran itself (v1.1): web search, code execution, a remote MCP
 * call, and the results they returned. Its wire form is opaque: `providerData`
 * holds the provider's own block or item, and only the provider that produced it
 * gets it back (an adapter for any other provider leaves it out with a warning).
 */
export interface ProviderToolPart {
  type: 'provider-tool';
  /** The tool as the provider names it, e.g. `web_search`, `code_execution`. */
  name: string;
  /** `call` for the provider's request, `result` for what came back. */
  kind: 'call' | 'result';
  /** The provider's id pairing a call with its result, when it has one. */
  id?: string;
  /** What the part says as plain text (query, code, result), for counting and display; never sent. */
  text?: string;
  /** The provider's block or item exactly as it came, tagged with who produced it. */
  providerData: ProviderData;
  [extra: string]: unknown;
}

/**
 * A provider's server-side compaction of the context (v1.1): Anthropic's `compaction`
 * block (`compact_20260112`), OpenAI's `compaction` item (Responses `context_management`).
 * From this part on, the provider that made it reads the summary in place of everything
 * before it: it is sent back verbatim (`providerData`) to that provider and model only,
 * and the packer sends nothing older than the message that holds it (see
 * `messagesAfterCompaction`). Another model gets its readable `text` in its place, or, for an
 * opaque item (OpenAI's), Episodic's text summary of it (a summary line with `checkpoint`).
 */
export interface CompactionPart {
  type: 'compaction';
  /** The summary as readable text when the provider returns one (Anthropic); counted, never sent as text. */
  text?: string;
  /** Tokens the provider reported for the compacted context, when it said; the counter prefers it. */
  tokens?: number;
  /** The provider could not summarize (Anthropic `content: null`): sent back, a no-op, so the history before it still goes. */
  failed?: boolean;
  /** User messages the compacted window keeps before the part (OpenAI `/responses/compact`: all of them); sent before it. */
  userMessagesKept?: number;
  /**
   * On an on-demand compaction (see `OnDemandCompactor`): it stands for the first this-many
   * messages (stored, not sent), and goes first in its model's later requests in their place.
   */
  summarizedMessages?: number;
  /** The provider's block or item exactly as it came, tagged with who produced it. */
  providerData: ProviderData;
  [extra: string]: unknown;
}

/** Opaque provider data, tagged with the model that produced it. */
export interface ProviderData {
  provider: string;
  model: string;
  /**
   * Names of fields here that belong to the model's reasoning although they ride on
   * a text or tool-call part (Gemini's `thoughtSignature`). They follow reasoning
   * retention: wherever the packer drops a message's reasoning, it takes these
   * fields off its other parts too (see `withoutReasoningData`).
   */
  reasoningFields?: string[];
  [field: string]: unknown;
}

/** A part of an assistant message. */
export type AssistantPart = TextPart | ReasoningPart | ToolCallPart | ProviderToolPart | CompactionPart;
/** A part of a user message. */
export type UserPart = TextPart | ImagePart;
/** What a tool result holds when it is more than text (v1.1). */
export type ToolResultPart = TextPart | ImagePart | FilePart;

/**
 * Instructions from the application. Leading system lines are the system prompt
 * (v1). A system line after the first other line (v1.1) is an instruction given at
 * that point of the session (a model switch, an aborted turn); it never starts an
 * episode, and each adapter places it where its wire API allows (see the README).
 */
export interface SystemMessage {
  role: 'system';
  content: string;
  [extra: string]: unknown;
}

/**
 * Developer instructions (v1.1), anywhere in the transcript, as OpenAI's `developer`
 * role has them. Like a mid-session system line they never start an episode; wire
 * APIs without the role get them as a system line would be placed.
 */
export interface DeveloperMessage {
  role: 'developer';
  content: string;
  [extra: string]: unknown;
}

/**
 * A user message: plain text or parts. Each one a person typed opens an episode;
 * injected ones (v1.1) do not.
 */
export interface UserMessage {
  role: 'user';
  content: string | UserPart[];
  /**
   * True (v1.1) for user-role context no person typed: a harness's reminders, hook
   * output, background-task notices, injected environment or project notes. It is
   * sent as a user message where it stands, but it does not start an episode: the
   * episode (and its reasoning) goes on across it, so it neither drops reasoning nor
   * breaks the cached prefix.
   */
  injected?: boolean;
  /**
   * Set (v1.1) on the injected message that carries the summary a recorded agent
   * wrote when it compacted its context: from there on that agent sent the summary
   * and the `keptMessages` messages before it, not the whole history. Episodic's
   * packer does not act on it (it evicts on its own); `episodic budget` uses it to
   * reproduce what the agent sent.
   */
  compaction?: Compaction;
  [extra: string]: unknown;
}

/** A recorded agent's context compaction (see {@link UserMessage.compaction}). */
export interface Compaction {
  /** Messages just before the summary that the agent kept in its context. */
  keptMessages: number;
  /** The context's size before the compaction, as the agent reported it. */
  tokensBefore?: number;
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
  /**
   * Tokens of a server-side compaction pass run inside this call (Anthropic
   * `usage.iterations` of type `compaction`), not included in the fields above, which
   * describe the pass that answered (and are what the packer's count is checked against).
   */
  compactionInputTokens?: number;
  compactionOutputTokens?: number;
  /** What the provider changed in the input before the model read it (see {@link InputTransformation}). */
  inputTransformations?: InputTransformation[];
  [extra: string]: unknown;
}

/** One model answer: reasoning, text and tool calls, with the model that produced it and the call's usage. */
export interface AssistantMessage {
  role: 'assistant';
  content: AssistantPart[];
  /** Who produced it. */
  model?: ModelRef;
  usage?: Usage;
  /** Edits the provider's context management applied to the call that produced it (v1.1). */
  contextEdits?: AppliedContextEdit[];
  /** Set when this step was answered by a fallback model: the models that failed first (see `AgentOptions.modelCalls.fallback`). */
  fallback?: StepFallback;
  [extra: string]: unknown;
}

/** A step a fallback model answered (optional, added like `approval`): the models that failed first, in order. */
export interface StepFallback {
  failed: FailedModelCall[];
  [extra: string]: unknown;
}

/** One model of a fallback chain that failed a step. */
export interface FailedModelCall {
  model: ModelRef;
  /** The error's `code`, e.g. `model_overloaded`. */
  code: string;
  /** Why it counted as worth failing over: `overloaded`, `server-error`, `rate-limit`, `unreachable`, `model-not-found`. */
  reason: string;
  /** HTTP status, when the provider gave one. */
  status?: number;
  /** The error message (secrets redacted, at most 500 characters). */
  message: string;
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
  /** Text (v1), or text, image and file parts (v1.1). */
  content: string | ToolResultPart[];
  isError?: boolean;
  /** Set when the tool needed approval: who decided and what. */
  approval?: ToolApproval;
  /** Set by agent tools: the sub-agent's session and its usage (counted in the session's totals). */
  subSession?: SubSessionReference;
  /** True (v1.1) on the result of an accepted `final_answer` call: the episode ended with it (nothing left to resume). */
  finalAnswer?: boolean;
  [extra: string]: unknown;
}

/**
 * A summary of evicted episodes (a transcript v1.1 line). The agent
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
  /** (v1.1) The opaque compaction this text stands for, for models that cannot read it (checkpoint-summaries.ts). */
  checkpoint?: CheckpointOf;
  [extra: string]: unknown;
}

/** Which compaction a checkpoint summary stands for (see {@link SummaryMessage.checkpoint}). */
export interface CheckpointOf {
  /** Index in the transcript of the assistant message that holds the compaction part. */
  message: number;
  /** The provider's id of the compaction item, when it has one (OpenAI `cmp_...`): checked on read. */
  id?: string;
  [extra: string]: unknown;
}

/** What a model call sends and gets back: the messages adapters convert. */
export type ModelMessage = SystemMessage | DeveloperMessage | UserMessage | AssistantMessage | ToolMessage;

/** One line of a transcript (format v1.1): a message, or a summary of evicted episodes. */
export type Message = ModelMessage | SummaryMessage;

/** A tool as the model sees it: name, description and a JSON Schema for its input. */
export interface ToolSpec {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

/** System and developer lines: instructions, never an episode boundary. */
export function isInstruction(message: Message): message is SystemMessage | DeveloperMessage {
  return message.role === 'system' || message.role === 'developer';
}

/** A user message a person typed (not injected context): the only kind that starts an episode. */
export function isEpisodeStart(message: Message): message is UserMessage {
  return message.role === 'user' && message.injected !== true;
}

/** The text of a tool result: its text parts joined (images and files have none). */
export function toolResultText(message: ToolMessage): string {
  if (typeof message.content === 'string') return message.content;
  return message.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
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
