/**
 * @episodic/core: the neutral message model, transcripts, episodes, token counting,
 * the context packer and the agent loop. No vendor SDK is imported here.
 *
 * This is the public API: every name below is chosen on purpose and listed in
 * `api/core.api.md`, which a test compares with the built package. What other
 * Episodic packages need but users should not touch is in `@episodic/core/internal`;
 * helpers for tests are in `@episodic/core/testing`. This entry imports no Node
 * built-in, so it bundles for browsers and edge runtimes; what needs the file system
 * (transcript files, the file session store, the file replay cache) is in
 * `@episodic/core/node`.
 */

// Errors (all in errors/): one base class; each class has its own `code` literals and `isInstance`.
export { ContextOverflowError, InvalidArgumentError, PersistedFormatError, TranscriptError } from './errors/input-errors.js';
export { EpisodicError } from './errors/episodic-error.js';
export type { PersistedFormatCode, PersistedFormatLocation, TranscriptLocation } from './errors/input-errors.js';
export type { ModelErrorCode, ModelErrorKind } from './errors/model-error.js';

// message: the neutral message model, transcripts (format v1.1, a superset of v1) and episodes.
export { assistantText, isEpisodeStart, isInstruction, toolCallsOf, toolResultText, userText } from './message/message.js';
export type {
  AppliedContextEdit,
  AssistantMessage,
  AssistantPart,
  Compaction,
  CompactionPart,
  DeveloperMessage,
  FilePart,
  ImagePart,
  Message,
  ModelMessage,
  ModelRef,
  ProviderData,
  ProviderToolPart,
  ReasoningPart,
  SubSessionReference,
  SummaryMessage,
  SystemMessage,
  TextPart,
  ToolApproval,
  ToolCallPart,
  ToolMessage,
  ToolResultPart,
  ToolSpec,
  Usage,
  UserMessage,
  UserPart,
} from './message/message.js';
export { formatTranscript, parseTranscriptLine } from './message/transcript.js';
export type { ReadTranscriptOptions } from './message/transcript.js';
export { checkConsistency } from './message/transcript-consistency.js';
export { MAX_LINE_BYTES, MAX_NESTING_DEPTH } from './message/transcript-limits.js';
export {
  TRANSCRIPT_FORMAT,
  TRANSCRIPT_VERSION,
  transcriptVersionOf,
  transcriptVersions,
  versionLine,
} from './message/transcript-version.js';
export type { TranscriptVersion } from './message/transcript-version.js';
export { splitEpisodes } from './message/episodes.js';
export type { Episode } from './message/episodes.js';
export type { Retention } from './message/retention.js';

// tokens: counting with tiktoken's encodings (pluggable encoder), calibrated to each provider's tokenizer.
export { createApproximateCounter, createTokenCounter } from './tokens/token-counter.js';
export type { TokenCounter, TokenCounterOptions } from './tokens/token-counter.js';
export type { EncodingName, TokenEncoder } from './tokens/token-encoder.js';
export type { ChunkEncoder, TextSpan, TextTally } from './tokens/text-tally.js';
export { Calibration } from './tokens/calibration.js';
export type { CalibrationOptions } from './tokens/calibration.js';

// packing: the context packer.
export { packContext, prepareForPacking, summaryInput } from './packing/pack-context.js';
export type { MessageFormOptions } from './packing/pack-context.js';
export type { PackOptions, PackResult, PackState, PackStats, ReasoningBoundary } from './packing/pack-types.js';
export { packingForProfile } from './packing/profile-packing.js';
export type { SummaryRequest } from './packing/pack-summary.js';
export { messagesAfterCompaction } from './packing/compaction-cut.js';
export type { CompactionCut } from './packing/compaction-cut.js';

// model: the contract between the loop and a model adapter, and model profiles.
export { ModelError } from './errors/model-error.js';
export { generate } from './model/model-response.js';
export type {
  CacheBreakpoints,
  ModelAdapter,
  ModelRequest,
  ModelStreamEvent,
  OutputFormat,
  StopReason,
  StreamOptions,
} from './model/model-adapter.js';
export type { ModelResponse } from './model/model-response.js';
export type { CacheStyle, ModelProfile, PastReasoning, Pricing, ReasoningField } from './model/model-profile.js';
export type { UsageTotals } from './model/usage-totals.js';
export { DEFAULT_COMPACTION_SHARE, nativeOptionsFor } from './model/native-context.js';
export type { ClearToolUsesOptions, ContextPolicy, NativeContextOptions } from './model/native-context.js';

// reasoning: splitters for reasoning inside text, the replay cache, and the types of
// the reasoning events, stats and hand-off options the agent reports and takes.
export { createTagSplitter } from './reasoning/in-text/tag-splitter.js';
export { createLeadingReasoningDetector } from './reasoning/in-text/leading-reasoning-detector.js';
export type { LeadingReasoningOptions } from './reasoning/in-text/leading-reasoning-detector.js';
export type { TagSplitterOptions } from './reasoning/in-text/tag-splitter.js';
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
export type { ReasoningEvent, WarningEvent } from './reasoning/reasoning-events.js';
export type { LeakFinding } from './reasoning/stats/leak-check.js';
export type {
  EpisodeReasoningStats,
  ReasoningStats,
  ReasoningTally,
  StepReasoningStats,
} from './reasoning/stats/reasoning-stats.js';
export type { EpisodeReasoningReport, LocatedLeak, SessionReasoningSummary } from './reasoning/stats/reasoning-report.js';

// store: where sessions live between runs.
export type { AppendOptions, ApprovalWriteOptions, SessionLease, SessionStore, StoredSession, TornLine, WriteOptions } from './store/session-store.js';
export { ApprovalConflictError, SessionConflictError } from './errors/session-errors.js';
export { StoreWriteError } from './errors/store-write-error.js';
export { MemorySessionStore } from './store/memory-session-store.js';
export type { PersistReasoning, ReasoningSidecar } from './store/reasoning-sidecar.js';
export type { ApprovalDecision, ApprovalRecord, StoredApprovalDecision } from './store/approval-record.js';

// support: secrets the agent redacts from tool results and errors before they are saved or emitted.
export { environmentSecrets, MIN_SECRET_LENGTH, REDACTED, SecretRedactor } from './support/secret-redactor.js';

// loop: agents, sessions, tools, stop conditions and the events of a run.
export { Agent } from './agent/agent.js';
export type { AgentOptions, SessionOptions } from './agent/agent.js';
export { Session } from './agent/session.js';
export type { OutputOf, RunOptions, SessionInput } from './agent/session.js';
export type { EpisodeResult, FinishedEpisode, PausedEpisode, RunOutcome } from './loop/episode-result.js';
export type { PackTuning, RetryOptions } from './loop/model-call.js';
export { DEFAULT_SUMMARY_INSTRUCTIONS } from './loop/background-summarizer.js';
export type { SummarizerOptions } from './loop/background-summarizer.js';
export type { AgentEvent, AgentEventHandler, EpisodeFinishReason } from './loop/agent-events.js';
export { RunAbortedError } from './errors/run-aborted-error.js';
export { SessionBusyError } from './errors/session-errors.js';
export type { AgentTool, ApprovalContext, NeedsApproval, ToolContext, ToolOutput } from './loop/tool.js';
export { ToolInputError } from './errors/tool-input-error.js';
export type { SchemaIssue } from './support/schema-issue.js';

// loop: people in the loop (tool approvals), structured answers, agents as tools.
export { autoApprove, autoReject } from './loop/approvals.js';
export type { ApprovalPolicy, ApprovalRequest } from './loop/approvals.js';
export type { ApprovalTarget } from './agent/session-approvals.js';
export { DEFAULT_OUTPUT_RETRIES, FINAL_ANSWER_TOOL } from './loop/structured-output.js';
export { StructuredOutputError } from './errors/structured-output-error.js';
export { DEFAULT_AGENT_TOOL_INPUT } from './agent/agent-tool.js';
export type { AgentToolOptions } from './agent/agent-tool.js';
export { allOf, anyOf, hasToolCall, maxSteps } from './loop/stop-conditions.js';
export { DurableRunError, inlineRuntime, stepIds } from './loop/durable/durable-runtime.js';
export type { DurableRun, DurableRuntime } from './loop/durable/durable-runtime.js';
export { unknownOutcome } from './loop/durable/durable-tools.js';
export type { StopCondition, StopContext } from './loop/stop-conditions.js';

// telemetry: OpenTelemetry traces of sessions, model calls and tool calls (optional peer @opentelemetry/api).
export { createTelemetry } from './telemetry/create-telemetry.js';
export type { Telemetry, TelemetryOptions } from './telemetry/create-telemetry.js';
export type {
  OpenTelemetryApi,
  SpanAttributes,
  SpanAttributeValue,
  SpanTime,
  TelemetryContext,
  TelemetrySpan,
  TelemetryTracer,
} from './telemetry/telemetry-api.js';

// ui-stream: a session's events as the AI SDK UI message stream, for web chat front ends.
export { toUIMessageStream } from './ui-stream/to-ui-message-stream.js';
export type { UIMessageStreamOptions } from './ui-stream/to-ui-message-stream.js';
export type { EpisodicMessageMetadata, UIFinishReason, UIMessageChunk, UIPackMetadata, UIUsageMetadata } from './ui-stream/ui-message-chunk.js';
export {
  createUIMessageStreamResponse,
  pipeUIMessageStreamToResponse,
  toServerSentEvents,
  UI_MESSAGE_STREAM_HEADERS,
} from './ui-stream/ui-message-stream-response.js';
export type { UIMessageStreamResponseInit } from './ui-stream/ui-message-stream-response.js';
