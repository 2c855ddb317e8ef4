/**
 * The context packer: builds the input of every model call from the transcript.
 * See docs/architecture.md ("Packer") for the guarantees; each is covered by tests.
 *
 * Order of measures when the context does not fit:
 * 1. evict whole past episodes down to the low-water mark (hysteresis: the
 *    following calls then append without evicting again), from the middle: the
 *    first episodes stay as a head, so the cached prefix up to its end survives
 *    (see `pack-layout.ts`); then the summary, then the head;
 * 2. only when no past episode is left, shorten the current episode: drop its
 *    reasoning oldest first (never the latest assistant message's), then give its
 *    tool results the past-episode cap, then leave out its steps after a head of
 *    its first steps (so each later cut keeps the cached prefix up to the head's end);
 * 3. if even the minimum does not fit, throw {@link ContextOverflowError}.
 */
import { type PackedEpisode, packEpisode, type Reductions } from './pack-episode.js';
import { episodeStarts } from '../message/episodes.js';
import { ContextOverflowError } from '../errors/input-errors.js';
import { fingerprint, hashText } from '../support/fingerprint.js';
import type { Message, ModelMessage, ToolSpec } from '../message/message.js';
import { evictedCount, type Layout, layoutState } from './pack-layout.js';
import { buildStats, reuseTokens } from './pack-stats.js';
import { summaryMessage, type SummaryRequest } from './pack-summary.js';
import type { BoundCutCause, PackOptions, PackResult, PackState } from './pack-types.js';
import { packPast, resolveSettings, type Settings } from './pack-settings.js';
import { defaultTokenCounter } from './default-token-counter.js';
import { foldSystem } from './message-fits.js';
import { boundsOf, type TokenCounter } from '../tokens/token-counter.js';
import { packByBounds } from './pack-bounds.js';
import type { KeptRanges } from './reasoning-boundary.js';
import { changedBoundPrefix, floorMark, shrinkNewestResults } from './bound-reasoning.js';
import { type Measured, measure, planHistory } from './pack-plan.js';
import { cutCause, roomAhead } from './bound-room.js';

/** The assistant message indexes of an episode, in order. */
function assistantIndexes(messages: readonly Message[], start: number, end: number): number[] {
  const indexes: number[] = [];
  for (let index = start; index < end; index += 1) if (messages[index]?.role === 'assistant') indexes.push(index);
  return indexes;
}

/**
 * Advances the current episode's reduction cursors one step at a time until the
 * total is at or below `target`, or nothing more can be cut. Returns the last pack.
 * Before the first steps are left out, the episode's first steps that fit in the head's
 * share become its head (their reasoning and results are already cut by then): later
 * cuts leave out steps after it, so the cached prefix up to its end survives each cut.
 * Only when the head and the latest step alone are over `target` does the head go too.
 */
function reduceCurrent(
  settings: Settings,
  range: { start: number; end: number },
  reductions: Reductions,
  outside: number,
  target: number,
  boundStep: boolean,
): PackedEpisode {
  const { messages } = settings.context;
  const assistants = assistantIndexes(messages, range.start, range.end);
  const latest = assistants[assistants.length - 1] ?? range.start;
  let packed = packEpisode(settings.context, range.start, range.end, reductions);
  if (boundStep) {
    // The latest step's reasoning is bound to everything sent before it: its own new
    // results are shortened first (they were never sent), and if that is enough, nothing
    // sent changes and the step keeps its reasoning (bound-reasoning.ts).
    packed = shrinkNewestResults(settings.context, range, reductions);
    if (outside + packed.tokens <= settings.budget) return packed;
  }
  const next = (from: number, limit: number) => Math.min(assistants.find((index) => index > from) ?? limit, limit);
  const over = () => outside + packed.tokens > target;
  const advance = (cursor: Exclude<keyof Reductions, 'resultsShrunkAt' | 'resultsFloorAt'>, limit: number) => {
    while (over() && reductions[cursor] < limit) {
      reductions[cursor] = next(reductions[cursor], limit);
      packed = packEpisode(settings.context, range.start, range.end, reductions);
    }
  };
  advance('reasoningDroppedBefore', latest);
  advance('resultsShrunkBefore', latest);
  if (over() && reductions.stepsDroppedBefore === range.start) {
    const headEnd = currentHeadEnd(settings, range.start, assistants, reductions, Math.floor((target - outside) / 2));
    reductions.stepsHeadEnd = headEnd;
    reductions.stepsDroppedBefore = headEnd;
  }
  advance('stepsDroppedBefore', latest);
  if (over() && reductions.stepsHeadEnd > range.start) {
    // The head goes: steps are left out oldest first again, as few as the target needs.
    reductions.stepsHeadEnd = range.start;
    reductions.stepsDroppedBefore = range.start;
    packed = packEpisode(settings.context, range.start, range.end, reductions);
    advance('stepsDroppedBefore', latest);
  }
  advance('resultsShrunkBefore', range.end);
  return packed;
}

/**
 * The end of the current episode's head: the last step boundary (an assistant message
 * before the latest one) such that the episode up to it takes at most the head's share
 * of the budget and at most `room`. The episode's start when no step fits or heads are off.
 */
function currentHeadEnd(
  settings: Settings,
  start: number,
  assistants: readonly number[],
  reductions: Reductions,
  room: number,
): number {
  const limit = Math.min(Math.floor(settings.budget * settings.headShare), room);
  // No step is left out yet (the caller checked), so `reductions` packs the whole prefix.
  const tokensUpTo = (end: number) => packEpisode(settings.context, start, end, reductions).tokens;
  // Episode prefixes only grow with their end: the last boundary that fits is found by bisection.
  let low = 0;
  let high = assistants.length - 2;
  let best = start;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const end = assistants[middle + 1] as number;
    if (tokensUpTo(end) <= limit) {
      best = end;
      low = middle + 1;
    } else {
      high = middle - 1;
    }
  }
  return best;
}

function describeMinimum(fixed: number, current: PackedEpisode): string {
  return (
    `System, tools and reply priming take ${fixed} tokens and the current episode at its minimum ` +
    `(user message and latest step, results shortened) takes ${current.tokens}. ` +
    'Raise the budget, shorten the system prompt or tools, or lower the tool-result caps.'
  );
}

/**
 * With bound reasoning under way, the latest step's new results are shortened when first
 * sent once the pack is past the low-water mark, or wherever they would take the room the
 * rest of the episode is foreseen to need (bound-room.ts), so the steps after it find room
 * without changing what their reasoning is bound to. Close to the budget, or where the
 * room ahead needs it, they go at the floor cap (read back through the reader), and
 * wherever that is what lets the step go on with its reasoning.
 */
function shortenNewestResults(measured: Measured, outside: number, target: number): void {
  const { settings, range, reductions } = measured;
  const ahead = measured.room ? roomAhead(measured.room) : 0;
  const over = (mark: number) => outside + measured.current.tokens > Math.min(mark, settings.budget - ahead);
  if (!over(target)) return;
  measured.current = shrinkNewestResults(settings.context, range, reductions);
  if (!over(floorMark(settings.budget, settings.lowWater))) return;
  measured.current = shrinkNewestResults(settings.context, range, reductions, 'floor');
  const tokens = outside + measured.current.tokens;
  if (tokens > settings.budget) measured.append ??= { tokens, history: outside - measured.fixed.total };
}

/**
 * Packs the transcript into the input of the next model call. Pure apart from
 * caches: the same messages, settings and state give the same output.
 */
export function packContext(options: PackOptions): PackResult {
  const counter = options.tokenizer ?? defaultTokenCounter();
  // Until the built-in tokenizer is loaded, a pack that fits by the byte bound is made without it.
  const bounds = boundsOf(counter);
  const byBounds = bounds && packByBounds(options, { exact: counter, bounds }, (given) => packWith(given, given.tokenizer ?? counter));
  return byBounds ?? packWith(options, counter);
}

function packWith(options: PackOptions, counter: TokenCounter): PackResult {
  const measured = measure(options, counter);
  const history = planHistory(options, measured, counter);
  const { settings, range, reductions, fixed, boundStep } = measured;
  const outside = fixed.total + history.tokens;
  if (boundStep) shortenNewestResults(measured, outside, history.target);
  // An eviction that left no past episode is also when the current episode is cut
  // down to the low-water mark, if it is above it: one break of the cached prefix
  // instead of two in a row (the next step would cut it anyway).
  if (outside + measured.current.tokens > (history.evictedAll ? history.target : settings.budget)) {
    const current = reduceCurrent(settings, range, reductions, outside, history.target, boundStep);
    measured.current = current;
    if (outside + current.tokens > settings.budget)
      throw new ContextOverflowError(outside + current.tokens, settings.budget, describeMinimum(fixed.total, current));
  }
  const { layout, past, summary } = history;
  const pastCount = measured.starts.length - 1;
  return assemble({
    options, settings, counter, previous: measured.previous, folded: measured.folded, layout, reductions,
    current: measured.current,
    currentStart: range.start,
    head: episodesIn(past.get, layout.headStart, layout.headEnd),
    recent: episodesIn(past.get, layout.recentStart, pastCount),
    summary: summary && { ...summary, from: layout.headEnd, tokens: history.summaryTokens },
    request: history.summaries.request(layout.headEnd, layout.recentStart),
    fixed,
    evictedBefore: evictedCount(history.before),
    kept: history.kept,
    cold: measured.cold,
    boundStep,
    boundCut: measured.append && measured.room && {
      tokens: measured.append.tokens,
      cause: cutCause(settings.budget, fixed.total, measured.append.history, measured.room),
    },
  });
}

function episodesIn(get: (index: number) => PackedEpisode, from: number, to: number): PackedEpisode[] {
  const out: PackedEpisode[] = [];
  for (let index = from; index < to; index += 1) out.push(get(index));
  return out;
}

interface Assembly {
  options: PackOptions;
  settings: Settings;
  counter: TokenCounter;
  previous: PackState | undefined;
  folded: { system: string | undefined };
  layout: Layout;
  head: PackedEpisode[];
  recent: PackedEpisode[];
  summary: { from: number; to: number; text: string; tokens: number } | undefined;
  current: PackedEpisode;
  reductions: Reductions;
  currentStart: number;
  request: SummaryRequest | undefined;
  fixed: { system: number; tools: number; total: number };
  evictedBefore: number;
  kept: KeptRanges;
  cold: boolean;
  /** The call continues a step whose reasoning is bound to what the previous call sent. */
  boundStep: boolean;
  /** What appending would have taken, where that is over the budget, and why (see `Measured`). */
  boundCut: { tokens: number; cause: BoundCutCause } | undefined;
}

/** Puts the packed messages in order and derives the stats and the next state. */
function assemble(input: Assembly): PackResult {
  const { layout, head, recent, summary, current, counter, previous } = input;
  const packedMessages: ModelMessage[] = [];
  for (const episode of head) packedMessages.push(...episode.messages);
  const headEnd = packedMessages.length - 1;
  if (summary) packedMessages.push(summaryMessage(summary.text));
  for (const episode of recent) packedMessages.push(...episode.messages);
  const historyEnd = packedMessages.length - 1;
  packedMessages.push(...current.messages);
  const sumTokens = (episodes: readonly PackedEpisode[]) => episodes.reduce((total, episode) => total + episode.tokens, 0);
  const pastTokens = sumTokens(head) + sumTokens(recent);
  const total = input.fixed.total + (summary?.tokens ?? 0) + pastTokens + current.tokens;
  const prefixKey = prefixKeyOf(input.folded.system ?? '', input.options.tools ? toolsKey(input.options.tools) : '');
  const messageKeys = packedMessages.map((message) => fingerprint(message));
  const summarized = summary ? { from: summary.from, to: summary.to } : undefined;
  const evicted = evictedCount(layout);
  const stats = buildStats({
    budget: input.settings.budget,
    counter,
    fixed: input.fixed,
    summaryTokens: summary?.tokens ?? 0,
    pastTokens,
    past: [...head, ...recent],
    current,
    evicted,
    headEpisodes: layout.headEnd - layout.headStart,
    evictedNow: evicted > input.evictedBefore,
    summaryChangedNow: JSON.stringify(summarized) !== JSON.stringify(previous?.summarized),
    breakpoints: [headEnd, historyEnd],
    packedMessages,
    reuse: reuseTokens(previous, prefixKey, messageKeys, input.fixed.system + input.fixed.tools, packedMessages, counter),
    shortened: reductionsApplied(input.reductions, input.currentStart),
    total,
    coldCache: input.cold,
  });
  if (input.boundStep && changedBoundPrefix(previous, prefixKey, messageKeys)) {
    stats.boundReasoningCut = true;
    if (input.boundCut) {
      stats.boundAppendTokens = input.boundCut.tokens;
      stats.boundCutCause = input.boundCut.cause;
    }
  }
  const state: PackState = {
    version: 1,
    ...layoutState(layout),
    ...(summarized ? { summarized } : {}),
    current: currentState(input.currentStart, input.reductions),
    previous: { prefixKey, messageKeys },
    ...(input.kept.length > 0 ? { keptReasoning: input.kept.map(([from, to]): [number, number] => [from, to]) } : {}),
    ...(input.options.now === undefined ? {} : { packedAt: input.options.now }),
  };
  const result: PackResult = { messages: packedMessages, system: input.folded.system, stats, state };
  if (input.request) result.summaryRequest = input.request;
  return result;
}

const toolsKeys = new WeakMap<readonly ToolSpec[], string>();

/** The latest prefix key: a session packs with the same system prompt and tools call after call. */
let lastPrefix: { system: string; tools: string; key: string } | undefined;

/** The hash of the system prompt and tools, kept for the next pack when they stay the same. */
function prefixKeyOf(system: string, tools: string): string {
  if (lastPrefix?.system !== system || lastPrefix.tools !== tools) {
    lastPrefix = { system, tools, key: hashText(`${system}\u0000${tools}`) };
  }
  return lastPrefix.key;
}

function toolsKey(tools: readonly ToolSpec[]): string {
  let key = toolsKeys.get(tools);
  if (key === undefined) {
    key = hashText(JSON.stringify(tools));
    toolsKeys.set(tools, key);
  }
  return key;
}

/**
 * The messages a summarizer gets for a {@link SummaryRequest}: the requested
 * episodes in their packed past-episode form (no past reasoning, results capped),
 * oldest first. Pass the options the pack that made the request got.
 */
export function summaryInput(options: PackOptions, request: SummaryRequest): ModelMessage[] {
  const counter = options.tokenizer ?? defaultTokenCounter();
  const settings = resolveSettings(options, counter);
  const starts = episodeStarts(options.messages, foldSystem(options.messages, options.system).start);
  const out: ModelMessage[] = [];
  const to = Math.min(request.episodes.to, starts.length - 1);
  for (let episode = request.episodes.from; episode < to; episode += 1) {
    out.push(...packPast(settings, starts[episode] as number, starts[episode + 1] as number).messages);
  }
  return out;
}

/** The current episode's state; a head is recorded only where there is one, so states without stay as they were. */
function currentState(start: number, reductions: Reductions): NonNullable<PackState['current']> {
  const { reasoningDroppedBefore, resultsShrunkBefore, resultsShrunkAt, resultsFloorAt, stepsDroppedBefore, stepsHeadEnd } = reductions;
  const state = { start, reasoningDroppedBefore, resultsShrunkBefore, stepsDroppedBefore };
  const withHead = stepsHeadEnd > start ? { ...state, stepsHeadEnd } : state;
  // Recorded only where there are some, so states without stay as they were. A result at
  // the floor cap stays there after `resultsShrunkBefore` passes it: its form was sent.
  const shrunkAt = resultsShrunkAt.filter((index) => index >= resultsShrunkBefore);
  const withShrunk = shrunkAt.length > 0 ? { ...withHead, resultsShrunkAt: shrunkAt } : withHead;
  return resultsFloorAt.length > 0 ? { ...withShrunk, resultsFloorAt: [...resultsFloorAt] } : withShrunk;
}

function reductionsApplied(reductions: Reductions, start: number): boolean {
  return (
    reductions.reasoningDroppedBefore > start ||
    reductions.resultsShrunkBefore > start ||
    reductions.resultsShrunkAt.length > 0 ||
    reductions.resultsFloorAt.length > 0 ||
    reductions.stepsDroppedBefore > start
  );
}
