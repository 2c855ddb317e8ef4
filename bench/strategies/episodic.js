/**
 * Episodic's own packer: `packContext` with a session-lived token counter (each
 * message is counted once, when appended) and the pack state carried from call to
 * call. Retention `episode` (the default): past episodes go without reasoning.
 */
import { CUT_RESULT_READER } from '@episodic/core';
import { defaultPackingForProfile, packContext, prepareForPacking } from '@episodic/core/packing';
import { resolveProfile } from '@episodic/providers';

/**
 * What an agent takes by default from the priced model's profile (OpenAI gpt-5, the
 * benches' prices): the cache lifetime (TTL-aware eviction); the priced boundary drop is opt-in.
 */
export const PROFILE_PACKING = defaultPackingForProfile(resolveProfile('openai', 'gpt-5'));

/**
 * @param {{ budget: number, counter: import('@episodic/core').TokenCounter, system: string,
 *   tools: import('@episodic/core').ToolSpec[], retention?: import('@episodic/core').Retention,
 *   pack?: { lowWater?: number, toolResultCap?: number, currentToolResultCap?: number } }} options
 *   `pack`: packing knobs other than the defaults (the session-family bench compares settings);
 *   `profile`: the options the agent takes from the model's profile (default: gpt-5's; `{}` for none).
 */
export function createStrategy({ budget, counter, system, tools, retention = 'episode', pack = {}, profile = PROFILE_PACKING }) {
  // A cut result's marker names the reader tool, as an agent's does (`cutResults: 'readable'`, the
  // default); the reads are modelled by the recorder (bench/metrics.js), the reader's spec is not.
  const options = { resultReader: CUT_RESULT_READER, ...profile, ...pack };
  let state;
  let stats;
  return {
    name: 'Episodic',
    settings: `packContext, retention ${retention}, gpt-5 profile's cache lifetime, defaults otherwise (low-water 0.5, current-episode tool results capped at a quarter of the budget, at most 25,000 tokens, past ones at 1%, 512 to 900, cut results naming the reader tool)`,
    onAppend(message) {
      // The agent loop does this as each message is appended: count it and make the
      // packed forms (shortened tool results) so the packing call only adds numbers.
      prepareForPacking(message, { ...options, budget, tokenizer: counter });
    },
    /** `now`: the call's time (ms), when the replayed session records one. */
    pack(messages, now) {
      const at = now === undefined ? {} : { now };
      const result = packContext({ ...options, ...at, messages, system, tools, budget, retention, tokenizer: counter, state });
      state = result.state;
      stats = result.stats;
      if (result.system !== system)
        throw new Error('Episodic changed the system prompt: the bench assumes it does not');
      return result.messages;
    },
    toTranscript(packed) {
      return packed;
    },
    /** The packer's own prediction of the last call's reused prefix, to cross-check the metrics. */
    predictedReuseTokens() {
      return stats?.prefixReuseTokens;
    },
    /** What the last call did beyond appending, for the report's breakdown of reuse. */
    lastEvent() {
      if (stats?.evictedNow) return 'eviction';
      if (stats?.currentEpisodeShortened) return 'current episode shortened';
      return undefined;
    },
  };
}
