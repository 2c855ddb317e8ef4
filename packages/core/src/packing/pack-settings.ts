/**
 * The packer's settings: its options resolved to defaults and checked once per pack,
 * and the past episodes' packed forms, kept per settings.
 */
import { InvalidArgumentError } from '../errors/input-errors.js';
import { type EpisodeContext, type PackedEpisode, packEpisode } from './pack-episode.js';
import type { PackOptions } from './pack-types.js';
import { packedFormsFor } from './packed-forms.js';
import { FLOOR_RESULT_CAP, toolResultCaps } from './tool-result-caps.js';
import type { TokenCounter } from '../tokens/token-counter.js';

/** Share of the budget a head may take (see `pack-layout.ts`); tuned on the packer benchmark. */
const DEFAULT_HEAD_SHARE = 0.35;

/**
 * Share of the budget an eviction (or a cut of an overlong current episode) brings the
 * context down to, so the next calls grow without evicting again (hysteresis). Chosen with
 * the tool-result caps on the session family (see {@link toolResultCaps} and
 * bench/results/packer-family.md); a lower mark keeps less of the recent history after each
 * eviction.
 */
export const DEFAULT_LOW_WATER = 0.5;

/** Settings of one pack, resolved and checked. */
export interface Settings {
  budget: number;
  lowWater: number;
  headShare: number;
  context: EpisodeContext;
  /** Identifies everything a past episode's packed form depends on. */
  pastKey: string;
}

/** Resolves and checks a pack's options; throws {@link InvalidArgumentError}. */
export function resolveSettings(options: PackOptions, counter: TokenCounter): Settings {
  const { budget } = options;
  if (!Number.isFinite(budget) || budget <= 0)
    throw new InvalidArgumentError(`budget must be a positive number of tokens (got ${budget})`);
  const lowWater = options.lowWater ?? DEFAULT_LOW_WATER;
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
    context: {
      messages: options.messages,
      forms: packedFormsFor(counter, options.resultReader),
      counter,
      retention,
      pastCap,
      currentCap,
      floorCap: Math.min(FLOOR_RESULT_CAP, pastCap),
    },
    pastKey: `${retention}|${pastCap}|${counter.calibration.factor}`,
  };
}

/** A past episode's packed form, packed once per settings (and per reasoning kept hidden or not). */
export function packPast(settings: Settings, start: number, end: number, hiddenReasoning = false): PackedEpisode {
  const { context } = settings;
  const key = hiddenReasoning ? `${settings.pastKey}|hidden` : settings.pastKey;
  return context.forms.pastEpisode(context.messages, start, end, key, () =>
    packEpisode(context, start, end, undefined, hiddenReasoning),
  );
}
