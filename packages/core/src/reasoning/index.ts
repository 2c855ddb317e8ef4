/**
 * Reasoning that travels inside text: streaming splitters for tagged reasoning and
 * Harmony channels, leak checks, and reasoning token stats. The reasoning toolkit:
 * cross-model hand-off notes, removal of foreign reasoning, the replay cache.
 */
export { withoutForeignReasoning } from './handoff/foreign-reasoning.js';
export {
  buildHandoff,
  countForeignTraces,
  DEFAULT_HANDOFF_TOKENS,
  DEFAULT_HANDOFF_TRACES,
  fenceFor,
  foreignTraces,
  formatHandoffNote,
  type Handoff,
  type HandoffOptions,
  type HandoffSkip,
  type HandoffTrace,
  isForeign,
  reasoningProducer,
} from './handoff/handoff-note.js';
export { createHarmonyParser, type HarmonyHeader, type HarmonyPiece, parseHarmonyHeader } from './in-text/harmony-parser.js';
export {
  checkAssistantLeak,
  checkReasoningLeak,
  type LeakCheckInput,
  type LeakCheckOptions,
  type LeakFinding,
} from './stats/leak-check.js';
export {
  DEFAULT_REASONING_TAGS,
  HARMONY_SERVICE_TOKENS,
  HARMONY_TOKENS,
  type HarmonyToken,
} from './in-text/markers.js';
export {
  type EpisodeReasoningStats,
  type ReasoningStats,
  type ReasoningTally,
  reasoningStats,
  type StepReasoningStats,
} from './stats/reasoning-stats.js';
export * from './replay-cache/index.js';
export { normalizePieces, type SplitPiece, type StreamSplitter } from './in-text/stream-splitter.js';
export { createTagSplitter, type TagSplitterOptions } from './in-text/tag-splitter.js';
