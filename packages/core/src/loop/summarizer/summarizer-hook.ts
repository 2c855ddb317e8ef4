/**
 * The background summarizer as a hook of the loop: before each model call it appends
 * the summaries finished since the last one (none is waited for), after a live call
 * it hands the pack's request for a summary to the summarizer, and at the episode's
 * end it appends what finished meanwhile.
 */
import { continuesBoundStep } from '../../packing/bound-reasoning.js';
import type { LoopHook } from '../hooks/loop-hook.js';
import { appendFinishedSummaries, type BackgroundSummarizer } from './background-summarizer.js';

/** The hook of a session's summarizer. */
export function summarizerHook(summarizer: BackgroundSummarizer): LoopHook {
  return {
    name: 'summarizer',
    wrapModelCall: (next) => async (settings, call) => {
      // Not while bound reasoning is under way: a new summary would change what it is bound to.
      if (!(settings.pack?.boundReasoning && continuesBoundStep(call.messages))) {
        await appendFinishedSummaries({ summarizer, emit: call.emit }, call.append);
      }
      const outcome = await next(settings, call);
      const request = outcome.live?.summaryRequest;
      if (request) summarizer.request(request, { ...settings, messages: call.messages });
      return outcome;
    },
    async finish({ next, append, emit }) {
      // Not while paused: a summary line must not come between a step's tool results.
      if (next.type !== 'paused') await appendFinishedSummaries({ summarizer, emit }, append);
      return undefined;
    },
  };
}
