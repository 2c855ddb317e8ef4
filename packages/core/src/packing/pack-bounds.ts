/**
 * A first pack decided by the byte bound, so a fresh process's first request does not
 * wait for tiktoken's load (its rank table takes seconds to build on a busy machine).
 *
 * The bound (a text's UTF-8 length, see tokens/utf8-length.ts) is never below the
 * exact count, with the same calibration. A pack made with it that stays at or under
 * the low-water mark and shortened, evicted and cut nothing is therefore the pack the
 * exact counter makes: every decision of the packer is a count over a limit (budget,
 * low-water mark, tool-result caps), and no exact count can be over a limit that its
 * bound is under. The one decision that is a trade rather than a limit, keeping past
 * reasoning at a deferred boundary, is left to the exact counter. Any other pack is
 * made exactly, as is every pack once the tokenizer is loaded.
 *
 * The messages and state are the bound pack's (the same as the exact pack's); the
 * stats' token counts are counted exactly on first read (of the transcript and calibration factor as
 * they were), which in the agent loop is after the request has left, while the model
 * is answering.
 */
import { DEFAULT_LOW_WATER } from './pack-settings.js';
import type { PackOptions, PackResult, PackStats } from './pack-types.js';
import { Calibration } from '../tokens/calibration.js';
import { createTokenCounter, type TokenCounter } from '../tokens/token-counter.js';
import type { EncodingName } from '../tokens/token-encoder.js';

/**
 * The pack of `options` made by `pack` with the `bounds` counter when it is provably the
 * exact pack (see the module comment), with stats that count exactly when read; else undefined.
 */
export function packByBounds(
  options: PackOptions,
  counters: { exact: TokenCounter; bounds: TokenCounter },
  pack: (options: PackOptions) => PackResult,
): PackResult | undefined {
  const { exact: exactCounter, bounds } = counters;
  if (options.reasoningBoundary && options.state) return undefined;
  let bound: PackResult;
  try {
    bound = pack({ ...options, tokenizer: bounds });
  } catch {
    // A bound pack that cannot be made may still be made exactly.
    return undefined;
  }
  const { stats } = bound;
  const target = Math.floor(stats.budget * (options.lowWater ?? DEFAULT_LOW_WATER));
  const untouched = !stats.evictedNow && !stats.currentEpisodeShortened && !stats.summaryChangedNow && stats.truncatedToolResults === 0;
  if (!untouched || stats.tokens.total > target) return undefined;
  // Counted later as they are now: the caller may append to its transcript, and the
  // calibration may learn from the answer, before the stats are first read.
  const later: PackOptions = { ...options, messages: options.messages.slice() };
  const { encoding, calibration } = exactCounter;
  const factor = calibration.factor;
  let exact: PackResult | undefined;
  const exactStats = () => {
    const tokenizer =
      calibration.factor === factor
        ? exactCounter
        : createTokenCounter({ encoding: encoding as EncodingName, calibration: new Calibration({ initial: factor }) });
    return (exact ??= pack({ ...later, tokenizer })).stats;
  };
  return { ...bound, stats: deferredStats(stats, exactStats) };
}

/** Stats fields that are token counts; the others (part counts, flags, breakpoints) are the same by either counter. */
const COUNTED = ['tokens', 'reasoning', 'prefixReuseTokens'] as const;

/** The bound pack's stats with the counted fields read from `exact()` (the adapter reads the others before sending). */
function deferredStats(bound: PackStats, exact: () => PackStats): PackStats {
  const stats = { ...bound };
  for (const key of COUNTED) Object.defineProperty(stats, key, { enumerable: true, get: () => exact()[key] });
  return stats;
}
