/**
 * Episodic's own packer: `packContext` with a session-lived token counter (each
 * message is counted once, when appended) and the pack state carried from call to
 * call. Retention `episode` (the default): past episodes go without reasoning.
 */
import { packContext, prepareForPacking } from '@episodic/core/packing';

/**
 * @param {{ budget: number, counter: import('@episodic/core').TokenCounter, system: string,
 *   tools: import('@episodic/core').ToolSpec[], retention?: import('@episodic/core').Retention,
 *   pack?: { lowWater?: number, toolResultCap?: number, currentToolResultCap?: number } }} options
 *   `pack`: packing knobs other than the defaults (the session-family bench compares settings).
 */
export function createStrategy({ budget, counter, system, tools, retention = 'episode', pack = {} }) {
  let state;
  let stats;
  return {
    name: 'Episodic',
    settings: `packContext, retention ${retention}, defaults otherwise (low-water 0.7, tool-result caps)`,
    onAppend(message) {
      // The agent loop does this as each message is appended: count it and make the
      // packed forms (shortened tool results) so the packing call only adds numbers.
      prepareForPacking(message, { ...pack, budget, tokenizer: counter });
    },
    pack(messages) {
      const result = packContext({ ...pack, messages, system, tools, budget, retention, tokenizer: counter, state });
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
