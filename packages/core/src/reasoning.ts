/**
 * `@episodic/core/reasoning`: splitters for reasoning inside text, the replay cache,
 * the cross-model hand-off options, the rule that drops other models' opaque
 * reasoning (for callers that stream from an adapter without the agent), and the
 * types of the reasoning events, statistics and reports a session gives.
 */
export { createTagSplitter } from './reasoning/in-text/tag-splitter.js';
export type { TagSplitterOptions } from './reasoning/in-text/tag-splitter.js';
export { createLeadingReasoningDetector } from './reasoning/in-text/leading-reasoning-detector.js';
export type { LeadingReasoningOptions } from './reasoning/in-text/leading-reasoning-detector.js';
export { createHarmonyParser } from './reasoning/in-text/harmony-parser.js';
export type { HarmonyPiece } from './reasoning/in-text/harmony-parser.js';
export type { SplitPiece, StreamSplitter } from './reasoning/in-text/stream-splitter.js';
export { MemoryReplayCache } from './reasoning/replay-cache/memory-replay-cache.js';
export type { ReplayCache, ReplayCacheBounds, ReplayCacheStats, ReplayEntry } from './reasoning/replay-cache/replay-cache.js';
export type {
  ManagedReplayCache,
  ReplayCacheReport,
  ReplayDeleteFilter,
  ReplayGroup,
  ReplayListOptions,
} from './reasoning/replay-cache/replay-cache-admin.js';
export type { HandoffOptions, HandoffSkip } from './reasoning/handoff/handoff-note.js';
export { stripForeignReasoning } from './reasoning/handoff/foreign-reasoning.js';
export type { ForeignReasoningWarning } from './reasoning/handoff/foreign-reasoning.js';
export type { ReasoningEvent } from './reasoning/reasoning-events.js';
export type { LeakCheckOptions, LeakFinding } from './reasoning/stats/leak-check.js';
export type {
  EpisodeReasoningStats,
  ReasoningStats,
  ReasoningTally,
  StepReasoningStats,
} from './reasoning/stats/reasoning-stats.js';
export type { EpisodeReasoningReport, LocatedLeak, SessionReasoningSummary } from './reasoning/stats/reasoning-report.js';

// output controls: the echo filter that `reasoningOutput.echoSuppression` runs, for streams read without the agent.
export { EchoFilter, suppressEcho } from './reasoning/output/echo-filter.js';
export type { EchoSuppression } from './reasoning/output/echo-filter.js';
