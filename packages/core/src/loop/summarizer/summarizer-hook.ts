/**
 * The session's background summaries as a hook of the loop: the summaries of evicted
 * episodes and the text summaries of opaque compactions (portable checkpoints,
 * checkpoints/checkpoint-summaries.ts). At each safe point (before each model call, and
 * at an episode's end that is not a pause) a compaction just saved gets its text summary
 * started and whatever finished since is appended (none is waited for); after a live
 * call the pack's request for a summary of evicted episodes goes to the summarizer.
 */
import type { Message, SummaryMessage } from '../../message/message.js';
import { continuesBoundStep } from '../../packing/bound-reasoning.js';
import type { AgentEventHandler } from '../agent-events.js';
import type { CheckpointSummarizer } from '../checkpoints/checkpoint-summaries.js';
import type { LoopHook } from '../hooks/loop-hook.js';
import { appendFinishedSummaries, type BackgroundSummarizer } from './background-summarizer.js';

/** The summary writers of a session; the hook is made when it has either. */
export interface SessionSummaries {
  summarizer?: BackgroundSummarizer | undefined;
  checkpoints?: CheckpointSummarizer | undefined;
}

/** The hook of a session's summary writers (see the module comment). */
export function summarizerHook({ summarizer, checkpoints }: SessionSummaries): LoopHook {
  const atSafePoint = (messages: readonly Message[], emit: AgentEventHandler, append: (lines: SummaryMessage[]) => Promise<void>) =>
    appendFinishedSummaries({ summarizer, checkpoints, emit, writer: { messages } }, append);
  return {
    name: 'summarizer',
    wrapModelCall: (next) => async (settings, call) => {
      // Not while bound reasoning is under way: a new summary would change what it is bound to.
      if (!(settings.pack?.boundReasoning && continuesBoundStep(call.messages))) {
        await atSafePoint(call.messages, call.emit, call.append);
      }
      const outcome = await next(settings, call);
      const request = outcome.live?.summaryRequest;
      if (request) summarizer?.request(request, { ...settings, messages: call.messages });
      return outcome;
    },
    async finish({ next, messages, append, emit }) {
      // Not while paused: a summary line must not come between a step's tool results.
      if (next.type !== 'paused') await atSafePoint(messages, emit, append);
      return undefined;
    },
  };
}
