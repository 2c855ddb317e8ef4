/**
 * On-demand compaction (Anthropic `compaction: {type: "summarize"}`, beta
 * `compact-2026-09-04`; https://platform.claude.com/docs/en/build-with-claude/compaction-on-demand,
 * .../compaction-keep-recent-turns and .../compaction-background, read 2026-12-05): the
 * compaction loop those pages describe, run by the agent loop.
 *
 * At each user boundary (before a new episode's user message is saved, and when an
 * episode ends) the loop calls {@link OnDemandCompactor.atUserBoundary}. Once the last
 * call's input and output passed the threshold, it asks the model to summarize the
 * transcript before the last `keepTurns` episodes (on-demand-request.ts), in the
 * background by default: the conversation goes on on its full history meanwhile. At the
 * first user boundary after the answer came, the answer is appended to the transcript
 * (the swap): an assistant message holding the signed block, which names how many of the
 * transcript's first messages it stands for. They stay stored, unsent; every later call
 * sends the block first, then the messages after them word for word (on-demand-cut.ts).
 *
 * Never inside a step: the swap changes what later calls send, so it waits for a user
 * boundary, where no step's reasoning waits for its tool results (bound thinking,
 * bound-reasoning.ts). A step waits for a compaction in flight only when the last call
 * filled the budget (the next pack would otherwise evict what the summary covers).
 *
 * A failed compaction (no summary: another stop reason, or a block with null content) is a
 * no-op: it is stored for its cost, never sent, and the loop asks again after the next
 * episode. An answer lost to a crash before its swap is asked for again by the reopened
 * session (the history is whole); one swapped in before the crash is in the transcript,
 * so the same messages are never compacted twice. Under a durable runtime the requests
 * are steps of the episode instead (on-demand-durable.ts).
 */
import { EpisodicError } from '../../errors/episodic-error.js';
import type { AssistantMessage, Message, Usage } from '../../message/message.js';
import { episodeUnfinished, unansweredToolCalls } from '../../message/episodes.js';
import type { ModelAdapter } from '../../model/model-adapter.js';
import { DEFAULT_COMPACTION_SHARE, DEFAULT_KEEP_TURNS, type NativeContextOptions } from '../../model/native-context.js';
import { estimateCost } from '../../model/usage-totals.js';
import { onDemandPartOf } from '../../packing/on-demand-cut.js';
import type { WarningEvent } from '../../reasoning/reasoning-events.js';
import type { AgentEventHandler } from '../agent-events.js';
import type { Pricing } from '../../model/model-profile.js';
import { asModelError, type ModelCallSettings } from '../model-call.js';
import { chooseCut, compactionRequest, coveredMessages } from './on-demand-request.js';

/** Most output tokens of a compaction call (its thinking included; the docs ask for several thousand). */
export const ON_DEMAND_MAX_OUTPUT_TOKENS = 8192;

/** What a compaction call needs of the loop's settings (a subset of `LoopSettings`). */
export type CompactionCallSettings = ModelCallSettings & { pricing: Pricing | undefined };

/** The on-demand compaction an agent runs (resolved from `nativeContext.compaction`). */
export interface OnDemandCompactionSettings {
  /** Input plus output tokens of the last call past which a compaction is asked for. */
  threshold: number;
  /** Episodes kept word for word after the summary. */
  keepTurns: number;
  /** Runs while the conversation goes on (see the module comment). */
  background: boolean;
  /** Replaces the provider's summarization prompt. */
  instructions?: string | undefined;
}

/**
 * Splits the native options a policy sends: when their compaction is on demand and the
 * model can compact (`ModelAdapter.compact`), the settings of the on-demand compaction,
 * and the options without the server-side compaction (the API refuses a threshold
 * compaction on a request that carries a signed block).
 */
export function chooseOnDemand(
  native: NativeContextOptions | undefined,
  model: ModelAdapter,
  budget: number,
): { nativeContext: NativeContextOptions | undefined; onDemand: OnDemandCompactionSettings | undefined } {
  const compaction = native?.compaction;
  if (!native || !compaction?.onDemand || !model.compact) return { nativeContext: native, onDemand: undefined };
  const { compaction: _threshold, ...rest } = native;
  const onDemand: OnDemandCompactionSettings = {
    threshold: compaction.threshold ?? Math.floor(budget * DEFAULT_COMPACTION_SHARE),
    keepTurns: Math.max(0, Math.floor(compaction.keepTurns ?? DEFAULT_KEEP_TURNS)),
    background: compaction.background ?? true,
    ...(compaction.instructions === undefined ? {} : { instructions: compaction.instructions }),
  };
  return { nativeContext: Object.keys(rest).length > 0 ? rest : undefined, onDemand };
}

/** A compaction in flight: the cut it summarizes up to, and its answer once it came. */
interface Pending {
  cut: number;
  done: Promise<void>;
  message?: AssistantMessage;
}

/** One session's on-demand compactions: at most one in flight, swapped in at user boundaries. */
export class OnDemandCompactor {
  private pending: Pending | undefined;
  private readonly warnings: WarningEvent[] = [];
  /** The cut whose compaction failed last: asked for again only once the cut moved on. */
  private failedCut: number | undefined;

  constructor(readonly options: OnDemandCompactionSettings) {}

  /**
   * At a user boundary (the transcript ends with a finished episode): swaps in a finished
   * compaction, else starts one when the last call passed the threshold. Waits only in
   * the cases the module comment names. Appends through `append`; never throws for a
   * failed compaction (a warning says why).
   */
  async atUserBoundary(
    settings: CompactionCallSettings,
    messages: readonly Message[],
    { append, emit }: { append: (messages: Message[]) => Promise<void>; emit: AgentEventHandler },
  ): Promise<void> {
    // A durable run compacts in steps of its journal instead (on-demand-durable.ts).
    if (!settings.model.compact || !finished(messages)) return this.flush(emit);
    const last = lastCallTokens(messages, settings);
    const inFlight = this.pending;
    if (inFlight && !inFlight.message && (!this.options.background || last >= settings.budget)) await inFlight.done;
    if (!this.pending && last >= this.options.threshold) {
      const started = this.start(settings, messages);
      if (started && !this.options.background) await started.done;
    }
    const pending = this.pending;
    this.flush(emit);
    if (!pending?.message) return;
    this.pending = undefined;
    // Stale when the transcript got a newer compaction meanwhile (`session.compact()`): the answer is dropped.
    if (pending.cut <= coveredMessages(messages, settings.model.model)) return;
    await append([pending.message]);
  }

  /** Waits for the compaction in flight, if any (for tests and shutdown; the loop waits only as described). */
  async settle(): Promise<void> {
    await this.pending?.done;
  }

  private flush(emit: AgentEventHandler): void {
    for (const warning of this.warnings.splice(0)) emit(warning);
  }

  /** Starts the compaction of everything before the kept episodes, unless no cut summarizes anything new. */
  private start(settings: CompactionCallSettings, messages: readonly Message[]): Pending | undefined {
    const cut = chooseCut(messages, this.options.keepTurns, settings.model.model);
    if (cut === undefined || cut === this.failedCut) return undefined;
    const pending: Pending = { cut, done: Promise.resolve() };
    pending.done = requestCompaction(settings, this.options, messages, cut)
      .then(({ message, failure }) => {
        pending.message = message;
        if (failure === undefined) return;
        this.failedCut = cut;
        this.warn(failure);
      })
      .catch((error: unknown) => {
        // A transient failure (529 `compaction_unavailable`, network) is asked again at the next boundary.
        if (!asModelError(error)?.retryable) this.failedCut = cut;
        this.pending = undefined;
        this.warn(compactionFailure(settings, cut, error));
      });
    this.pending = pending;
    return pending;
  }

  private warn(message: string): void {
    this.warnings.push(compactionWarning(message));
  }
}

/** The warning of a failed on-demand compaction (`compaction-failed`). */
export function compactionWarning(message: string): WarningEvent {
  return { type: 'warning', step: 0, code: 'compaction-failed', message };
}

/** Why the compaction of the first `cut` messages failed with `error` (redacted), as its warning says. */
export function compactionFailure(settings: CompactionCallSettings, cut: number, error: unknown): string {
  const raw = EpisodicError.isInstance(error) || error instanceof Error ? error.message : String(error);
  const reason = settings.secrets ? settings.secrets.redact(raw) : raw;
  return `The on-demand compaction of the first ${cut} messages failed (${reason}); the history goes whole, and a later episode asks again.`;
}

/**
 * Asks the model to summarize the messages before `cut` (on-demand-request.ts): its answer
 * as a transcript line (what it summarizes, its usage and cost), and, when it holds no
 * summary, the warning that says so. Throws when the call fails.
 */
export async function requestCompaction(
  settings: CompactionCallSettings,
  options: OnDemandCompactionSettings,
  messages: readonly Message[],
  cut: number,
): Promise<{ message: AssistantMessage; failure?: string }> {
  const { model } = settings;
  const request = compactionRequest(settings, messages, cut, ON_DEMAND_MAX_OUTPUT_TOKENS);
  // The one native option of a compaction request: its summarization prompt.
  const { instructions } = options;
  const sent = instructions === undefined ? request : { ...request, nativeContext: { compaction: { instructions } } };
  const result = await (model.compact as NonNullable<ModelAdapter['compact']>)(sent);
  const usage: Usage = settings.pricing ? { ...result.usage, costUsd: estimateCost(result.usage, settings.pricing) } : result.usage;
  const content = result.message.content.map((part) => (part.type === 'compaction' ? { ...part, summarizedMessages: cut } : part));
  if (!content.some((part) => part.type === 'compaction'))
    throw new EpisodicError('compaction_missing', `${model.model.provider} answered the compaction request without a compaction block`);
  const message: AssistantMessage = { ...result.message, content, model: result.message.model ?? model.model, usage };
  const failed = content.find((part) => part.type === 'compaction' && part.failed === true);
  if (!failed) return { message };
  const reason = failed.providerData?.stopReason;
  const why = typeof reason === 'string' ? ` (stop reason ${reason})` : '';
  return { message, failure: `The on-demand compaction of the first ${cut} messages returned no summary${why}; the history goes whole, and a later episode asks again.` };
}

/** True at a user boundary: the transcript's current episode is finished (no tool call open, no message unanswered). */
export function finished(messages: readonly Message[]): boolean {
  return messages.length > 0 && unansweredToolCalls(messages) === undefined && !episodeUnfinished(messages);
}

/**
 * What the next call sends, as the last call's usage says: its input (cached and written
 * tokens included) plus its output, which the next call sends back (the docs' estimate).
 * 0 before this model's first call, and right after a swap (that call sent what the
 * summary has replaced since).
 */
export function lastCallTokens(messages: readonly Message[], settings: CompactionCallSettings): number {
  const model = settings.model.model;
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index] as Message;
    if (message.role !== 'assistant') continue;
    const part = onDemandPartOf(message);
    if (part) {
      if (part.failed !== true) return 0;
      continue;
    }
    if (message.usage && message.model?.provider === model.provider && message.model?.id === model.id)
      return message.usage.inputTokens + message.usage.outputTokens;
  }
  return 0;
}
