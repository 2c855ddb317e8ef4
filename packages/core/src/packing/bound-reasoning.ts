/**
 * Packing for models that bind reasoning to its prefix (`PackOptions.boundReasoning`;
 * Anthropic preserved thinking, docs/providers.md "Bound thinking"). A thinking block is
 * valid only while everything sent before it is unchanged, and a tool-use turn must go
 * on with the thinking of its last step. So while a step's reasoning waits for its tool
 * results, nothing already sent may change: the packer plans its evictions for the calls
 * where no such reasoning is under way (a user turn, or a step that did not think), once
 * what is left under the budget is less than the room the episode is foreseen to need
 * (bound-room.ts), down to the low-water mark or below, so the episode starts with that
 * room; a
 * step's own new results (sent after its reasoning, never bound) give way first, to the
 * past-episode cap past the low-water mark and to the floor cap past {@link floorMark} or
 * wherever nothing else fits, each readable through the reader of cut results. How much
 * room the episode is planned to need, beyond those marks, is foreseen from the session's
 * own episodes (bound-room.ts). Only when even appending that way is over the budget does
 * a continuation change its prefix: the cut is forced there, and the stats say so and why
 * (`boundReasoningCut`, `boundAppendTokens`, `boundCutCause`).
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
 * The mark past which a bound step's new results are sent at the floor cap: halfway
 * between the low-water mark and the budget. Past it the episode is close to the point
 * where a step could no longer go on without changing what its reasoning is bound to,
 * and what the step thinks cannot be shortened; what it reads can, and stays readable.
 */
export function floorMark(budget: number, lowWater: number): number {
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

/** How far the newest results of a bound step are shortened: to the past-episode cap, or to the floor cap. */
export type NewestResultsCap = 'past' | 'floor';

/**
 * The current episode with the latest step's results (those after its assistant message,
 * never sent yet) at the past-episode cap or the floor cap, recorded in `reductions` so later
 * calls send them in the same form: room made without changing what the step's reasoning
 * is bound to. The marker of each shortened result says how to read the rest.
 */
export function shrinkNewestResults(
  context: EpisodeContext,
  range: { start: number; end: number },
  reductions: Reductions,
  cap: NewestResultsCap = 'past',
): PackedEpisode {
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
  const add = (indexes: readonly number[]) => [...new Set([...indexes, ...newest])].sort((a, b) => a - b);
  if (cap === 'floor') reductions.resultsFloorAt = add(reductions.resultsFloorAt);
  else reductions.resultsShrunkAt = add(reductions.resultsShrunkAt);
  return packEpisode(context, range.start, range.end, reductions);
}

/**
 * The newest results of a bound step at the largest cap for which `fits` holds: the
 * past-episode cap, else the floor cap. When neither fits they stay at the past-episode
 * cap (the budget forces a change to what was sent, and the step loses its reasoning
 * anyway); `floorTokens` is then what the episode takes with them at the floor cap.
 */
export function fitNewestResults(
  context: EpisodeContext,
  range: { start: number; end: number },
  reductions: Reductions,
  fits: (packed: PackedEpisode) => boolean,
): { packed: PackedEpisode; fits: boolean; floorTokens: number } {
  const past = shrinkNewestResults(context, range, reductions, 'past');
  if (fits(past)) return { packed: past, fits: true, floorTokens: past.tokens };
  const floorBefore = reductions.resultsFloorAt;
  const floor = shrinkNewestResults(context, range, reductions, 'floor');
  if (fits(floor)) return { packed: floor, fits: true, floorTokens: floor.tokens };
  reductions.resultsFloorAt = floorBefore;
  return { packed: past, fits: false, floorTokens: floor.tokens };
}
