/**
 * The context packer: builds the input of every model call from the transcript.
 * See DESIGN.md ("Packer") for the guarantees; each is covered by tests.
 *
 * Order of measures when the context does not fit:
 * 1. evict whole past episodes down to the low-water mark (hysteresis: the
 *    following calls then append without evicting again), from the middle: the
 *    first episodes stay as a head, so the cached prefix up to its end survives
 *    (see `pack-layout.ts`); then the summary, then the head;
 * 2. only when no past episode is left, shorten the current episode: drop its
 *    reasoning oldest first (never the latest assistant message's), then give its
 *    tool results the past-episode cap, then leave out its oldest steps;
 * 3. if even the minimum does not fit, throw {@link ContextOverflowError}.
 */
import { type EpisodeContext, type PackedEpisode, packEpisode, type Reductions } from './pack-episode.js';
import { episodeStarts } from '../message/episodes.js';
import { ContextOverflowError, InvalidArgumentError } from '../errors.js';
import { fingerprint, hashText } from '../support/fingerprint.js';
import type { Message, ModelMessage, ToolSpec } from '../message/message.js';
import { evictedCount, fitLayout, type Layout, layoutFromState, layoutState } from './pack-layout.js';
import { buildStats, reuseTokens } from './pack-stats.js';
import { Summaries, summaryMessage, type SummaryRequest } from './pack-summary.js';
import type { PackOptions, PackResult, PackState } from './pack-types.js';
import { packedFormsFor } from './packed-forms.js';
import { createTokenCounter, FRAMING, type TokenCounter } from '../tokens/token-counter.js';

let defaultCounter: TokenCounter | undefined;

/** The counter used when none is given: tiktoken o200k_base, created on first use. */
export function defaultTokenCounter(): TokenCounter {
  defaultCounter ??= createTokenCounter();
  return defaultCounter;
}

/** Counts a context exactly as the packer does: system + tools + messages + reply priming. */
export function countContext(
  counter: TokenCounter,
  context: { system?: string | undefined; tools?: readonly ToolSpec[] | undefined; messages: readonly Message[] },
): number {
  let total = counter.calibration.apply(FRAMING.reply);
  if (context.system) total += counter.countSystem(context.system);
  if (context.tools && context.tools.length > 0) total += counter.countTools(context.tools);
  for (const message of context.messages) total += counter.countMessage(message);
  return total;
}

/** Share of the budget a head may take (see `pack-layout.ts`); tuned on the packer benchmark. */
const DEFAULT_HEAD_SHARE = 0.25;

interface Settings {
  budget: number;
  lowWater: number;
  headShare: number;
  context: EpisodeContext;
  /** Identifies everything a past episode's packed form depends on. */
  pastKey: string;
}

/** Options that decide the packed form of a single message. */
export type MessageFormOptions = Pick<PackOptions, 'budget' | 'tokenizer' | 'toolResultCap' | 'currentToolResultCap'>;

function toolResultCaps(options: MessageFormOptions): { pastCap: number; currentCap: number } {
  // Past results are small by default (0.5% of the budget, 64 to 2,000 tokens): old
  // episodes then take less room, evictions are rarer and the cached prefix lives
  // longer (measured in bench/results/packer.md). The model can always re-run a tool.
  const pastCap = options.toolResultCap ?? Math.max(64, Math.min(2000, Math.floor(options.budget * 0.005)));
  // Current results get a tenth of the budget (at most 16,000 tokens): one huge result
  // cannot crowd out the episode, and each step appends less uncached input.
  const currentCap = Math.max(
    options.currentToolResultCap ?? Math.min(16000, Math.floor(options.budget * 0.1)),
    pastCap,
  );
  return { pastCap, currentCap };
}

function resolveSettings(options: PackOptions, counter: TokenCounter): Settings {
  const { budget } = options;
  if (!Number.isFinite(budget) || budget <= 0)
    throw new InvalidArgumentError(`budget must be a positive number of tokens (got ${budget})`);
  const lowWater = options.lowWater ?? 0.7;
  if (!(lowWater > 0 && lowWater <= 1)) throw new InvalidArgumentError(`lowWater must be in (0, 1] (got ${lowWater})`);
  const headShare = options.headShare ?? DEFAULT_HEAD_SHARE;
  if (!(headShare >= 0 && headShare < lowWater)) {
    throw new InvalidArgumentError(`headShare must be in [0, lowWater) (got ${headShare} with lowWater ${lowWater})`);
  }
  const { pastCap, currentCap } = toolResultCaps(options);
  const retention = options.retention ?? 'episode';
  if (!['episode', 'tool-episodes', 'all', 'none'].includes(retention)) {
    throw new InvalidArgumentError(`retention must be one of episode, tool-episodes, all, none (got ${retention})`);
  }
  return {
    budget: Math.floor(budget),
    lowWater,
    headShare,
    context: { messages: options.messages, forms: packedFormsFor(counter), counter, retention, pastCap, currentCap },
    pastKey: `${retention}|${pastCap}|${counter.calibration.factor}`,
  };
}

/**
 * Does the tokenizing work for one message ahead of time: its count and the packed
 * forms a later `packContext` with the same options will need (shortened tool
 * results, reasoning-free assistant message). Call it when a message is appended,
 * so the packing call itself only adds up cached numbers.
 */
export function prepareForPacking(message: Message, options: MessageFormOptions): void {
  const counter = options.tokenizer ?? defaultTokenCounter();
  const forms = packedFormsFor(counter);
  if (message.role === 'tool') {
    // The larger cap first: its count goes further, and the smaller cap's head and
    // tail come out of the same chunks. A result that is cut is never counted whole.
    const { pastCap, currentCap } = toolResultCaps(options);
    counter.countMessage(forms.tool(message, currentCap));
    counter.countMessage(forms.tool(message, pastCap));
    return;
  }
  counter.countMessage(message);
  if (message.role === 'assistant') {
    forms.reasoningTokens(message);
    const stripped = forms.assistant(message, false);
    if (stripped) counter.countMessage(stripped);
  }
}

/** Leading system messages are folded into the system prompt. */
function foldSystem(
  messages: readonly Message[],
  system: string | undefined,
): { system: string | undefined; start: number } {
  let start = 0;
  const parts = system ? [system] : [];
  while (start < messages.length && messages[start]?.role === 'system') {
    parts.push(messages[start]?.content as string);
    start += 1;
  }
  for (let index = start; index < messages.length; index += 1) {
    if (messages[index]?.role === 'system') {
      throw new InvalidArgumentError(
        `messages[${index}] is a system message: system messages may only lead the transcript`,
      );
    }
  }
  return { system: parts.length > 0 ? parts.join('\n\n') : undefined, start };
}

/** The assistant message indexes of an episode, in order. */
function assistantIndexes(messages: readonly Message[], start: number, end: number): number[] {
  const indexes: number[] = [];
  for (let index = start; index < end; index += 1) if (messages[index]?.role === 'assistant') indexes.push(index);
  return indexes;
}

/**
 * Advances the current episode's reduction cursors one step at a time until the
 * total is at or below `target`, or nothing more can be cut. Returns the last pack.
 */
function reduceCurrent(
  settings: Settings,
  range: { start: number; end: number },
  reductions: Reductions,
  outside: number,
  target: number,
): PackedEpisode {
  const { messages } = settings.context;
  const assistants = assistantIndexes(messages, range.start, range.end);
  const latest = assistants[assistants.length - 1] ?? range.start;
  let packed = packEpisode(settings.context, range.start, range.end, reductions);
  const next = (from: number, limit: number) => Math.min(assistants.find((index) => index > from) ?? limit, limit);
  // Phases in order; each moves one cursor up to its limit, a step at a time.
  const phases: { cursor: keyof Reductions; limit: number }[] = [
    { cursor: 'reasoningDroppedBefore', limit: latest },
    { cursor: 'resultsShrunkBefore', limit: latest },
    { cursor: 'stepsDroppedBefore', limit: latest },
    { cursor: 'resultsShrunkBefore', limit: range.end },
  ];
  for (const phase of phases) {
    while (outside + packed.tokens > target && reductions[phase.cursor] < phase.limit) {
      reductions[phase.cursor] = next(reductions[phase.cursor], phase.limit);
      packed = packEpisode(settings.context, range.start, range.end, reductions);
    }
  }
  return packed;
}

function describeMinimum(fixed: number, current: PackedEpisode): string {
  return (
    `System, tools and reply priming take ${fixed} tokens and the current episode at its minimum ` +
    `(user message and latest step, results shortened) takes ${current.tokens}. ` +
    'Raise the budget, shorten the system prompt or tools, or lower the tool-result caps.'
  );
}

/** Past episodes packed and counted on demand, each at most once per pack. */
function pastEpisodes(settings: Settings, starts: readonly number[]) {
  const packed: PackedEpisode[] = [];
  const get = (index: number) =>
    (packed[index] ??= packPast(settings, starts[index] as number, starts[index + 1] as number));
  return { get, tokens: (index: number) => get(index).tokens };
}

/**
 * Packs the transcript into the input of the next model call. Pure apart from
 * caches: the same messages, settings and state give the same output.
 */
export function packContext(options: PackOptions): PackResult {
  const counter = options.tokenizer ?? defaultTokenCounter();
  const settings = resolveSettings(options, counter);
  const { messages } = options;
  const folded = foldSystem(messages, options.system);
  const starts = episodeStarts(messages, folded.start);
  if (starts.length === 0)
    throw new InvalidArgumentError('nothing to pack: the transcript has no messages besides system lines');
  const pastCount = starts.length - 1;
  const currentStart = starts[pastCount] as number;
  const range = { start: currentStart, end: messages.length };
  const previous: PackState | undefined = options.state?.version === 1 ? options.state : undefined;

  const systemTokens = folded.system ? counter.countSystem(folded.system) : 0;
  const toolTokens = options.tools && options.tools.length > 0 ? counter.countTools(options.tools) : 0;
  const fixed = systemTokens + toolTokens + counter.calibration.apply(FRAMING.reply);
  const sameEpisode = previous?.current?.start === currentStart;
  const reductions: Reductions = sameEpisode
    ? { ...(previous?.current as Reductions) }
    : { reasoningDroppedBefore: currentStart, resultsShrunkBefore: currentStart, stepsDroppedBefore: currentStart };
  let current = packEpisode(settings.context, range.start, range.end, reductions);
  const past = pastEpisodes(settings, starts);
  const summaries = new Summaries(messages, counter);
  const before = layoutFromState(previous, pastCount);
  const target = Math.floor(settings.budget * settings.lowWater);
  const fitted = fitLayout(before, {
    pastCount,
    episodeTokens: past.tokens,
    summaryTokens: (from, limit) => summaries.tokens(from, limit),
    fixed: fixed + current.tokens,
    budget: settings.budget,
    target,
    headBudget: Math.floor(settings.budget * settings.headShare),
  });
  const { layout } = fitted;
  const summary = fitted.summaryDropped ? undefined : summaries.chain(layout.headEnd, layout.recentStart);
  const summaryTokens = summary ? counter.countMessage(summaryMessage(summary.text)) : 0;
  const history = fitted.headTokens + summaryTokens + fitted.recentTokens;
  if (fixed + history + current.tokens > settings.budget) {
    current = reduceCurrent(settings, range, reductions, fixed + history, target);
    if (fixed + history + current.tokens > settings.budget)
      throw new ContextOverflowError(fixed + history + current.tokens, settings.budget, describeMinimum(fixed, current));
  }
  return assemble({
    options, settings, counter, previous, folded, layout, current, reductions, currentStart,
    head: episodesIn(past.get, layout.headStart, layout.headEnd),
    recent: episodesIn(past.get, layout.recentStart, pastCount),
    summary: summary && { ...summary, from: layout.headEnd, tokens: summaryTokens },
    request: summaries.request(layout.headEnd, layout.recentStart),
    fixed: { system: systemTokens, tools: toolTokens, total: fixed },
    evictedBefore: evictedCount(before),
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
  const prefixKey = hashText(`${input.folded.system ?? ''}\u0000${input.options.tools ? toolsKey(input.options.tools) : ''}`);
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
  });
  const state: PackState = {
    version: 1,
    ...layoutState(layout),
    ...(summarized ? { summarized } : {}),
    current: { start: input.currentStart, ...input.reductions },
    previous: { prefixKey, messageKeys },
  };
  const result: PackResult = { messages: packedMessages, system: input.folded.system, stats, state };
  if (input.request) result.summaryRequest = input.request;
  return result;
}

const toolsKeys = new WeakMap<readonly ToolSpec[], string>();

function toolsKey(tools: readonly ToolSpec[]): string {
  let key = toolsKeys.get(tools);
  if (key === undefined) {
    key = hashText(JSON.stringify(tools));
    toolsKeys.set(tools, key);
  }
  return key;
}

function packPast(settings: Settings, start: number, end: number): PackedEpisode {
  const { context } = settings;
  return context.forms.pastEpisode(context.messages, start, end, settings.pastKey, () =>
    packEpisode(context, start, end),
  );
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

function reductionsApplied(reductions: Reductions, start: number): boolean {
  return (
    reductions.reasoningDroppedBefore > start ||
    reductions.resultsShrunkBefore > start ||
    reductions.stepsDroppedBefore > start
  );
}
