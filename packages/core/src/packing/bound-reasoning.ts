/**
 * Packing for models that bind reasoning to its prefix (`PackOptions.boundReasoning`;
 * Anthropic preserved thinking, docs/providers.md "Bound thinking"). A thinking block is
 * valid only while everything sent before it is unchanged, and a tool-use turn must go
 * on with the thinking of its last step. So while a step's reasoning waits for its tool
 * results, nothing already sent may change: the packer plans its evictions for the calls
 * where no such reasoning is under way (a user turn, or a step that did not think), with
 * room for the episode to grow, and only when the budget leaves no choice does a
 * continuation change its prefix; the stats then say so (`boundReasoningCut`).
 */
import type { Message } from '../message/message.js';
import { type EpisodeContext, packEpisode, type PackedEpisode, type Reductions } from './pack-episode.js';
import type { PackState } from './pack-types.js';

/**
 * True when the next call continues a step whose reasoning is bound to the previous
 * call's messages: the transcript ends with that step's tool results (or the step itself),
 * and the step, at or after `start`, carries reasoning.
 */
export function continuesBoundStep(messages: readonly Message[], start = 0): boolean {
  for (let index = messages.length - 1; index >= start; index -= 1) {
    const message = messages[index] as Message;
    if (message.role === 'tool' || message.role === 'summary') continue;
    return message.role === 'assistant' && message.content.some((part) => part.type === 'reasoning');
  }
  return false;
}

/**
 * The mark a call with no bound reasoning under way evicts above: halfway between the
 * low-water mark and the budget, so an episode has that much room to grow before a
 * continuation would have to change what its reasoning is bound to.
 */
export function plannedMark(budget: number, lowWater: number): number {
  return Math.floor((budget * (1 + lowWater)) / 2);
}

/**
 * True when `messageKeys` (this pack's) do not start with everything the previous call
 * sent, system and tools included: the reasoning of the step that call produced is bound
 * to a prefix this call changed.
 */
export function changedBoundPrefix(previous: PackState | undefined, prefixKey: string, messageKeys: readonly string[]): boolean {
  const sent = previous?.previous;
  if (!sent) return false;
  if (sent.prefixKey !== prefixKey || sent.messageKeys.length > messageKeys.length) return true;
  return sent.messageKeys.some((key, index) => messageKeys[index] !== key);
}

/**
 * The current episode with the latest step's results (those after its assistant message,
 * never sent yet) at the past-episode cap, recorded in `reductions` so later calls send
 * them in the same form: room made without changing what the step's reasoning is bound to.
 */
export function shrinkNewestResults(context: EpisodeContext, range: { start: number; end: number }, reductions: Reductions): PackedEpisode {
  const { messages } = context;
  let latest = range.start;
  for (let index = range.end - 1; index >= range.start; index -= 1) {
    if (messages[index]?.role === 'assistant') {
      latest = index;
      break;
    }
  }
  const newest: number[] = [];
  for (let index = Math.max(latest + 1, reductions.resultsShrunkBefore); index < range.end; index += 1)
    if (messages[index]?.role === 'tool') newest.push(index);
  reductions.resultsShrunkAt = [...new Set([...reductions.resultsShrunkAt, ...newest])].sort((a, b) => a - b);
  return packEpisode(context, range.start, range.end, reductions);
}
