/**
 * The chunks of the AI SDK UI message stream protocol (v1) that an Episodic session
 * produces, as plain types: core does not depend on the `ai` package, and a chat UI
 * built on `useChat` (or the `ai` package's `Chat` classes) reads them as they are.
 *
 * @see https://ai-sdk.dev/docs/ai-sdk-ui/stream-protocol#ui-message-stream-protocol
 */
import type { EpisodeFinishReason } from '../loop/agent-events.js';
import type { ModelRef } from '../message/message.js';

/** The `finishReason` of a `finish` chunk. */
export type UIFinishReason = 'stop' | 'length' | 'content-filter' | 'tool-calls' | 'error' | 'other';

/** What the packer did for the latest model call, as message metadata. */
export interface UIPackMetadata {
  step: number;
  budget: number;
  tokens: { system: number; tools: number; summary: number; history: number; currentEpisode: number; total: number };
  evictedEpisodes: number;
  reasoningKeptParts: number;
  reasoningDroppedParts: number;
  truncatedToolResults: number;
  /** Tokens at the start of the request identical to the previous one's (predicted cache reuse). */
  predictedCachedTokens: number;
}

/** Token usage of the episode, as message metadata on `finish`. */
export interface UIUsageMetadata {
  modelCalls: number;
  inputTokens: number;
  cachedInputTokens: number;
  outputTokens: number;
  reasoningTokens: number;
  costUsd?: number;
}

/**
 * The assistant message's metadata (`message.metadata` in `useChat`): merged from the
 * `start`, `message-metadata` and `finish` chunks as the episode runs.
 */
export interface EpisodicMessageMetadata {
  sessionId?: string;
  model?: ModelRef;
  /** The latest model call's pack stats. */
  pack?: UIPackMetadata;
  /** Model calls retried so far in this episode. */
  retries?: number;
  usage?: UIUsageMetadata;
  finishReason?: EpisodeFinishReason;
}

/** One chunk of the UI message stream. */
export type UIMessageChunk =
  | { type: 'start'; messageId?: string; messageMetadata?: EpisodicMessageMetadata }
  | { type: 'start-step' }
  | { type: 'text-start'; id: string }
  | { type: 'text-delta'; id: string; delta: string }
  | { type: 'text-end'; id: string }
  | { type: 'reasoning-start'; id: string }
  | { type: 'reasoning-delta'; id: string; delta: string }
  | { type: 'reasoning-end'; id: string }
  | { type: 'tool-input-available'; toolCallId: string; toolName: string; input: unknown }
  | { type: 'tool-approval-request'; approvalId: string; toolCallId: string }
  | { type: 'tool-output-available'; toolCallId: string; output: unknown }
  | { type: 'tool-output-error'; toolCallId: string; errorText: string }
  | { type: 'finish-step' }
  | { type: 'message-metadata'; messageMetadata: EpisodicMessageMetadata }
  | { type: 'error'; errorText: string }
  | { type: 'abort'; reason?: string }
  | { type: 'finish'; finishReason?: UIFinishReason; messageMetadata?: EpisodicMessageMetadata };
