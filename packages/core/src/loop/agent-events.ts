/**
 * The events a session streams while it runs an episode, in this order for each
 * step: `context-packed`, `reasoning-delta` / `text-delta` (interleaved as the
 * model streams), `tool-call` (one per call, once the model finished), `tool-result`
 * (in completion order), `step-finish`. An episode is framed by `episode-start` and
 * `episode-finish`; `error` can come at any point (with `willRetry` when the loop
 * tries the call again).
 *
 * Reasoning events: `reasoning-handoff` just before `context-packed` when a call
 * gets a hand-off note; `reasoning-stats` (scope `step`) and, when reasoning
 * reached visible text, `reasoning-leak` once the model's answer is persisted
 * (before its tool calls run); `reasoning-stats` (scope `episode`) before the final
 * `error` (if any) and `episode-finish`;
 * Approvals: `approval-requested` after the `tool-call` events of a batch, for each
 * call that waits for a decision; the run then ends with `episode-finish` (reason
 * `paused`) once the batch's other calls have their results.
 * `reasoning-restored` right after `episode-start` of the first run of a session
 * whose history was completed from a replay cache.
 */
import type { ApprovalRequest } from './approvals.js';
import type { AssistantMessage, ModelRef, ToolCallPart, ToolMessage, Usage, UserMessage } from '../message/message.js';
import type { StopReason } from '../model/model-adapter.js';
import type { FailoverReason } from '../errors/fallback-error.js';
import type { PackStats } from '../packing/pack-types.js';
import type { ReasoningEvent } from '../reasoning/reasoning-events.js';
import type { UsageTotals } from '../model/usage-totals.js';

/** Why an episode ended. */
export type EpisodeFinishReason =
  /** The model answered without tool calls. */
  | 'done'
  /** A stop condition held after a step that ran tools. */
  | 'stop-condition'
  /** The run's signal was aborted; the transcript is consistent. */
  | 'aborted'
  /** A model call failed for good (retries exhausted, or not retryable), or the context could not fit. */
  | 'error'
  /** Tool calls wait for approval; `resume()` continues the episode once they are decided. */
  | 'paused';

/** An event of a run, in the order described above. */
export type AgentEvent =
  | {
    type: 'episode-start';
    sessionId: string;
    /** The user message that opened the episode; undefined when resuming. */
    input: UserMessage | undefined;
    resumed: boolean;
    /** The model this episode's calls go to (the agent's adapter). */
    model: ModelRef;
  }
  /** `step` counts the model calls of the current episode, from 1 (a resumed episode keeps counting). */
  /** `model`: where this call goes (a fallback model after `model-fallback`). */
  | { type: 'context-packed'; step: number; stats: PackStats; budget: number; model?: ModelRef }
  | { type: 'reasoning-delta'; step: number; text: string }
  | { type: 'text-delta'; step: number; text: string }
  | { type: 'tool-call'; step: number; call: ToolCallPart }
  /** A call of a tool that needs approval waits for a decision (after its `tool-call`; the episode then pauses). */
  | { type: 'approval-requested'; step: number; request: ApprovalRequest }
  | { type: 'tool-result'; step: number; result: ToolMessage; durationMs: number }
  | {
    type: 'step-finish';
    step: number;
    message: AssistantMessage;
    toolResults: readonly ToolMessage[];
    /** This call's usage, as the provider reported it. */
    usage: Usage | undefined;
    stopReason: StopReason | undefined;
  }
  | ReasoningEvent
  /**
   * The step failed on `from` with an error worth failing over (`reason`, the error's
   * `code`; an `error` event with `willRetry` came just before) and is retried on `to`.
   */
  | { type: 'model-fallback'; step: number; from: ModelRef; to: ModelRef; reason: FailoverReason; code: string }
  | {
    type: 'error';
    error: Error;
    /** True when the loop retries (after `retryInMs`) or repacks; false when the episode ends. */
    willRetry: boolean;
    retryInMs?: number;
  }
  | {
    type: 'episode-finish';
    reason: EpisodeFinishReason;
    /** The last assistant message of the episode, if any. */
    message: AssistantMessage | undefined;
    /** Usage of this episode's model calls. */
    usage: UsageTotals;
    /** The checked structured answer, when the run asked for one and got it. */
    output?: unknown;
  };

/** Receives events as they happen. Must not throw. */
export type AgentEventHandler = (event: AgentEvent) => void;
