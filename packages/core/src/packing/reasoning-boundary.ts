/**
 * The boundary drop priced against the cache miss it causes. When a user message opens
 * a new episode, the previous episode's reasoning is stale: the model must not read it.
 * Dropping its bytes changes the prompt from the first of them on, so the provider's
 * cached prefix misses from there once. Where the provider itself keeps that reasoning
 * from the model (it strips or ignores reasoning of earlier user turns, profile data),
 * the packer may leave the bytes in place instead, and drop them at the next eviction,
 * which breaks the prefix anyway, or when the cache has gone cold. Where the model would
 * read them, they always go at the boundary: no price buys stale reasoning.
 */
import type { Message } from '../message/message.js';
import { packPast, type Settings } from './pack-settings.js';
import type { PackOptions, PackState, ReasoningBoundary } from './pack-types.js';

export type { ReasoningBoundary } from './pack-types.js';

/** The figures one boundary decision weighs, in tokens and calls. */
export interface BoundaryCost {
  /** Reasoning tokens of the episode that just became past. */
  reasoningTokens: number;
  /** Tokens from its first reasoning part to the end of the prompt: what a drop makes the cache miss. */
  tokensAfter: number;
  /** Calls expected before the drop happens anyway (the next eviction or the end of the session). */
  expectedCalls: number;
}

/**
 * True when the packer should keep the bytes of a newly past episode's reasoning: the
 * provider hides them from the model, and keeping them (billed at the cache-read price
 * on each expected call, nothing when the provider strips them before billing) costs
 * less than the one miss a drop causes (the tokens after them written again instead of read).
 */
export function defersBoundaryDrop(boundary: ReasoningBoundary | undefined, cost: BoundaryCost): boolean {
  if (!boundary?.hiddenByProvider || cost.reasoningTokens === 0) return false;
  const { prices } = boundary;
  const keep = boundary.billed ? cost.reasoningTokens * prices.cacheRead * Math.max(1, cost.expectedCalls) : 0;
  const miss = cost.tokensAfter * (Math.max(prices.cacheWrite, prices.input) - prices.cacheRead);
  return keep < miss;
}

/** Past episodes whose reasoning bytes are kept: sorted, disjoint `[from, to)` ranges of episode indexes. */
export type KeptRanges = readonly (readonly [number, number])[];

/** The kept ranges of a previous state, clamped to `pastCount` episodes. */
export function keptFromState(state: PackState | undefined, pastCount: number): [number, number][] {
  const out: [number, number][] = [];
  for (const range of state?.keptReasoning ?? []) {
    const from = Math.min(Math.max(0, range[0] ?? 0), pastCount);
    const to = Math.min(Math.max(from, range[1] ?? 0), pastCount);
    if (to > from) out.push([from, to]);
  }
  return out;
}

/** True when episode `index` lies in one of `ranges`. */
export function isKept(ranges: KeptRanges, index: number): boolean {
  return ranges.some(([from, to]) => index >= from && index < to);
}

/** `ranges` with `[from, to)` added (merged with a range it touches). */
export function withKept(ranges: KeptRanges, from: number, to: number): [number, number][] {
  if (to <= from) return ranges.map(([a, b]) => [a, b]);
  const out: [number, number][] = [];
  let next: [number, number] = [from, to];
  for (const [a, b] of ranges) {
    if (b < next[0] || a > next[1]) out.push([a, b]);
    else next = [Math.min(a, next[0]), Math.max(b, next[1])];
  }
  out.push(next);
  return out.sort((x, y) => x[0] - y[0]);
}

/** `ranges` cut down to `[from, to)`: at an eviction, only the head keeps its bytes (they stay cached). */
export function keptWithin(ranges: KeptRanges, from: number, to: number): [number, number][] {
  const out: [number, number][] = [];
  for (const [a, b] of ranges) {
    const low = Math.max(a, from);
    const high = Math.min(b, to);
    if (high > low) out.push([low, high]);
  }
  return out;
}

/** What {@link boundaryRanges} needs of the pack in progress. */
export interface BoundaryInput {
  options: PackOptions;
  settings: Settings;
  previous: PackState | undefined;
  /** Start index of each episode; the last is the current one's. */
  starts: readonly number[];
  /** Tokens of the current episode as packed. */
  current: number;
  /** The cache lifetime lapsed: kept bytes go now, at no cache cost. */
  cold: boolean;
}

/**
 * The past episodes whose reasoning bytes this pack keeps: those the previous pack
 * kept, and the episodes that became past since, when {@link defersBoundaryDrop} says
 * keeping them is cheaper than the miss. None when the cache is cold.
 */
export function boundaryRanges(input: BoundaryInput): [number, number][] {
  const { options, settings, previous, starts } = input;
  const pastCount = starts.length - 1;
  const retention = settings.context.retention;
  if (input.cold || !options.reasoningBoundary || retention === 'all' || retention === 'none') return [];
  let kept = keptFromState(previous, pastCount);
  const from = previous?.current ? starts.indexOf(previous.current.start) : -1;
  if (from === -1 || from >= pastCount) return kept;
  let reasoningTokens = 0;
  let tokensAfter = input.current;
  for (let index = from; index < pastCount; index += 1) {
    const packed = packPast(settings, starts[index] as number, starts[index + 1] as number, true);
    reasoningTokens += packed.reasoningKeptTokens;
    tokensAfter += packed.tokens;
  }
  const expectedCalls = callsSoFar(settings.context.messages);
  if (defersBoundaryDrop(options.reasoningBoundary, { reasoningTokens, tokensAfter, expectedCalls })) {
    kept = withKept(kept, from, pastCount);
  }
  return kept;
}

/** Model calls so far: a session that has run n calls is expected to run about as many more. */
function callsSoFar(messages: readonly Message[]): number {
  let calls = 0;
  for (const message of messages) if (message.role === 'assistant') calls += 1;
  return calls;
}
