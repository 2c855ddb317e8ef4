/**
 * What a run of the agent loop returns: a finished episode (with its structured
 * answer when one was asked for) or an episode paused for approvals.
 */
import type { AssistantMessage } from '../message/message.js';
import type { EpisodeReasoningReport } from '../reasoning/stats/reasoning-report.js';
import type { UsageTotals } from '../model/usage-totals.js';
import { assistantText } from '../message/message.js';
import type { ApprovalRequest } from './approvals.js';
import type { NextStep } from './loop-types.js';

/** What every run's outcome tells. */
export interface RunOutcome {
  /** The episode's last assistant message. */
  message: AssistantMessage | undefined;
  /** Its visible text. */
  text: string;
  /** Model calls made by this run. */
  steps: number;
  /** Usage of this run's model calls. */
  usage: UsageTotals;
  /** Reasoning and visible tokens of this run's steps, and the leaks found in them. */
  reasoning: EpisodeReasoningReport;
}

/** An episode that ended: the model answered without tool calls, or a stop condition held. */
export interface FinishedEpisode<Output = undefined> extends RunOutcome {
  status: 'finished';
  reason: 'done' | 'stop-condition';
  /** The structured answer, checked against the `output` schema the run was given (undefined without one). */
  output: Output;
  pendingApprovals: readonly [];
}

/**
 * An episode waiting for approvals: decide each request with `session.approve()` /
 * `reject()`, then `resume()` continues the same episode (in this process or another).
 */
export interface PausedEpisode extends RunOutcome {
  status: 'paused';
  reason: 'paused';
  /** The calls waiting for a decision, in call order. */
  pendingApprovals: readonly ApprovalRequest[];
}

/** The outcome of a run that did not fail (aborts and failures throw). */
export type EpisodeResult<Output = undefined> = FinishedEpisode<Output> | PausedEpisode;

/** The result of a run that ended at `next`. */
export function episodeResult(
  next: Extract<NextStep, { type: 'final' | 'stop' | 'paused' }>,
  { message, steps, usage, reasoning, output }: Omit<RunOutcome, 'text'> & { output: unknown },
): EpisodeResult<unknown> {
  const text = message ? assistantText(message) : '';
  if (next.type === 'paused') {
    return { message, steps, usage, reasoning, text, status: 'paused', reason: 'paused', pendingApprovals: next.pending };
  }
  const reason = next.type === 'final' ? 'done' : 'stop-condition';
  return { message, steps, usage, reasoning, text, status: 'finished', reason, output, pendingApprovals: [] };
}
