/**
 * Portable compaction checkpoints as a hook of the loop: at the loop's safe points
 * (before each model call, and at an episode's end that is not a pause) a compaction
 * just saved gets its text summary started, off the call path, and the summaries
 * finished since are appended (checkpoint-summaries.ts).
 */
import type { Message, SummaryMessage } from '../../message/message.js';
import { continuesBoundStep } from '../../packing/bound-reasoning.js';
import type { AgentEventHandler } from '../agent-events.js';
import type { LoopHook } from '../hooks/loop-hook.js';
import { appendFinishedSummaries } from '../summarizer/background-summarizer.js';
import type { CheckpointSummarizer } from './checkpoint-summaries.js';

/** The hook of a session's checkpoint summarizer. */
export function checkpointHook(checkpoints: CheckpointSummarizer): LoopHook {
  const atSafePoint = (messages: readonly Message[], emit: AgentEventHandler, append: (lines: SummaryMessage[]) => Promise<void>) =>
    appendFinishedSummaries({ checkpoints, emit, writer: { messages } }, append);
  return {
    name: 'checkpoints',
    wrapModelCall: (next) => async (settings, call) => {
      // Not while bound reasoning is under way: a new summary line would change what it is bound to.
      if (!(settings.pack?.boundReasoning && continuesBoundStep(call.messages))) {
        await atSafePoint(call.messages, call.emit, call.append);
      }
      return next(settings, call);
    },
    async finish({ next, messages, append, emit }) {
      // Not while paused: a summary line must not come between a step's tool results.
      if (next.type !== 'paused') await atSafePoint(messages, emit, append);
      return undefined;
    },
  };
}
