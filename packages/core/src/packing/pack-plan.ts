/**
 * What a pack knows before it plans (the episodes, the fixed tokens, the current episode
 * as the previous call left it) and the past episodes it plans to send beside it.
 */
import { type PackedEpisode, packEpisode, type Reductions } from './pack-episode.js';
import { episodeStarts } from '../message/episodes.js';
import { InvalidArgumentError } from '../errors/input-errors.js';
import { evictedCount, fitLayout, type Layout, layoutFromState } from './pack-layout.js';
import { Summaries, summaryMessage } from './pack-summary.js';
import type { PackOptions, PackState } from './pack-types.js';
import { packPast, resolveSettings, type Settings } from './pack-settings.js';
import { foldSystem } from './message-fits.js';
import { FRAMING, type TokenCounter } from '../tokens/token-counter.js';
import { boundaryRanges, type KeptRanges, isKept, keptWithin } from './reasoning-boundary.js';
import { continuesBoundStep, fitNewestResults } from './bound-reasoning.js';
import { episodeRoom, type EpisodeRoom, turnTarget, turnTrigger } from './bound-room.js';

/** Past episodes packed and counted on demand, each at most once per pack; `kept` keep their reasoning bytes. */
export function pastEpisodes(settings: Settings, starts: readonly number[], kept: KeptRanges) {
  const packed: PackedEpisode[] = [];
  const get = (index: number) =>
    (packed[index] ??= packPast(settings, starts[index] as number, starts[index + 1] as number, isKept(kept, index)));
  return { get, tokens: (index: number) => get(index).tokens };
}

/** True when the cache lifetime lapsed between the previous pack and this one: the prefix is cold. */
function cacheIsCold(options: PackOptions, previous: PackState | undefined): boolean {
  const { cacheTtlMs, now } = options;
  if (cacheTtlMs === undefined || now === undefined || previous?.packedAt === undefined) return false;
  return now - previous.packedAt >= cacheTtlMs;
}

/** What a pack knows before it plans: the episodes, the fixed tokens, the current episode as the state left it. */
export interface Measured {
  settings: Settings;
  folded: { system: string | undefined };
  starts: number[];
  range: { start: number; end: number };
  previous: PackState | undefined;
  fixed: { system: number; tools: number; total: number };
  reductions: Reductions;
  /** The current episode's packed form, replaced as the plan shortens it. */
  current: PackedEpisode;
  /** The call continues a step whose reasoning is bound to what the previous call sent. */
  boundStep: boolean;
  cold: boolean;
  /** With bound reasoning: the room the episode under way is foreseen to need (bound-room.ts). */
  room?: EpisodeRoom;
  /**
   * Set where a bound step cannot go on unchanged: the tokens appending (results at the floor
   * cap) would take, and of them the past episodes and summary it would send unchanged.
   */
  append?: { tokens: number; history: number };
}

/** Resolves the settings and measures what the plan starts from. */
export function measure(options: PackOptions, counter: TokenCounter): Measured {
  const settings = resolveSettings(options, counter);
  const { messages } = options;
  const folded = foldSystem(messages, options.system);
  const starts = episodeStarts(messages, folded.start);
  if (starts.length === 0)
    throw new InvalidArgumentError('nothing to pack: the transcript has no messages besides system lines');
  const currentStart = starts[starts.length - 1] as number;
  const range = { start: currentStart, end: messages.length };
  const previous: PackState | undefined = options.state?.version === 1 ? options.state : undefined;
  const system = folded.system ? counter.countSystem(folded.system) : 0;
  const tools = options.tools && options.tools.length > 0 ? counter.countTools(options.tools) : 0;
  const fixed = { system, tools, total: system + tools + counter.calibration.apply(FRAMING.reply) };
  const sameEpisode = previous?.current?.start === currentStart;
  const reductions = sameEpisode ? fromState(previous?.current as NonNullable<PackState['current']>) : none(currentStart);
  const current = packEpisode(settings.context, range.start, range.end, reductions);
  // Bound reasoning under way: nothing sent may change unless the budget forces it (bound-reasoning.ts).
  const boundStep = options.boundReasoning === true && continuesBoundStep(messages, currentStart);
  const cold = cacheIsCold(options, previous) && !boundStep;
  const measured: Measured = { settings, folded, starts, range, previous, fixed, reductions, current, boundStep, cold };
  if (options.boundReasoning === true) measured.room = episodeRoom(settings, starts, range.end);
  return measured;
}

/**
 * The past episodes sent beside the current episode: the previous layout, or the one an
 * eviction leaves, with the summary of the evicted middle. A step whose reasoning is bound
 * to what was sent gets its own new results shortened before anything sent is evicted.
 */
export function planHistory(options: PackOptions, measured: Measured, counter: TokenCounter) {
  const { settings, starts, previous, boundStep, cold } = measured;
  const pastCount = starts.length - 1;
  const summaries = new Summaries(options.messages, counter);
  const before = layoutFromState(previous, pastCount);
  const target = Math.floor(settings.budget * settings.lowWater);
  // With bound reasoning, a call that has none under way leaves the episode the room it is
  // foreseen to need, at least the room above the low-water mark (bound-room.ts).
  const room = boundStep ? undefined : measured.room;
  const turn = room && { target: turnTarget(settings, room), trigger: turnTrigger(settings, room) };
  const fit = (kept: KeptRanges) => {
    const past = pastEpisodes(settings, starts, kept);
    const fitted = fitLayout(before, {
      pastCount,
      episodeTokens: past.tokens,
      summaryTokens: (from, limit) => summaries.tokens(from, limit),
      fixed: measured.fixed.total + measured.current.tokens,
      // A cold prefix costs the same whole or pruned: prune now, down to the low-water mark
      // when above it, so the warm calls after it grow without evicting.
      budget: turn ? (cold ? turn.target : turn.trigger) : cold ? target : settings.budget,
      target: turn?.target ?? target,
      headBudget: Math.floor(settings.budget * settings.headShare),
    });
    const evictsNow = evictedCount(fitted.layout) > evictedCount(before);
    // What was sent changes with an eviction, or with a summary sent last time and left out now.
    return { past, fitted, evictsNow, changesSent: evictsNow || (fitted.summaryDropped && previous?.summarized !== undefined) };
  };
  let kept = boundaryRanges({ options, settings, previous, starts, current: measured.current.tokens, cold });
  let plan = fit(kept);
  if (plan.changesSent && boundStep) {
    // That changes what the step's reasoning is bound to; its new results were never sent.
    const unchanged = measured.fixed.total + layoutTokens(before, plan.past.tokens, summaries, pastCount);
    const fitted = fitNewestResults(settings.context, measured.range, measured.reductions, (packed) => {
      measured.current = packed;
      plan = fit(kept);
      return !plan.changesSent;
    });
    measured.current = fitted.packed;
    plan = fit(kept);
    if (!fitted.fits) measured.append = { tokens: unchanged + fitted.floorTokens, history: unchanged - measured.fixed.total };
  }
  const { past: fittedPast, fitted, evictsNow } = plan;
  const { layout } = fitted;
  let past = fittedPast;
  let recentTokens = fitted.recentTokens;
  if (evictsNow && kept.length > 0) {
    // The eviction breaks the prefix after the head anyway: kept reasoning goes now, the head's stays.
    kept = keptWithin(kept, layout.headStart, layout.headEnd);
    past = pastEpisodes(settings, starts, kept);
    recentTokens = 0;
    for (let index = layout.recentStart; index < pastCount; index += 1) recentTokens += past.tokens(index);
  }
  const summary = fitted.summaryDropped ? undefined : summaries.chain(layout.headEnd, layout.recentStart);
  // While a bound step waits, a summary line that arrived since is not sent: it would change its prefix.
  const sent = previous?.summarized;
  const held = boundStep && !evictsNow && summary ? sent && summaries.chain(sent.from, sent.to) : summary;
  const summaryTokens = held ? counter.countMessage(summaryMessage(held.text)) : 0;
  const tokens = fitted.headTokens + summaryTokens + recentTokens;
  return { before, layout, kept, past, summaries, summary: held, summaryTokens, tokens, target, evictedAll: evictsNow && tokens === 0 };
}

/** Tokens of the past episodes and summary a layout sends. */
function layoutTokens(layout: Layout, tokens: (index: number) => number, summaries: Summaries, pastCount: number): number {
  let total = summaries.tokens(layout.headEnd, layout.recentStart);
  for (let index = layout.headStart; index < layout.headEnd; index += 1) total += tokens(index);
  for (let index = layout.recentStart; index < pastCount; index += 1) total += tokens(index);
  return total;
}

/** No reduction yet: every cursor at the episode's start. */
function none(start: number): Reductions {
  return {
    reasoningDroppedBefore: start,
    resultsShrunkBefore: start,
    resultsShrunkAt: [],
    resultsFloorAt: [],
    stepsDroppedBefore: start,
    stepsHeadEnd: start,
  };
}

/** The reductions a previous state recorded (one from before heads has none). */
function fromState(current: NonNullable<PackState['current']>): Reductions {
  const { reasoningDroppedBefore, resultsShrunkBefore, stepsDroppedBefore } = current;
  const resultsShrunkAt = current.resultsShrunkAt ?? [];
  const resultsFloorAt = current.resultsFloorAt ?? [];
  const stepsHeadEnd = current.stepsHeadEnd ?? current.start;
  return { reasoningDroppedBefore, resultsShrunkBefore, resultsShrunkAt, resultsFloorAt, stepsDroppedBefore, stepsHeadEnd };
}
