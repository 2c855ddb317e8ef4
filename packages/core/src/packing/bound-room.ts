/**
 * The room a bound episode is planned to need (`PackOptions.boundReasoning`, see
 * bound-reasoning.ts). Inside a tool-use turn nothing already sent may change, and what
 * a step appends has a least form: its assistant message as it came (reasoning and calls
 * cannot be shortened) and each of its results at the floor cap. An episode whose least
 * form fits in the budget never has to lose its thinking, provided it finds that room:
 * the history its user turn keeps and the results sent whole before the last steps must
 * leave it.
 *
 * The plan foresees that room from this session's own episodes: twice the largest least
 * form of the recent ones, and, as the episode runs, as much again as it has taken so
 * far (an episode that ran this long may run as long again), never less than one more
 * step the size of the largest seen. A user turn keeps history only down to what leaves
 * that room, never below a minimum share of the budget; a bound step's new results go at
 * a smaller cap wherever a larger one would eat into it (they stay readable through the
 * reader of cut results). An episode larger than the foresight can still outgrow its
 * room: the pack then says why (`PackStats.boundCutCause`, {@link cutCause}).
 */
import type { Message } from '../message/message.js';
import type { Settings } from './pack-settings.js';
import type { BoundCutCause } from './pack-types.js';
import { FRAMING } from '../tokens/token-counter.js';

/**
 * Share of the budget a user turn keeps for history however large the foreseen episode:
 * the foresight makes room by evicting, but never down to nothing.
 */
export const MIN_HISTORY_SHARE = 0.25;

/** How many of the latest past episodes the room is foreseen from. */
const RECENT_EPISODES = 8;

/**
 * The foreseen episode against the largest recent one: episodes of one session vary, and
 * the provider's token counts drift from the local ones as the calibration learns them.
 */
const FORESIGHT_MARGIN = 2;

/** An episode's least form: all of it, its largest step (an assistant message and its results), and its steps. */
export interface LeastForm {
  tokens: number;
  largestStep: number;
  steps: number;
}

/**
 * The least form of messages `start..end`: results at the floor cap, everything else as it
 * is. A result's floor form is bounded by the cap and its framing rather than made: the
 * packed forms keep one cap per message, and past episodes' results are packed at another.
 */
export function leastForm(settings: Settings, start: number, end: number): LeastForm {
  const { messages, counter, floorCap } = settings.context;
  const floorTokens = counter.calibration.apply(floorCap + FRAMING.message);
  const form: LeastForm = { tokens: 0, largestStep: 0, steps: 0 };
  let step = 0;
  for (let index = start; index < end; index += 1) {
    const message = messages[index] as Message;
    if (message.role === 'summary') continue;
    const size = message.role === 'tool' ? Math.min(counter.countMessage(message), floorTokens) : counter.countMessage(message);
    form.tokens += size;
    if (message.role === 'assistant') {
      step = size;
      form.steps += 1;
    } else if (message.role === 'tool') step += size;
    else continue;
    form.largestStep = Math.max(form.largestStep, step);
  }
  return form;
}

/** What the plan keeps free for the episode under way. */
export interface EpisodeRoom {
  /** The largest least form among the recent past episodes (0 without any). */
  recent: number;
  /** The episode's own least form so far. */
  sofar: LeastForm;
  /** The largest step of the recent episodes and of this one: the least the next step may take. */
  nextStep: number;
}

/** The room the episode `starts[last]..end` is foreseen to need, from the recent past episodes. */
export function episodeRoom(settings: Settings, starts: readonly number[], end: number): EpisodeRoom {
  const sofar = leastForm(settings, starts[starts.length - 1] as number, end);
  let recent = 0;
  let nextStep = sofar.largestStep;
  const pastCount = starts.length - 1;
  for (let index = Math.max(0, pastCount - RECENT_EPISODES); index < pastCount; index += 1) {
    const past = leastForm(settings, starts[index] as number, starts[index + 1] as number);
    recent = Math.max(recent, past.tokens);
    nextStep = Math.max(nextStep, past.largestStep);
  }
  return { recent, sofar, nextStep };
}

/**
 * Tokens to keep free after this call for the rest of the episode: what the foreseen
 * episode has left beyond its least form so far, as much again as that, and one more
 * step (once it has steps).
 */
export function roomAhead(room: EpisodeRoom): number {
  const { recent, sofar, nextStep } = room;
  return Math.max(recent * FORESIGHT_MARGIN - sofar.tokens, sofar.tokens, sofar.steps > 0 ? nextStep : 0);
}

/**
 * The total a call with no bound step under way (a user turn) brings the context down to:
 * the low-water mark, or lower where the room ahead needs it, never below the minimum
 * share of the budget.
 */
export function turnTarget(settings: Settings, room: EpisodeRoom): number {
  const target = Math.floor(settings.budget * settings.lowWater);
  const least = Math.floor(settings.budget * Math.min(MIN_HISTORY_SHARE, settings.lowWater));
  return Math.max(least, Math.min(target, settings.budget - roomAhead(room)));
}

/**
 * The total above which a call with no bound step under way (a user turn) evicts: where
 * what is left under the budget is less than the room ahead. Below it nothing is evicted,
 * so the cached prefix stays as it is (an eviction rewrites the cache from there and, on a
 * bound model, leaves out every later thinking block); above it the turn evicts down to
 * {@link turnTarget}, the hysteresis the low-water mark gives every other model.
 */
export function turnTrigger(settings: Settings, room: EpisodeRoom): number {
  return Math.max(turnTarget(settings, room), settings.budget - roomAhead(room));
}

/**
 * Why a bound step could not go on unchanged, from the episode's least form so far: over
 * the budget alone, over it beside the `history` the user turn kept, or neither (the
 * results sent earlier in the episode took the room).
 */
export function cutCause(budget: number, fixed: number, history: number, room: EpisodeRoom): BoundCutCause {
  if (fixed + room.sofar.tokens > budget) return 'episode';
  return fixed + history + room.sofar.tokens > budget ? 'history' : 'results';
}
