/**
 * Where a transcript's current episode stands: what an interrupted or paused
 * episode needs next, and how many steps it has taken. Worked out from the
 * transcript alone, so a reopened session (or another worker) picks up where it was.
 */
import { episodeUnfinished, unansweredToolCalls } from '../message/episodes.js';
import { type AssistantMessage, isEpisodeStart, type Message } from '../message/message.js';
import { holdsOnDemandCompaction } from '../packing/on-demand-cut.js';
import type { NextStep } from './next-step.js';

/**
 * What an interrupted transcript needs next, or undefined when its current episode
 * is finished (it ends with an assistant message whose tool calls all have results,
 * and no tool results after it) or there is nothing to continue.
 * - last assistant message has calls without results: run those;
 * - the transcript ends with a user or tool message: call the model.
 */
export function pendingStep(messages: readonly Message[]): NextStep | undefined {
  const unanswered = unansweredToolCalls(messages);
  if (unanswered) return { type: 'run-tools', ...unanswered, stopReason: undefined };
  return episodeUnfinished(messages) ? { type: 'call-model' } : undefined;
}

/**
 * Assistant messages (model calls) since the episode began (injected user messages do
 * not end it). An on-demand compaction swapped in at the episode's end is no step of it.
 */
export function stepsInEpisode(messages: readonly Message[]): number {
  let steps = 0;
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index] as Message;
    if (isEpisodeStart(message)) break;
    if (message.role === 'assistant' && !holdsOnDemandCompaction(message)) steps += 1;
  }
  return steps;
}

/** The current episode's last answer, if it has one (an on-demand compaction swapped in after it is not one). */
export function lastAssistant(messages: readonly Message[]): AssistantMessage | undefined {
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index];
    if (message && isEpisodeStart(message)) return undefined;
    if (message?.role === 'assistant' && !holdsOnDemandCompaction(message)) return message;
  }
  return undefined;
}
