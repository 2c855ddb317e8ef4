/**
 * @episodic/core: what an application building an agent needs: the agent and its
 * sessions, tools, approvals, stop conditions, stores, errors, the message model and
 * the model adapter contract. No vendor SDK is imported here.
 *
 * Each name below is chosen on purpose and listed in `api/core.api.md`, which a test
 * compares with the built package. The advanced layers have their own entry points:
 * `@episodic/core/transcript` (the transcript format and episodes),
 * `@episodic/core/packing` (the context packer and summaries),
 * `@episodic/core/reasoning` (splitters, replay caches, hand-off, reasoning reports),
 * `@episodic/core/telemetry` (OpenTelemetry traces), `@episodic/core/ui-stream` (the
 * AI SDK UI message stream) and `@episodic/core/testing` (offline test helpers).
 * What other Episodic packages need but users should not touch is in
 * `@episodic/core/internal`. This entry imports no Node built-in, so it bundles for
 * browsers and edge runtimes; what needs the file system (transcript files, the file
 * session store, the file replay cache) is in `@episodic/core/node`.
 */

// Errors (all in errors/): one base class; each class has its own `code` literals and `isInstance`.
export { ContextOverflowError, InvalidArgumentError, OptionConflictError, PersistedFormatError, TranscriptError } from './errors/input-errors.js';
export { EpisodicError } from './errors/episodic-error.js';
export type { PersistedFormatCode, PersistedFormatLocation, TranscriptLocation } from './errors/input-errors.js';
export type { ModelErrorCode, ModelErrorKind } from './errors/model-error.js';
export { FallbackExhaustedError } from './errors/fallback-error.js';
export type { FailoverReason, FallbackAttempt } from './errors/fallback-error.js';

// message: the neutral message model (the transcript format is in @episodic/core/transcript).
export { assistantText, isEpisodeStart, isInstruction, toolCallsOf, toolResultText, userText } from './message/message.js';
export type {
  AppliedContextEdit,
  AssistantMessage,
  AssistantPart,
  CheckpointOf,
  Compaction,
  CompactionPart,
  DeveloperMessage,
  FailedModelCall,
  FilePart,
  ImagePart,
  Message,
  ModelMessage,
  ModelRef,
  ProviderData,
  ProviderToolPart,
  ReasoningPart,
  StepFallback,
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
export type { InputTransformation } from './message/input-transformation.js';
export type { Retention } from './message/retention.js';

// tokens: counting with tiktoken's encodings (pluggable encoder), calibrated to each provider's tokenizer.
export { createTokenCounter } from './tokens/token-counter.js';
export type { TokenCounter, TokenCounterOptions } from './tokens/token-counter.js';
export type { EncodingName, TokenEncoder } from './tokens/token-encoder.js';
export { Calibration } from './tokens/calibration.js';
export type { CalibrationOptions } from './tokens/calibration.js';

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
export type { ClearToolUsesOptions, ContextPolicy, DeprecatedContextPolicy, NativeContextOptions } from './model/native-context.js';

// reasoning: the warning events a run reports (the rest of the reasoning layer is in @episodic/core/reasoning).
export type { WarningEvent } from './reasoning/reasoning-events.js';

// store: where sessions live between runs.
export type { AppendOptions, ApprovalWriteOptions, SessionLease, SessionStore, StoredSession, TornLine, WriteOptions } from './store/session-store.js';
export { ApprovalConflictError, SessionConflictError } from './errors/session-errors.js';
export { StoreWriteError } from './errors/store-write-error.js';
export { MemorySessionStore } from './store/memory-session-store.js';
export type { PersistReasoning, ReasoningSidecar } from './store/reasoning-sidecar.js';
export type { ApprovalDecision, ApprovalRecord, StoredApprovalDecision } from './store/approval-record.js';

// support: secrets the agent redacts from tool results and errors before they are saved or emitted.
export { environmentSecrets, SecretRedactor } from './support/secret-redactor.js';

// loop: agents, sessions, tools, stop conditions and the events of a run.
export { Agent } from './agent/agent.js';
export type { AgentRunResult } from './agent/agent.js';
export type {
  AgentOptions,
  ContextOptions,
  DeprecatedAgentOptions,
  ModelCallOptions,
  ReasoningOptions,
  SessionOptions,
  ToolCallOptions,
} from './agent/agent-options.js';
export type { OutputOf, RunOptions, Session, SessionInput } from './agent/session-contract.js';
export type { EpisodeResult, FinishedEpisode, PausedEpisode, RunOutcome } from './loop/episode-result.js';
export type { AgentHook, HookState, HookStep } from './loop/hooks/agent-hook.js';
export type { NextStep } from './loop/next-step.js';
export type { RetryOptions } from './loop/model-call.js';
export { DEFAULT_MAX_RETRY_WAIT_MS, failoverReason } from './loop/fallback/model-fallback.js';
export type { FallbackModel, FallbackOptions } from './loop/fallback/model-fallback.js';
export { withReasoningOutput } from './reasoning/output/reasoning-output.js';
export type { ReasoningOutputOptions } from './reasoning/output/reasoning-output.js';
export type { AgentEvent, AgentEventHandler, EpisodeFinishReason } from './loop/agent-events.js';
export { RunAbortedError } from './errors/run-aborted-error.js';
export { SessionBusyError } from './errors/session-errors.js';
export type { AgentTool, ApprovalContext, NeedsApproval, ToolContext, ToolOutput } from './loop/tool.js';
export { ToolInputError } from './errors/tool-input-error.js';
export type { SchemaIssue } from './support/schema-issue.js';
export type { SchemaOutput, StandardJSONSchemaV1, StandardSchemaV1 } from './support/standard-schema.js';

// loop: people in the loop (tool approvals), structured answers, agents as tools.
export { autoApprove, autoReject } from './loop/approvals.js';
export type { ApprovalPolicy, ApprovalRequest } from './loop/approvals.js';
export type { ApprovalTarget } from './agent/session-approvals.js';
export { DEFAULT_OUTPUT_RETRIES, FINAL_ANSWER_TOOL } from './loop/structured-output/structured-output.js';
export { CUT_RESULT_READER } from './loop/cut-results/cut-result-reader.js';
export type { CutResults } from './agent/agent-cut-results.js';
export { StructuredOutputError } from './errors/structured-output-error.js';
export { DEFAULT_AGENT_TOOL_INPUT } from './agent/agent-tool.js';
export type { AgentToolOptions } from './agent/agent-tool.js';
export { allOf, anyOf, hasToolCall, maxSteps } from './loop/stop-conditions.js';
export { DurableRunError, inlineRuntime, stepIds } from './loop/durable/durable-runtime.js';
export type { DurableRun, DurableRuntime } from './loop/durable/durable-runtime.js';
export { unknownOutcome } from './loop/durable/durable-tools.js';
export { episodeKey } from './loop/durable/episode-names.js';
export {
  approvalFor,
  checkApprovalDecision,
  DURABLE_APPROVALS_KEY,
  DurableApprovalError,
  pendingOf,
  stillWaits,
} from './loop/durable/durable-approvals.js';
export type { DurableApproval, PendingDurableApproval } from './loop/durable/durable-approvals.js';
export type { EpisodeRequest, EpisodeSummary } from './loop/durable/episode-names.js';
export type { StopCondition, StopContext } from './loop/stop-conditions.js';
