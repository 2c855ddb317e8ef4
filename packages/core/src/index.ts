/**
 * @episodic/core: the neutral message model, transcripts, episodes, token counting,
 * the context packer and the agent loop. No vendor SDK is imported here.
 */

export * from './loop/agent.js';
export * from './loop/agent-errors.js';
export * from './loop/agent-events.js';
export * from './tokens/calibration.js';
export * from './message/episodes.js';
export * from './errors.js';
export * from './store/file-session-store.js';
export * from './store/memory-session-store.js';
export * from './store/store-write-error.js';
export * from './support/secret-redactor.js';
export * from './message/message.js';
export * from './message/retention.js';
export * from './model/model-adapter.js';
export {
  asModelError,
  callModel,
  type ModelCallResult,
  type ModelCallSettings,
  OVERFLOW_REPACK_FACTOR,
  type PackTuning,
  type RetryOptions,
  retryDelay,
} from './loop/model-call.js';
export * from './model/model-profile.js';
export { countContext, defaultTokenCounter, type MessageFormOptions, packContext, prepareForPacking } from './packing/pack-context.js';
export * from './packing/pack-types.js';
export * from './reasoning/index.js';
export type { PersistReasoning, ReasoningSidecar } from './store/reasoning-sidecar.js';
export {
  type EpisodeReasoningReport,
  type LocatedLeak,
  type SessionReasoningSummary,
  summarizeReasoning,
} from './reasoning/stats/reasoning-report.js';
export * from './loop/run-loop.js';
export * from './loop/session.js';
export * from './store/session-store.js';
export { shortenText } from './packing/shorten.js';
export * from './loop/stop-conditions.js';
export * from './tokens/token-counter.js';
export * from './loop/tool.js';
export * from './loop/tool-executor.js';
export {
  copyMessage,
  formatTranscript,
  type LineCheckOptions,
  parseTranscriptLine,
  parseTranscriptLineBytes,
  type ReadTranscriptOptions,
  readTranscript,
  readTranscriptStream,
  serializeMessage,
  withRepairHint,
  writeTranscript,
} from './message/transcript.js';
export * from './message/transcript-consistency.js';
export * from './message/transcript-limits.js';
export * from './message/transcript-lines.js';
export * as TranscriptSchema from './message/transcript-schema.js';
export * from './model/usage-totals.js';
