/**
 * Reasoning stats and leak checks as the agent loop reports them: per step and per
 * episode as events (`reasoning-stats`, `reasoning-leak`), and over a whole
 * transcript as the session's reasoning summary. The counting and the checks are
 * the pure functions of `reasoning/`; this file only tallies and reports.
 */
import type { ReasoningEventHandler } from '../reasoning-events.js';
import type { AssistantMessage, Message } from '../../message/message.js';
import { checkAssistantLeak, type LeakCheckOptions, type LeakFinding } from './leak-check.js';
import { type ReasoningStats, type ReasoningTally, reasoningStats } from './reasoning-stats.js';
import type { TokenCounter } from '../../tokens/token-counter.js';

/** A leak finding located in a transcript. */
export interface LocatedLeak extends LeakFinding {
  /** Index of the assistant message whose visible text holds it. */
  messageIndex: number;
}

/** What a run reports about its reasoning (also in the episode result). */
export interface EpisodeReasoningReport {
  /** Tokens of this run's steps, summed. */
  stats: ReasoningTally;
  /** Leak findings of this run's steps, with the step that produced each. */
  leaks: (LeakFinding & { step: number })[];
}

/** The session's reasoning summary: stats per step, per episode and in total, and every leak found. */
export interface SessionReasoningSummary extends ReasoningStats {
  leaks: LocatedLeak[];
}

function share(reasoning: number, visible: number): number {
  return reasoning + visible === 0 ? 0 : reasoning / (reasoning + visible);
}

/** Tallies one run's steps and emits their reasoning events. */
export class ReasoningReporter {
  private reasoningTokens = 0;
  private visibleTokens = 0;
  private reported: number | undefined;
  private steps = 0;
  private readonly leaks: (LeakFinding & { step: number })[] = [];

  constructor(
    private readonly counter: TokenCounter,
    private readonly emit: ReasoningEventHandler,
    /** The leak check's settings; `false` skips it. */
    private readonly leakCheck: LeakCheckOptions | false = {},
  ) {}

  /** Counts a step's answer, checks it for leaks and emits the step's events. */
  step(step: number, message: AssistantMessage): void {
    const tally = reasoningStats([message], this.counter).total;
    const { steps: _steps, ...stats } = tally;
    this.steps += 1;
    this.reasoningTokens += stats.reasoningTokens;
    this.visibleTokens += stats.visibleTokens;
    if (stats.reportedReasoningTokens !== undefined)
      this.reported = (this.reported ?? 0) + stats.reportedReasoningTokens;
    this.emit({ type: 'reasoning-stats', scope: 'step', step, stats });
    if (this.leakCheck === false) return;
    const findings = checkAssistantLeak(message, this.leakCheck);
    if (findings.length > 0) {
      this.leaks.push(...findings.map((finding) => ({ ...finding, step })));
      this.emit({ type: 'reasoning-leak', step, findings });
    }
  }

  /** Emits the episode's totals and returns them. */
  finish(): EpisodeReasoningReport {
    const stats: ReasoningTally = {
      reasoningTokens: this.reasoningTokens,
      visibleTokens: this.visibleTokens,
      ratio: share(this.reasoningTokens, this.visibleTokens),
    };
    if (this.reported !== undefined) stats.reportedReasoningTokens = this.reported;
    this.emit({ type: 'reasoning-stats', scope: 'episode', steps: this.steps, stats });
    return { stats, leaks: [...this.leaks] };
  }
}

/**
 * Reasoning stats and leak findings of a whole transcript. Reasoning kept out of a
 * persisted transcript (`persistReasoning: 'current-episode'`) cannot be counted
 * after a reload: only the provider-reported `reportedReasoningTokens` remain.
 */
export function summarizeReasoning(messages: readonly Message[], counter: TokenCounter): SessionReasoningSummary {
  const leaks: LocatedLeak[] = [];
  messages.forEach((message, messageIndex) => {
    if (message.role !== 'assistant') return;
    for (const finding of checkAssistantLeak(message)) leaks.push({ ...finding, messageIndex });
  });
  return { ...reasoningStats(messages, counter), leaks };
}
