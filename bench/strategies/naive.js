/**
 * The naive baseline: a newest-first window that keeps every part, reasoning
 * included. Whole messages are added from the newest back while they fit; the
 * first one that does not fit ends the window. It does not look at tool pairing,
 * so the window may start with a tool result whose call was cut off (counted as an
 * orphan by the metrics: that is the point of this baseline).
 */
import { FRAMING } from '@episodic/core/internal';

/**
 * @param {{ budget: number, counter: import('@episodic/core').TokenCounter, system: string,
 *   tools: import('@episodic/core').ToolSpec[] }} options
 */
export function createStrategy({ budget, counter, system, tools }) {
  const history = [];
  const sizes = [];
  const limit = budget - FRAMING.reply - counter.countSystem(system) - counter.countTools(tools);
  return {
    name: 'Naive window',
    settings: 'newest-first whole messages while they fit, all reasoning kept, no pairing repair',
    onAppend(message) {
      history.push(message);
      sizes.push(counter.countMessage(message));
    },
    pack() {
      let used = 0;
      let start = history.length;
      while (start > 0 && used + sizes[start - 1] <= limit) {
        start -= 1;
        used += sizes[start];
      }
      return history.slice(start);
    },
    toTranscript(packed) {
      return packed;
    },
  };
}
