/**
 * Which past episodes a pack sends. When the context is over budget, the first
 * episodes stay as a stable head and episodes are evicted from the middle, after
 * the head, down to the low-water mark: the prefix up to the end of the head (the
 * system prompt, the tools and the head) is the same before and after the eviction,
 * so the provider's prompt cache keeps it. The summary of the evicted middle sits
 * right after the head, where the evicted episodes were.
 *
 * Episodes are counted lazily, newest first: a pack that evicts never counts the
 * episodes it evicts (a session packed cold counts about a budget's worth).
 */
import type { PackState } from './pack-types.js';

/**
 * Past episodes `[headStart, headEnd)` are the head and `[recentStart, pastCount)`
 * the recent ones; `[0, headStart)` and `[headEnd, recentStart)` are evicted.
 */
export interface Layout {
  headStart: number;
  headEnd: number;
  recentStart: number;
}

/** What the fitting needs to know, counted on demand. */
export interface FitInput {
  pastCount: number;
  /** Tokens of past episode `index` in its packed form (cached by the caller). */
  episodeTokens(index: number): number;
  /** Tokens of the summary sent with the middle `[headEnd, recentStart)` evicted (0 for none). */
  summaryTokens(headEnd: number, recentStart: number): number;
  /** System, tools and reply priming plus the current episode. */
  fixed: number;
  budget: number;
  /** Low-water mark: an eviction cuts the context down to this. */
  target: number;
  /** Most tokens a new head may take. */
  headBudget: number;
}

/** The layout a pack settles on and its past-episode tokens. */
export interface Fitted {
  layout: Layout;
  headTokens: number;
  recentTokens: number;
  /** The summary had to be left out: it does not fit next to the current episode. */
  summaryDropped: boolean;
}

/** Episodes not sent. */
export function evictedCount(layout: Layout): number {
  return layout.headStart + (layout.recentStart - layout.headEnd);
}

/** The layout a previous state describes, clamped to this transcript. */
export function layoutFromState(state: PackState | undefined, pastCount: number): Layout {
  const clamp = (value: unknown, low: number) =>
    Math.min(Math.max(typeof value === 'number' && Number.isInteger(value) ? value : 0, low), pastCount);
  const evicted = clamp(state?.evictedEpisodes, 0);
  // A state without a head (written before heads existed) evicted from the front.
  if (!state?.head) return { headStart: evicted, headEnd: evicted, recentStart: evicted };
  const headStart = clamp(state.head.start, 0);
  const headEnd = clamp(state.head.end, headStart);
  return { headStart, headEnd, recentStart: clamp(headEnd + evicted - headStart, headEnd) };
}

/** The state fields that record a layout. */
export function layoutState(layout: Layout): Pick<PackState, 'evictedEpisodes' | 'head'> {
  return { evictedEpisodes: evictedCount(layout), head: { start: layout.headStart, end: layout.headEnd } };
}

function sum(input: FitInput, from: number, to: number): number {
  let total = 0;
  for (let index = from; index < to; index += 1) total += input.episodeTokens(index);
  return total;
}

/**
 * Sums episodes from the newest down to `floor`, stopping before the sum would pass
 * `room(index)` (the room left when `index` is the oldest kept episode). Returns
 * the oldest episode kept and the sum of those kept.
 */
function keepNewest(input: FitInput, floor: number, room: (index: number) => number): { start: number; tokens: number } {
  let tokens = 0;
  let start = input.pastCount;
  for (let index = input.pastCount - 1; index >= floor; index -= 1) {
    const next = tokens + input.episodeTokens(index);
    if (next > room(index)) break;
    tokens = next;
    start = index;
  }
  return { start, tokens };
}

/**
 * Fits the past episodes into the budget, starting from the previous layout: keeps
 * it when everything fits; otherwise evicts from the middle down to the low-water
 * mark, choosing a head first when there is none and nothing is evicted after it.
 * When even then the context is over budget, the summary goes, then the head.
 */
export function fitLayout(previous: Layout, input: FitInput): Fitted {
  let { headStart, headEnd, recentStart } = previous;
  let headTokens = sum(input, headStart, headEnd);
  const outside = () => input.fixed + headTokens;
  const summaryAt = (start: number) => input.summaryTokens(headEnd, start);
  const room = input.budget - outside() - summaryAt(recentStart);
  const fits = keepNewest(input, recentStart, () => room);
  if (fits.start === recentStart && room >= 0) {
    return { layout: previous, headTokens, recentTokens: fits.tokens, summaryDropped: false };
  }
  if (headStart === headEnd && headEnd === recentStart) {
    // The head leaves the current episode room to grow: at most half of what it does not take.
    const headBudget = Math.min(input.headBudget, Math.floor((input.budget - input.fixed) / 2));
    headStart = recentStart;
    while (headEnd < input.pastCount && headTokens + input.episodeTokens(headEnd) <= headBudget) {
      headTokens += input.episodeTokens(headEnd);
      headEnd += 1;
    }
    recentStart = headEnd;
  }
  const kept = keepNewest(input, recentStart, (index) => input.target - outside() - summaryAt(index));
  recentStart = kept.start;
  let summaryDropped = false;
  if (outside() + summaryAt(recentStart) + kept.tokens > input.budget) {
    // Nothing recent is left: a summary that does not fit is worth less than the current episode.
    summaryDropped = summaryAt(recentStart) > 0;
    if (outside() + kept.tokens > input.budget && headEnd > headStart) {
      headStart = input.pastCount;
      headEnd = input.pastCount;
      recentStart = input.pastCount;
      headTokens = 0;
    }
  }
  return { layout: { headStart, headEnd, recentStart }, headTokens, recentTokens: kept.tokens, summaryDropped };
}
