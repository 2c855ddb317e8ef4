/**
 * Reasoning that travels inside text: streaming splitters for tagged reasoning and
 * Harmony channels, leak checks, and reasoning token stats.
 */
export { createHarmonyParser, type HarmonyHeader, type HarmonyPiece, parseHarmonyHeader } from './harmony-parser.js';
export {
  checkAssistantLeak,
  checkReasoningLeak,
  type LeakCheckInput,
  type LeakCheckOptions,
  type LeakFinding,
} from './leak-check.js';
export {
  DEFAULT_REASONING_TAGS,
  HARMONY_SERVICE_TOKENS,
  HARMONY_TOKENS,
  type HarmonyToken,
} from './markers.js';
export {
  type EpisodeReasoningStats,
  type ReasoningStats,
  type ReasoningTally,
  reasoningStats,
  type StepReasoningStats,
} from './reasoning-stats.js';
export { normalizePieces, type SplitPiece, type StreamSplitter } from './stream-splitter.js';
export { createTagSplitter, type TagSplitterOptions } from './tag-splitter.js';
