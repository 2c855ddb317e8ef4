/**
 * `@episodic/core/packing`: the context packer the agent runs before every model
 * call, usable on its own; its options, state and statistics (the `context-packed`
 * event's `stats`); the tuning an agent takes (`pack`); the background summarizer of
 * evicted episodes and the text summaries of opaque compactions (portable
 * checkpoints); and the provider-native context options.
 */
export { packContext, summaryInput } from './packing/pack-context.js';
export { prepareForPacking } from './packing/prepare-for-packing.js';
export type { MessageFormOptions } from './packing/prepare-for-packing.js';
export type { BoundCutCause, PackOptions, PackResult, PackState, PackStats, ReasoningBoundary } from './packing/pack-types.js';
export { defaultPackingForProfile, packingForProfile } from './packing/profile-packing.js';
export type { SummaryRequest } from './packing/pack-summary.js';
export { checkpointSummaries, messagesAfterCompaction } from './packing/compaction-cut.js';
export type { CompactionReader } from './packing/compaction-cut.js';
export type { CompactionCut } from './packing/compaction-cut.js';
export type { PackTuning } from './packing/pack-types.js';
export { DEFAULT_SUMMARY_INSTRUCTIONS } from './loop/summarizer/background-summarizer.js';
export type { SummarizerOptions } from './loop/summarizer/background-summarizer.js';
export { DEFAULT_CHECKPOINT_INSTRUCTIONS, isOpaqueCompaction } from './loop/checkpoints/checkpoint-summaries.js';
export { isCheckpointWarning } from './loop/checkpoints/checkpoint-call.js';
export type { CheckpointFallback, CheckpointWarning } from './loop/checkpoints/checkpoint-call.js';
export { DEFAULT_COMPACTION_SHARE, nativeOptionsFor } from './model/native-context.js';
