/**
 * Statistics of one packing call: tokens by section, reasoning kept and dropped,
 * evictions, and the predicted prompt-cache reuse against the previous call.
 */
import type { PackedEpisode } from './pack-episode.js';
import type { Message } from '../message/message.js';
import type { PackState, PackStats } from './pack-types.js';
import type { TokenCounter } from '../tokens/token-counter.js';

/** Tokens of this call's prefix that are byte-identical to the previous call's. */
export function reuseTokens(
  previous: PackState | undefined,
  prefixKey: string,
  messageKeys: readonly string[],
  fixedTokens: number,
  packedMessages: readonly Message[],
  counter: TokenCounter,
): number {
  const before = previous?.previous;
  if (!before || before.prefixKey !== prefixKey) return 0;
  let reused = fixedTokens;
  const shared = Math.min(before.messageKeys.length, messageKeys.length);
  for (let index = 0; index < shared; index += 1) {
    if (before.messageKeys[index] !== messageKeys[index]) break;
    reused += counter.countMessage(packedMessages[index] as Message);
  }
  return reused;
}

interface StatsInput {
  budget: number;
  counter: TokenCounter;
  fixed: { system: number; tools: number };
  summaryTokens: number;
  pastTokens: number;
  past: readonly PackedEpisode[];
  current: PackedEpisode;
  evicted: number;
  headEpisodes: number;
  evictedNow: boolean;
  summaryChangedNow: boolean;
  /** Indexes of the packed messages that end the head and the past history (-1: none). */
  breakpoints: readonly number[];
  packedMessages: readonly Message[];
  reuse: number;
  shortened: boolean;
  total: number;
  coldCache: boolean;
}

/** Assembles {@link PackStats} from the packed episodes. */
export function buildStats(input: StatsInput): PackStats {
  const episodes = [...input.past, input.current];
  const sum = (pick: (episode: PackedEpisode) => number) =>
    episodes.reduce((total, episode) => total + pick(episode), 0);
  // Ascending and distinct: a breakpoint at the end of the head keeps it cached
  // across evictions, one at the end of history across steps, one at the end.
  const breakpoints = [...new Set([...input.breakpoints, input.packedMessages.length - 1])].filter(
    (index) => index >= 0,
  );
  return {
    budget: input.budget,
    tokens: {
      system: input.fixed.system,
      tools: input.fixed.tools,
      summary: input.summaryTokens,
      history: input.pastTokens,
      currentEpisode: input.current.tokens,
      total: input.total,
    },
    reasoning: {
      keptParts: sum((episode) => episode.reasoningKeptParts),
      droppedParts: sum((episode) => episode.reasoningDroppedParts),
      keptTokens: sum((episode) => episode.reasoningKeptTokens),
      droppedTokens: sum((episode) => episode.reasoningDroppedTokens),
    },
    evictedEpisodes: input.evicted,
    headEpisodes: input.headEpisodes,
    evictedNow: input.evictedNow,
    summaryChangedNow: input.summaryChangedNow,
    truncatedToolResults: sum((episode) => episode.truncatedResults),
    currentEpisodeShortened: input.shortened,
    unpairedDropped: sum((episode) => episode.unpairedDropped),
    cacheBreakpoints: { prefix: input.fixed.system + input.fixed.tools > 0, messages: breakpoints },
    prefixReuseTokens: Math.min(input.reuse, input.total),
    hiddenReasoningParts: sum((episode) => episode.hiddenReasoningParts),
    coldCache: input.coldCache,
  };
}
