/**
 * @episodic/core: the neutral message model, transcripts, episodes, token counting,
 * the context packer and the agent loop. No vendor SDK is imported here.
 */

export * from './loop/agent.js';
export * from './loop/agent-errors.js';
export * from './loop/agent-events.js';
export { type AgentToolOptions, DEFAULT_AGENT_TOOL_INPUT, subSessionId } from './loop/agent-tool.js';
export {
  type ApprovalPolicy,
  type ApprovalRequest,
  autoApprove,
  autoReject,
} from './loop/approvals.js';
export type { ApprovalTarget } from './loop/session-approvals.js';
export {
  type ApprovalDecision,
  ApprovalRecord,
  parseApprovalRecord,
  StoredApprovalDecision,
} from './store/approval-record.js';
export * from './tokens/calibration.js';
export * from './message/episodes.js';
export * from './errors.js';
export * from './store/file-session-store.js';
export * from './store/memory-session-store.js';
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
export type { EpisodeResult, FinishedEpisode, PausedEpisode, RunOutcome } from './loop/episode-result.js';
export {
  DEFAULT_OUTPUT_RETRIES,
  FINAL_ANSWER_TOOL,
  StructuredOutputError,
} from './loop/structured-output.js';
export * from './loop/session.js';
export * from './store/session-store.js';
export { shortenText } from './packing/shorten.js';
export * from './loop/stop-conditions.js';
export * from './tokens/token-counter.js';
export * from './loop/tool.js';
export * from './loop/tool-input-error.js';
export * from './support/json-schema.js';
export * from './support/schema-issues.js';
export * from './loop/tool-executor.js';
export {
  formatTranscript,
  parseTranscriptLine,
  type ReadTranscriptOptions,
  readTranscript,
  readTranscriptStream,
  serializeMessage,
  writeTranscript,
} from './message/transcript.js';
export * as TranscriptSchema from './message/transcript-schema.js';
export * from './model/usage-totals.js';
