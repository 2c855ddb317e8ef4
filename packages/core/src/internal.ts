/**
 * `@episodic/core/internal`: what the other Episodic packages (and the benchmarks)
 * need from core but applications should not use.
 *
 * No stability promise: anything here may change or go away in any release, minor
 * and patch included, without notice. Import from `@episodic/core` instead; if you
 * need something that is only here, open an issue saying what for.
 */

// tokens: the framing the packer adds per message, for tools that count as it does.
export { FRAMING } from './tokens/token-counter.js';

// packing: a context counted exactly as the packer counts it (the CLI's budget replay).
export { countContext } from './packing/message-fits.js';
// packing: the tool-result caps a budget gets by default (the CLI's budget replay compares at equal caps).
export { toolResultCaps } from './packing/tool-result-caps.js';

// agent: the packing an agent adds for its reader of cut results (the CLI's budget replay
// and the benchmarks model what an agent sends, markers naming the reader included).
export { packingWithReader } from './agent/agent-cut-results.js';
// loop: the reader of cut results and its read size, which @episodic/ai-sdk offers as an AI SDK tool.
export { cutResultReader } from './loop/cut-results/cut-result-reader.js';
export { readerCap } from './loop/cut-results/cut-result-offer.js';

// loop: where an on-demand compaction cuts the transcript and how many episodes it keeps (the CLI's
// budget replay and the context-policy bench model the compactions an agent asks for).
export { chooseCut } from './loop/on-demand/on-demand-request.js';
export { DEFAULT_KEEP_TURNS } from './model/native-context.js';

// model: profile lookup over a table (the profile tables live in @episodic/providers).
export { findProfile } from './model/model-profile.js';

// reasoning: the toolkit's building blocks, measured one by one by the benchmarks.
export { buildHandoff } from './reasoning/handoff/handoff-note.js';
export { toolCallKey } from './reasoning/replay-cache/replay-cache.js';
export { restoreReasoning } from './reasoning/replay-cache/replay-restore.js';
export type { RestoreResult } from './reasoning/replay-cache/replay-restore.js';

// tools: building tools from Standard Schemas (@episodic/tools' defineTool and its schema
// normalisers build on the same conversion, issue wording and name rule as agent.asTool).
export { isJsonObject, toolInputSchema, typeNames } from './support/json-schema.js';
export { jsonValueProblem } from './support/json-value.js';
export type { JsonSchema } from './support/json-schema.js';
export { describeIssues } from './support/schema-issue.js';
export { assertStandardSchema, isStandardSchema, validateWith } from './support/standard-schema.js';
export type { SchemaOutput, StandardSchemaV1 } from './support/standard-schema.js';
export { assertToolName } from './loop/tool.js';
// tools: McpToolServer asks the same approval question as the agent loop.
export { approvalRequest } from './loop/approvals.js';

// store: what another store implementation needs to behave like the built-in ones.
export { assertSessionId } from './store/session-store.js';
export { parseApprovalRecord } from './store/approval-record.js';
// A store's reads load zod's ES module before they check records (see support/zod-loader.ts).
export { loadZod } from './support/zod-loader.js';
export { checkApprovalRevision } from './errors/session-errors.js';
export { serializeMessage } from './message/transcript.js';
export {
  DEFAULT_REPLAY_ENTRIES,
  DEFAULT_REPLAY_TOKENS,
  DEFAULT_REPLAY_TTL_MS,
} from './reasoning/replay-cache/memory-replay-cache.js';
export { checkDeleteFilter, listLimit } from './reasoning/replay-cache/replay-cache-admin.js';

// loop and packing helpers the MCP tool server and MCP tools reuse: one tool call
// run as the loop runs it, and the head-and-tail shortening of long text.
export { executeToolCall } from './loop/tool-executor.js';
// ui-stream: the event-to-chunk mapper alone, which the telemetry benchmark times.
export { UIMessageChunkMapper } from './ui-stream/to-ui-message-stream.js';
export { shortenText } from './packing/shorten.js';

// message: transcript lines as bytes, checked one by one and against the lines before
// them (the CLI's repair command sorts a damaged file's lines with these).
export { copyMessage, parseTranscriptLineBytes, withRepairHint } from './message/transcript.js';
export type { LineCheckOptions } from './message/transcript.js';
export { TranscriptConsistency } from './message/transcript-consistency.js';
export type { ConsistencyProblem } from './message/transcript-consistency.js';
export { transcriptLines, splitTranscriptLines, TranscriptLineSplitter } from './message/transcript-lines.js';
export type { TranscriptLineBytes, TranscriptLinesOptions } from './message/transcript-lines.js';
export { VersionCheck } from './message/transcript-version.js';
// message: the iterative depth check the readers apply, for importers to refuse deep input before recursing on it.
export { tooDeepField } from './message/transcript-limits.js';
export { digest } from './support/digest.js';
export type { DigestAlgorithm, DigestEncoding } from './support/digest.js';

// budget: the reads of cut results a replay assumes the model makes (the benchmarks and
// the CLI's budget replay weigh a cut against the calls it causes, alike).
export { modelledReads } from './loop/modelled-reads.js';

// schema: reading back arguments a model sent in a normalised schema's shape (@episodic/tools runs it).
export { restoreNormalizedArguments } from './schema/normalized-arguments.js';
