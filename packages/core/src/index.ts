/**
 * @episodic/core: the neutral message model, transcripts, episodes, token counting,
 * the context packer and the agent loop. No vendor SDK is imported here.
 */

export * from './agent.js';
export * from './agent-errors.js';
export * from './agent-events.js';
export * from './calibration.js';
export * from './episodes.js';
export * from './errors.js';
export * from './file-session-store.js';
export * from './memory-session-store.js';
export * from './message.js';
export * from './model-adapter.js';
export {
  asModelError,
  callModel,
  type ModelCallResult,
  type ModelCallSettings,
  OVERFLOW_REPACK_FACTOR,
  type PackTuning,
  type RetryOptions,
  retryDelay,
} from './model-call.js';
export * from './model-profile.js';
export { countContext, defaultTokenCounter, type MessageFormOptions, packContext, prepareForPacking } from './pack.js';
export * from './pack-types.js';
export * from './reasoning/index.js';
export type { PersistReasoning, ReasoningSidecar } from './reasoning-at-rest.js';
export {
  type EpisodeReasoningReport,
  type LocatedLeak,
  type SessionReasoningSummary,
  summarizeReasoning,
} from './reasoning-report.js';
export * from './run-loop.js';
export * from './session.js';
export * from './session-store.js';
export { shortenText } from './shorten.js';
export * from './stop-conditions.js';
export * from './token-counter.js';
export * from './tool.js';
export * from './tool-executor.js';
export {
  formatTranscript,
  parseTranscriptLine,
  type ReadTranscriptOptions,
  readTranscript,
  readTranscriptStream,
  serializeMessage,
  writeTranscript,
} from './transcript.js';
export * as TranscriptSchema from './transcript-schema.js';
export * from './usage-totals.js';
