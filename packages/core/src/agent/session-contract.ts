/**
 * The public contract of a session: what `agent.session()` returns. An interface, so
 * the declaration users see carries none of the loop's types; `session.ts` holds the
 * one implementation.
 */
import type { StandardSchemaV1 } from '../support/standard-schema.js';
import type { AgentEvent, AgentEventHandler } from '../loop/agent-events.js';
import type { ApprovalPolicy, ApprovalRequest } from '../loop/approvals.js';
import type { DurableRun } from '../loop/durable/durable-runtime.js';
import type { EpisodeResult } from '../loop/episode-result.js';
import type { AssistantMessage, Message, UserMessage, UserPart } from '../message/message.js';
import type { UsageTotals } from '../model/usage-totals.js';
import type { PackState } from '../packing/pack-types.js';
import type { SessionReasoningSummary } from '../reasoning/stats/reasoning-report.js';
import type { SessionStore, TornLine } from '../store/session-store.js';
import type { ApprovalTarget } from './session-approvals.js';

/** What `send` accepts: text, user content parts, or a whole user message. */
export type SessionInput = string | UserPart[] | UserMessage;

/** The checked answer type of a run given `output` (undefined without one). */
export type OutputOf<Schema> = Schema extends StandardSchemaV1 ? StandardSchemaV1.InferOutput<Schema> : undefined;

/** Options of one run: {@link Session.send}, {@link Session.resume} and their streams. */
export interface RunOptions<Schema extends StandardSchemaV1 | undefined = undefined> {
  /** Aborts the run; the transcript stays consistent (see {@link RunAbortedError}). */
  signal?: AbortSignal;
  /** Receives every event as it happens. */
  onEvent?: AgentEventHandler;
  /** This run's approval policy, instead of the agent's (see `toolCalls.approvalPolicy` of {@link AgentOptions}). */
  approvalPolicy?: ApprovalPolicy;
  /**
   * An object schema (zod, valibot, arktype or any Standard Schema library) the final answer must match: `result.output` is the checked,
   * typed answer. Asked for natively where the model's profile says the wire API has
   * structured output (`structuredOutput: 'native'`), else through a `final_answer`
   * tool; a failed check is fed back up to `outputRetries` times, then the run rejects
   * with a {@link StructuredOutputError}.
   */
  output?: Schema;
  /** Failed checks fed back before giving up. Default 2. */
  outputRetries?: number;
  /** Overrides the profile's `structuredOutput` for this run. */
  outputMode?: 'native' | 'tool';
  /**
   * Runs the episode on a durable engine (`@episodic/dbos`, `@episodic/restate`):
   * every model call and tool execution a step, replayed from the engine's record
   * after a crash. Needs the episode's input (a durable run replays from its start).
   */
  durable?: DurableRun;
}

/** A conversation: its transcript, pack state and usage. Create with `agent.session()`. */
export interface Session {
  /** The session's id in its store. */
  readonly id: string;
  /** Where the session is persisted after every step. */
  readonly store: SessionStore;
  /** Set when the stored transcript ended in a torn write that loading ignored. */
  readonly torn: TornLine | undefined;
  /** Warnings about the session as opened (e.g. reasoning its model needs is missing); also emitted at the next run. */
  readonly warnings: readonly string[];
  /** The transcript so far (do not modify it). */
  readonly messages: readonly Message[];
  /** The packer's state after the latest call. */
  readonly packState: PackState | undefined;
  /** Token usage and estimated cost of every model call in the transcript. */
  readonly totals: UsageTotals;
  /**
   * Reasoning and visible tokens per step, per episode and in total, and every
   * reasoning leak found in visible text, over the whole transcript (counted with the
   * agent's tokenizer). Reasoning kept out of a reloaded transcript is not counted
   * again; its provider-reported tokens still are (`reportedReasoningTokens`).
   */
  readonly reasoning: SessionReasoningSummary;
  /** True when the current episode was interrupted or paused and {@link Session.resume} has work to do. */
  readonly unfinished: boolean;
  /**
   * Tool calls waiting for a decision, in call order; decided ones leave the list (and
   * run, or are answered as rejected, at the next {@link Session.resume}). Worked out from the
   * transcript, so a session reopened in another process lists the same calls.
   */
  readonly pendingApprovals: readonly ApprovalRequest[];
  /**
   * Waits for a summary of evicted episodes, or the text summary of a compaction (a
   * portable checkpoint), that is being written (see the agent's `summarizer`). Runs
   * never wait for one: a finished summary joins the transcript at the next model call.
   * For tests, and to let a summary finish before shutting down. Also waits for an
   * on-demand compaction in flight (`context.native.compaction.onDemand`), which joins
   * the transcript at the next user boundary.
   */
  settleSummaries(): Promise<void>;
  /**
   * Approves a waiting call; `resume()` then runs it. The decision is persisted (in
   * the store's approval record) before this resolves, so it survives a restart. An
   * optional `note` reaches the model after the tool's output.
   */
  approve(call: ApprovalTarget, options?: { note?: string }): Promise<void>;
  /**
   * Rejects a waiting call; at `resume()` the model reads an error result naming the
   * `reason` instead of the tool's output. Persisted like {@link Session.approve}.
   */
  reject(call: ApprovalTarget, options?: { reason?: string }): Promise<void>;
  /** Approves every waiting call; returns them. */
  approveAll(options?: { note?: string }): Promise<ApprovalRequest[]>;
  /** Rejects every waiting call; returns them. */
  rejectAll(options?: { reason?: string }): Promise<ApprovalRequest[]>;
  /**
   * Runs one episode for `input` and returns its outcome. Rejects on abort or a model
   * failure, and with a {@link TranscriptError} for input that is not a valid user
   * message (nothing is stored then). Before writing anything it takes the session's
   * lease from the store: another writer holding it rejects with a
   * {@link SessionBusyError}, and a store changed by another writer since this
   * session was opened rejects with a {@link SessionConflictError} (open it again).
   */
  send<Schema extends StandardSchemaV1 | undefined = undefined>(
    input: SessionInput,
    options?: RunOptions<Schema>,
  ): Promise<EpisodeResult<OutputOf<Schema>>>;
  /** Continues an interrupted episode (pending tool calls first). Returns at once when nothing is pending. */
  resume<Schema extends StandardSchemaV1 | undefined = undefined>(options?: RunOptions<Schema>): Promise<EpisodeResult<OutputOf<Schema>>>;
  /**
   * Runs one episode for `input` and yields its events. Failures arrive as an
   * `error` event followed by `episode-finish`; the iterator itself only throws for
   * errors raised before the episode starts (e.g. a busy session). Breaking out of
   * the loop does not stop the run: abort its signal for that.
   */
  stream(input: SessionInput, options?: RunOptions<StandardSchemaV1 | undefined>): AsyncGenerator<AgentEvent>;
  /** {@link Session.resume} as a stream of events (see {@link Session.stream}). */
  resumeStream(options?: RunOptions<StandardSchemaV1 | undefined>): AsyncGenerator<AgentEvent>;
  /**
   * Compacts the transcript now with the provider's standalone compaction (OpenAI
   * `POST /responses/compact`, Anthropic on-demand compaction on the models that have it,
   * where the saved block stands for the whole transcript; other adapters throw `InvalidArgumentError`): the
   * context the next call would send goes to the provider, and its answer, an
   * assistant message with one opaque `compaction` part, is saved. Later calls send
   * that part back verbatim in place of the history before it, which stays in the
   * transcript unsent. Not while a run is going on (`SessionBusyError`).
   */
  compact(options?: { signal?: AbortSignal }): Promise<AssistantMessage>;
}
