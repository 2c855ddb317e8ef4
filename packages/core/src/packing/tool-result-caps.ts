/**
 * The tool-result caps: how many tokens a tool result may keep in past episodes and
 * in the current one, by default and as an agent sets them.
 */
import type { PackOptions } from './pack-types.js';

/**
 * The default past-episode tool-result cap (see {@link toolResultCaps}): 1% of the budget,
 * at most 900 tokens, but at least 512 (a small source file, read whole) where 512 is at
 * most 4% of the budget, and never under 64.
 */
function defaultPastCap(budget: number): number {
  const floor = Math.min(512, Math.floor(budget * 0.04));
  return Math.max(64, floor, Math.min(900, Math.floor(budget * 0.01)));
}

/**
 * Largest tool result of the current episode by default, in tokens: in the range of the
 * agents users know (Claude Code reads at most 25,000 tokens of a file).
 */
const CURRENT_CAP_LIMIT = 25_000;

/** Share of the budget a current-episode result may take by default: room is left for the rest of the call. */
const CURRENT_CAP_SHARE = 0.25;

/**
 * The default current-episode cap: a quarter of the budget, at most {@link CURRENT_CAP_LIMIT}
 * tokens, never under the past-episode cap.
 */
function defaultCurrentCap(budget: number, pastCap: number): number {
  return Math.max(pastCap, Math.min(CURRENT_CAP_LIMIT, Math.floor(budget * CURRENT_CAP_SHARE)));
}

/**
 * The floor cap: a few lines of a result beside the marker that says how to read the rest.
 * Only the newest results of a step whose reasoning is bound to what was sent get it, and
 * only where nothing larger lets that step go on with its reasoning (bound-reasoning.ts).
 */
export const FLOOR_RESULT_CAP = 96;

/** The tool-result caps in force for these options: past episodes' and the current one's, in tokens. */
export function toolResultCaps(options: Pick<PackOptions, 'budget' | 'toolResultCap' | 'currentToolResultCap'>): { pastCap: number; currentCap: number } {
  // The current episode is what the model works on: its results go whole unless they are
  // genuinely large, and are shortened (oldest first, to the past cap) only when room runs
  // out, after every past episode is evicted (see `reduceCurrent` in pack-context.ts). A
  // result cut when it is first sent is read back with the reader of cut results, a model
  // call per slice; the benches and `episodic budget` count those calls (`modelledReads`),
  // and with them a small current cap costs more than it saves (bench/results/packer-family.md).
  // Past episodes keep small results, so evictions are rare and the cached prefix lives
  // longer; a result over the past cap is cut again when its episode ends, a prefix change
  // at the boundary (the benches count it too).
  const pastCap = options.toolResultCap ?? defaultPastCap(options.budget);
  const currentCap = Math.max(options.currentToolResultCap ?? defaultCurrentCap(options.budget, pastCap), pastCap);
  return { pastCap, currentCap };
}
