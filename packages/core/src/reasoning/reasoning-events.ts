/**
 * The events the reasoning toolkit's loop side emits (hand-off notes, dropped
 * foreign reasoning, restored reasoning, per-step stats and leaks). The agent's
 * event union includes them; they live here so that the toolkit does not depend
 * on the loop that calls it.
 */
import type { ModelRef } from '../message/message.js';
import type { HandoffSkip } from './handoff/handoff-note.js';
import type { LeakFinding } from './stats/leak-check.js';
import type { ReasoningTally } from './stats/reasoning-stats.js';

/**
 * A warning: from the model adapter (e.g. an unsupported provider option), or from
 * the loop, then with a `code` (`handoff-trace-skipped`, `foreign-reasoning-dropped`,
 * `reasoning-missing`, `replay-cache-failed`). `step` is 0 for warnings about
 * the session as loaded.
 */
export interface WarningEvent {
  type: 'warning';
  step: number;
  message: string;
  code?: string;
}

/** The events of the reasoning toolkit; part of `AgentEvent`. */
export type ReasoningEvent =
  | WarningEvent
  /** Reasoning and visible tokens of one step (counted by the agent's tokenizer, raw tokens). */
  | { type: 'reasoning-stats'; scope: 'step'; step: number; stats: ReasoningTally }
  /** Reasoning and visible tokens of this run's steps, summed. */
  | { type: 'reasoning-stats'; scope: 'episode'; steps: number; stats: ReasoningTally }
  /** Reasoning showed up in a step's visible text (echoed trace, tag markers, Harmony tokens). */
  | { type: 'reasoning-leak'; step: number; findings: readonly LeakFinding[] }
  /**
   * This call's system prompt carries a hand-off note quoting `traces` reasoning
   * traces of other models (`from`); `tokens` were added to the call (and taken from
   * the packer's budget). `skipped` traces were left out whole.
   */
  | {
    type: 'reasoning-handoff';
    step: number;
    from: readonly ModelRef[];
    traces: number;
    tokens: number;
    skipped: readonly HandoffSkip[];
  }
  /** Reasoning the application's history lacked was restored from the replay cache. */
  | { type: 'reasoning-restored'; messages: number; tokens: number; missing: number };

/** Receives reasoning events. The agent's event handler is one. */
export type ReasoningEventHandler = (event: ReasoningEvent) => void;
