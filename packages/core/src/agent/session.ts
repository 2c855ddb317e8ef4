/**
 * `AgentSession`: one conversation with an agent, persisted through a {@link SessionStore}
 * after every step; the implementation of the public {@link Session} interface
 * (`session-contract.ts`). A thin wrapper over {@link runEpisode}.
 */
import { SessionBusyError, SessionConflictError } from '../errors/session-errors.js';
import { acquireWriter } from '../store/session-writer.js';
import type { AgentEvent } from '../loop/agent-events.js';
import { BackgroundSummarizer } from '../loop/summarizer/background-summarizer.js';
import { OnDemandCompactor } from '../loop/on-demand/on-demand-compaction.js';
import { CheckpointSummarizer } from '../loop/checkpoints/checkpoint-summaries.js';
import { InvalidArgumentError } from '../errors/input-errors.js';
import type { AssistantMessage, Message, UserMessage } from '../message/message.js';
import { compactTranscript } from '../loop/compact-transcript.js';
import type { MessageFormOptions } from '../packing/prepare-for-packing.js';
import type { PackState } from '../packing/pack-types.js';
import type { ReasoningAtRest } from '../store/reasoning-at-rest.js';
import { type SessionReasoningSummary, summarizeReasoning } from '../reasoning/stats/reasoning-report.js';
import type { StandardSchemaV1 } from '../support/standard-schema.js';
import type { EpisodeResult } from '../loop/episode-result.js';
import type { LoopSettings } from '../loop/loop-types.js';
import { pendingStep, runEpisode } from '../loop/run-loop.js';
import { withOutput } from '../loop/structured-output/structured-output.js';
import { withReasoningOutput } from '../reasoning/output/reasoning-output.js';
import { type Transcript, TranscriptWriter } from '../loop/transcript-writer.js';
import type { ApprovalRequest } from '../loop/approvals.js';
import type { ApprovalTarget, SessionApprovals } from './session-approvals.js';
import type { OpenedSession } from './session-open.js';
import type { SessionLease, SessionStore, TornLine } from '../store/session-store.js';
import { copyMessage } from '../message/transcript.js';
import { isPlainUserMessage } from '../message/plain-message.js';
import type { OutputOf, RunOptions, Session, SessionInput } from './session-contract.js';
import { type UsageTotals, usageTotalsOf } from '../model/usage-totals.js';

/** The one implementation of {@link Session}, built by `agent.session()`. */
export class AgentSession implements Session {
  readonly id: string;
  readonly store: SessionStore;
  /** Set when the stored transcript ended in a torn write that loading ignored. */
  readonly torn: TornLine | undefined;
  /** Warnings about the session as opened (e.g. reasoning its model needs is missing); also emitted at the next run. */
  readonly warnings: readonly string[];
  private readonly state: Transcript;
  private readonly notices: AgentEvent[];
  private readonly atRest: ReasoningAtRest | undefined;
  private readonly summarizer: BackgroundSummarizer | undefined;
  private readonly compactor: OnDemandCompactor | undefined;
  private readonly checkpoints: CheckpointSummarizer;
  private running = false;

  constructor(
    private readonly settings: LoopSettings,
    store: SessionStore,
    id: string,
    opened: OpenedSession,
    private readonly approvals: SessionApprovals,
  ) {
    this.id = id;
    this.store = store;
    this.torn = opened.torn;
    this.warnings = opened.warnings;
    this.notices = opened.notices;
    this.atRest = opened.atRest;
    this.state = { messages: opened.messages, packState: opened.packState };
    const summarizer = settings.summarizer;
    // Without a model of its own it writes with the agent's, under the agent's stream controls.
    this.summarizer =
      summarizer && new BackgroundSummarizer(summarizer, summarizer.model ?? withReasoningOutput(settings.model, settings.reasoningOutput));
    this.compactor = settings.onDemandCompaction && new OnDemandCompactor(settings.onDemandCompaction);
    this.checkpoints = checkpointSummarizer(settings);
  }

  /** The transcript so far (do not modify it). */
  get messages(): readonly Message[] {
    return this.state.messages;
  }

  /** The packer's state after the latest call. */
  get packState(): PackState | undefined {
    return this.state.packState;
  }

  /** Token usage and estimated cost of every model call in the transcript. */
  get totals(): UsageTotals {
    return usageTotalsOf(this.state.messages, this.settings.pricing);
  }

  /**
   * Reasoning and visible tokens per step, per episode and in total, and every
   * reasoning leak found in visible text, over the whole transcript (counted with the
   * agent's tokenizer). Reasoning kept out of a reloaded transcript is not counted
   * again; its provider-reported tokens still are (`reportedReasoningTokens`).
   */
  get reasoning(): SessionReasoningSummary {
    return summarizeReasoning(this.state.messages, this.settings.tokenizer);
  }

  /**
   * Waits for a summary of evicted episodes, or the text summary of a compaction (a
   * portable checkpoint), that is being written (see the agent's `summarizer`). Runs
   * never wait for one: a finished summary joins the transcript at the next model call.
   * For tests, and to let a summary finish before shutting down. Also waits for an
   * on-demand compaction in flight (`context.native.compaction.onDemand`), which joins
   * the transcript at the next user boundary.
   */
  async settleSummaries(): Promise<void> {
    await Promise.all([this.summarizer?.settle(), this.checkpoints.settle(), this.compactor?.settle()]);
  }

  /** True when the current episode was interrupted or paused and {@link Session.resume} has work to do. */
  get unfinished(): boolean {
    return pendingStep(this.state.messages) !== undefined;
  }

  /**
   * Tool calls waiting for a decision, in call order; decided ones leave the list (and
   * run, or are answered as rejected, at the next {@link Session.resume}). Worked out from the
   * transcript, so a session reopened in another process lists the same calls.
   */
  get pendingApprovals(): readonly ApprovalRequest[] {
    return this.approvals.pending;
  }

  /**
   * Approves a waiting call; `resume()` then runs it. The decision is persisted (in
   * the store's approval record) before this resolves, so it survives a restart. An
   * optional `note` reaches the model after the tool's output.
   */
  approve(call: ApprovalTarget, options: { note?: string } = {}): Promise<void> {
    return this.decide(() => this.approvals.decide(call, { decision: 'approved', ...options }));
  }

  /**
   * Rejects a waiting call; at `resume()` the model reads an error result naming the
   * `reason` instead of the tool's output. Persisted like {@link Session.approve}.
   */
  reject(call: ApprovalTarget, options: { reason?: string } = {}): Promise<void> {
    return this.decide(() => this.approvals.decide(call, { decision: 'rejected', ...options }));
  }

  /** Approves every waiting call; returns them. */
  approveAll(options: { note?: string } = {}): Promise<ApprovalRequest[]> {
    return this.decide(() => this.approvals.decideAll({ decision: 'approved', ...options }));
  }

  /** Rejects every waiting call; returns them. */
  rejectAll(options: { reason?: string } = {}): Promise<ApprovalRequest[]> {
    return this.decide(() => this.approvals.decideAll({ decision: 'rejected', ...options }));
  }

  private async decide<T>(record: () => Promise<T>): Promise<T> {
    if (this.running) throw new SessionBusyError(this.id);
    return record();
  }

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
    options: RunOptions<Schema> = {},
  ): Promise<EpisodeResult<OutputOf<Schema>>> {
    try {
      return this.run(toUserMessage(input), options) as Promise<EpisodeResult<OutputOf<Schema>>>;
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** Continues an interrupted episode (pending tool calls first). Returns at once when nothing is pending. */
  resume<Schema extends StandardSchemaV1 | undefined = undefined>(
    options: RunOptions<Schema> = {},
  ): Promise<EpisodeResult<OutputOf<Schema>>> {
    if (this.state.messages.length === 0) {
      return Promise.reject(new InvalidArgumentError('nothing to resume: the session is empty; call send() first'));
    }
    return this.run(undefined, options) as Promise<EpisodeResult<OutputOf<Schema>>>;
  }

  /**
   * Runs one episode for `input` and yields its events. Failures arrive as an
   * `error` event followed by `episode-finish`; the iterator itself only throws for
   * errors raised before the episode starts (e.g. a busy session). Breaking out of
   * the loop does not stop the run: abort its signal for that.
   */
  stream(input: SessionInput, options: RunOptions<StandardSchemaV1 | undefined> = {}): AsyncGenerator<AgentEvent> {
    return this.events(toUserMessage(input), options);
  }

  /** {@link Session.resume} as a stream of events (see {@link Session.stream}). */
  resumeStream(options: RunOptions<StandardSchemaV1 | undefined> = {}): AsyncGenerator<AgentEvent> {
    return this.events(undefined, options);
  }

  /** The agent's settings with this run's approval policy and structured answer. */
  private settingsFor(options: RunOptions<StandardSchemaV1 | undefined>): LoopSettings {
    const { approvalPolicy, output, durable } = options;
    const base = durable ? { ...this.settings, durable } : this.settings;
    const settings = approvalPolicy ? { ...base, approvalPolicy } : base;
    return output ? withOutput(settings, output, { mode: options.outputMode, retries: options.outputRetries }) : settings;
  }

  private async* events(
    input: UserMessage | undefined,
    options: RunOptions<StandardSchemaV1 | undefined>,
  ): AsyncGenerator<AgentEvent> {
    const queue: AgentEvent[] = [];
    let wake: (() => void) | undefined;
    let finished = false;
    let reported = false;
    let failure: unknown;
    const onEvent = (event: AgentEvent) => {
      options.onEvent?.(event);
      if (event.type === 'error' && !event.willRetry) reported = true;
      queue.push(event);
      wake?.();
    };
    this.run(input, { ...options, onEvent })
      .catch((error) => {
        failure = error;
      })
      .finally(() => {
        finished = true;
        wake?.();
      });
    for (;;) {
      const event = queue.shift();
      if (event) {
        yield event;
        continue;
      }
      if (finished) break;
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
      wake = undefined;
    }
    if (failure !== undefined && !reported) throw failure;
  }

  private async run(
    input: UserMessage | undefined,
    options: RunOptions<StandardSchemaV1 | undefined>,
  ): Promise<EpisodeResult<unknown>> {
    if (this.running) throw new SessionBusyError(this.id);
    this.running = true;
    let refreshed = false;
    try {
      const lease = await acquireWriter(this.store, this.id, this.state.messages.length);
      let result: EpisodeResult<unknown>;
      try {
        result = await this.runLeased(input, options, lease);
        refreshed = true;
      } catch (error) {
        // The episode's own error is the one to report; an unreleased lease lapses by itself.
        await lease.release().catch(() => {});
        throw error;
      }
      await lease.release();
      return result;
    } finally {
      // After a pause, an abort or a failure alike, the waiting calls are what the transcript says
      // (an episode that ran to its end worked them out already, under its lease).
      try {
        if (!refreshed) await this.approvals.refresh(this.state.messages);
      } finally {
        this.running = false;
      }
    }
  }

  /**
   * Compacts the transcript now with the provider's standalone compaction (OpenAI
   * `POST /responses/compact`, Anthropic on-demand compaction on the models that have it,
   * where the saved block stands for the whole transcript; other adapters throw {@link InvalidArgumentError}): the
   * context the next call would send goes to the provider, and its answer, an assistant
   * message with one opaque `compaction` part, is saved. Later calls send that part back
   * verbatim in place of the history before it, which stays in the transcript unsent.
   * Not while a run is going on ({@link SessionBusyError}).
   */
  async compact(options: { signal?: AbortSignal } = {}): Promise<AssistantMessage> {
    if (this.running) throw new SessionBusyError(this.id);
    this.running = true;
    const { store, id, state, atRest } = this;
    try {
      const lease = await acquireWriter(store, id, state.messages.length);
      try {
        if (lease.length !== state.messages.length)
          throw new SessionConflictError(id, 'another writer changed the session since it was opened; open it again. Nothing was written.');
        const message = await compactTranscript(this.settings, state, options.signal);
        if (atRest) await atRest.persist([message], state.messages.length, { lease });
        else await store.append(id, [message], { lease, expectedLength: state.messages.length });
        state.messages.push(message);
        await atRest?.settle({ lease });
        return message;
      } finally {
        await lease.release().catch(() => {});
      }
    } finally {
      this.running = false;
    }
  }

  /** One episode under `lease`: every write carries it, every append the length it expects. */
  private async runLeased(
    input: UserMessage | undefined,
    options: RunOptions<StandardSchemaV1 | undefined>,
    lease: SessionLease,
  ): Promise<EpisodeResult<unknown>> {
    const { store, id, state, atRest, approvals } = this;
    if (lease.length !== state.messages.length) {
      throw new SessionConflictError(
        id,
        `the store holds ${lease.length} messages but this Session was opened with ${state.messages.length}: another writer changed it since. Open it again with agent.session({ id }); nothing was written.`,
      );
    }
    const write = { lease };
    const settings = this.settingsFor(options);
    // What decides a message's packed form: the pack tuning, the budget and the counter.
    const counting: MessageFormOptions = { ...settings.pack, budget: settings.budget, tokenizer: settings.tokenizer };
    const result = await runEpisode(
      settings,
      {
        id,
        writer: new TranscriptWriter({ store, id, lease, atRest }, state, counting),
        emit: options.onEvent ?? (() => {}),
        takeNotices: () => this.notices.splice(0),
        approvals: {
          decided: (callId, sessionId) => approvals.decided(callId, sessionId),
          answered: (callIds) => approvals.answered(callIds, write),
        },
        summarizer: this.summarizer,
        compactor: this.compactor,
        checkpoints: this.checkpoints,
      },
      input,
      options.signal,
    );
    await atRest?.settle(write);
    await approvals.refresh(state.messages, { prune: write });
    return result;
  }
}

/**
 * The input as a user message, checked like a transcript line (it is persisted as
 * one, and a stored line that does not parse would keep the session from loading)
 * and copied, so later changes to the caller's objects do not reach the session.
 */
function toUserMessage(input: SessionInput): UserMessage {
  // Text alone is always a valid user message, and a string cannot be changed later: no copy or check to make.
  if (typeof input === 'string') return { role: 'user', content: input };
  const message = Array.isArray(input) ? { role: 'user', content: input } : input;
  if (message?.role !== 'user') {
    throw new InvalidArgumentError(`send() takes a user message (got role "${String(message?.role)}")`);
  }
  // A text message is copied without the full check, whose zod schemas it would build (see plain-message.ts).
  if (isPlainUserMessage(message)) return JSON.parse(JSON.stringify(message)) as UserMessage;
  return copyMessage(message, 1, 'send() input') as UserMessage;
}

/**
 * The session's checkpoint summaries (see checkpoint-summaries.ts): by the summarizer's
 * model or the agent's own; in the background when a summarizer is configured or the
 * agent has models to fail over to, else only when a call needs one.
 */
function checkpointSummarizer(settings: LoopSettings): CheckpointSummarizer {
  const options = settings.summarizer ?? {};
  const background = options.checkpoints !== false && (settings.summarizer !== undefined || settings.fallback !== undefined);
  // Without a model of its own it writes with the agent's, under the agent's stream controls.
  const model = options.model ?? withReasoningOutput(settings.model, settings.reasoningOutput);
  return new CheckpointSummarizer(options, model, background, settings.secrets);
}
