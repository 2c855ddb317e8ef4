/**
 * One model call of the agent loop: pack the transcript, stream the model, forward
 * its deltas as events, and recover from the failures that have a known cure:
 * retryable errors (rate limits, overload, 5xx, network) are retried with backoff,
 * honouring the provider's `retryAfter`; a context-overflow error repacks once with
 * a smaller budget, since the provider counted more tokens than the packer did.
 */
import { RunAbortedError } from '../errors/run-aborted-error.js';
import type { AgentEvent, AgentEventHandler } from './agent-events.js';
import { EpisodicError } from '../errors/episodic-error.js';
import { type CallHandoff, reasoningForCall, systemWithHandoff } from '../reasoning/handoff/handoff-call.js';
import type { AssistantMessage, ToolSpec, Usage } from '../message/message.js';
import type { ModelAdapter, ModelError, ModelRequest, OutputFormat, StopReason } from '../model/model-adapter.js';
import { collectResponse } from '../model/model-response.js';
import { packContext } from '../packing/pack-context.js';
import { type CheckpointContext, messagesForCall } from './checkpoints/checkpoint-call.js';
import { packCallOptions } from './pack-call-options.js';
import type { NativeContextOptions } from '../model/native-context.js';
import type { Retention } from '../message/retention.js';
import type { PackResult, PackState, PackStats, PackTuning } from '../packing/pack-types.js';
import type { HandoffOptions } from '../reasoning/handoff/handoff-note.js';
import type { SummaryRequest } from '../packing/pack-summary.js';
import type { SecretRedactor } from '../support/secret-redactor.js';
import type { TokenCounter } from '../tokens/token-counter.js';

/** After a context-overflow error the call is repacked once with this share of the budget. */
export const OVERFLOW_REPACK_FACTOR = 0.85;

/** Retries of failed model calls. */
export interface RetryOptions {
  /** Retries after the first attempt. Default 3. */
  maxRetries?: number;
  /** First backoff delay when the provider gives no `retryAfter`; doubles each retry. Default 1,000 ms. */
  baseDelayMs?: number;
  /** Longest backoff delay (a provider's `retryAfter` is honoured even when longer). Default 30,000 ms. */
  maxDelayMs?: number;
  /** How to wait; inject a fake in tests. Must reject when `signal` aborts. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** What every model call of an agent shares. */
export interface ModelCallSettings {
  model: ModelAdapter;
  system: string | undefined;
  toolSpecs: readonly ToolSpec[];
  /** Max input tokens per call, as the packer counts them. */
  budget: number;
  retention: Retention | undefined;
  /** Counts for the packer; its calibration is updated after every call. */
  tokenizer: TokenCounter;
  pack: PackTuning | undefined;
  maxOutputTokens: number | undefined;
  providerOptions: Record<string, unknown> | undefined;
  retry: RetryOptions | undefined;
  /** Cross-model hand-off of the current episode's foreign reasoning; off when undefined. */
  handoff?: HandoffOptions | undefined;
  /** The final answer's format, sent to adapters with native structured output; none when undefined. */
  outputFormat?: OutputFormat | undefined;
  /** Secret values kept out of tool results and error messages; none when undefined. */
  secrets?: SecretRedactor | undefined;
  /** The provider's own context management sent with every call (already filtered by the context policy). */
  nativeContext?: NativeContextOptions | undefined;
  /** Set by a fallback chain with another model left: a retry that would wait longer gives up (see fallback/model-fallback.ts). */
  maxRetryWaitMs?: number | undefined;
}

/** What one call packs: the transcript, the packer's state, the step, and the session's checkpoint summaries. */
export interface ModelCallContext extends CheckpointContext {
  packState: PackState | undefined;
}

/** A finished call with the pack that produced its request. */
export interface ModelCallResult {
  message: AssistantMessage;
  usage: Usage;
  stopReason: StopReason;
  stats: PackStats;
  state: PackState;
  /**
   * Input tokens of the request as the packer's counter sees them: the packed total
   * plus the hand-off note, which travels in the system prompt outside the pack.
   * Compare this, not `stats.tokens.total`, with the reported input tokens.
   */
  countedTokens: number;
  /** The calibration factor `countedTokens` was counted with (it may have moved since). */
  countedFactor: number;
  /** Evicted episodes the pack found without a summary line (see {@link PackResult.summaryRequest}). */
  summaryRequest?: SummaryRequest;
}

/**
 * Packs `messages` and calls the model, retrying as described above. Throws the final
 * error. Another model's reasoning and opaque data never reach the adapter; with
 * `handoff` set, the current episode's foreign traces travel as a note in this
 * call's system prompt instead (its tokens are taken from the packer's budget).
 */
export async function callModel(
  settings: ModelCallSettings,
  context: ModelCallContext,
  emit: AgentEventHandler,
  signal: AbortSignal | undefined,
): Promise<ModelCallResult> {
  const maxRetries = settings.retry?.maxRetries ?? 3;
  const { messages: ownView, handoff } = reasoningForCall(settings, context, emit);
  let budget = settings.budget - (handoff?.tokens ?? 0);
  // After a provider compacted, its summary stands for the history before it (its item, or text for other models).
  const messages = await messagesForCall(settings, context, ownView, { budget, emit, signal });
  let repacked = false;
  for (let attempt = 0; ;) {
    if (signal?.aborted) throw new RunAbortedError(signal.reason);
    const countedFactor = settings.tokenizer.calibration.factor;
    const packed = packContext(
      packCallOptions(settings.pack, {
        messages,
        system: settings.system,
        tools: settings.toolSpecs,
        budget,
        retention: settings.retention,
        tokenizer: settings.tokenizer,
        state: context.packState,
      }),
    );
    emit({ type: 'context-packed', step: context.step, stats: packed.stats, budget, model: settings.model.model });
    if (packed.stats.boundReasoningCut) emit(boundReasoningCut(context.step, packed.stats));
    try {
      const response = await sendPackedRequest(settings, packed, handoff, context.step, emit, signal);
      const countedTokens = packed.stats.tokens.total + (handoff?.tokens ?? 0);
      const { stats, state, summaryRequest } = packed;
      const { message, usage, stopReason } = response;
      const result: ModelCallResult = { message, usage, stopReason, stats, state, countedTokens, countedFactor };
      if (summaryRequest) result.summaryRequest = summaryRequest;
      return result;
    } catch (error) {
      if (signal?.aborted) throw new RunAbortedError(signal.reason);
      const failure = asModelError(error);
      if (failure?.kind === 'context-overflow' && !repacked) {
        repacked = true;
        budget = Math.floor(budget * OVERFLOW_REPACK_FACTOR);
        emit({ type: 'error', error: redacted(settings, failure), willRetry: true, retryInMs: 0 });
        continue;
      }
      // Redacted once, where it leaves the loop (run-loop.ts).
      if (!failure?.retryable || attempt >= maxRetries) throw error;
      const delay = retryDelay(failure, attempt, settings.retry);
      if (delay > (settings.maxRetryWaitMs ?? Infinity)) throw error;
      attempt += 1;
      emit({ type: 'error', error: redacted(settings, failure), willRetry: true, retryInMs: delay });
      await (settings.retry?.sleep ?? sleep)(delay, signal).catch((reason) => {
        throw signal?.aborted ? new RunAbortedError(signal.reason) : reason;
      });
    }
  }
}

/** The warning of a pack that had to change what the reasoning under way is bound to (`PackStats.boundReasoningCut`). */
function boundReasoningCut(step: number, stats: PackStats): AgentEvent {
  const appending =
    stats.boundAppendTokens === undefined
      ? ''
      : ` (sending it unchanged, the step's new results cut to a few lines each, would take ${stats.boundAppendTokens} tokens of a ${stats.budget} budget)`;
  return {
    type: 'warning',
    step,
    code: 'bound-reasoning-cut',
    message:
      `the context did not fit without changing what the last step was sent with${appending}, and this model binds its reasoning to that: ` +
      `the step goes on without it. ${stats.boundCutCause ? CUT_ADVICE[stats.boundCutCause] : 'Raise the budget, or lower lowWater so evictions at user turns leave more room.'}`,
  };
}

/** What to do about a forced change, by its cause (`PackStats.boundCutCause`). */
const CUT_ADVICE: Record<NonNullable<PackStats['boundCutCause']>, string> = {
  episode: 'The episode alone, its results cut to a few lines each, is over the budget: raise the budget, or split the task.',
  history: 'The episode outgrew the room its user turn left beside the history: raise the budget, or lower lowWater.',
  results: 'Results sent whole earlier in the episode took the room: raise the budget, or lower currentToolResultCap.',
};

/**
 * A retried error as its event shows it: without the agent's secrets (its own and the
 * environment's; the adapter has already taken its key out). An error that ends the
 * episode is redacted where it leaves the loop instead, so each error is redacted once.
 */
function redacted<T>(settings: { secrets?: SecretRedactor | undefined }, error: T): T {
  return settings.secrets ? settings.secrets.redactError(error) : error;
}

/** Sends one packed request and collects its response, forwarding deltas and warnings as agent events. */
async function sendPackedRequest(
  settings: ModelCallSettings,
  packed: PackResult,
  handoff: CallHandoff | undefined,
  step: number,
  emit: AgentEventHandler,
  signal: AbortSignal | undefined,
): Promise<{ message: AssistantMessage; usage: Usage; stopReason: StopReason }> {
  const request: ModelRequest = {
    system: systemWithHandoff(packed.system, handoff),
    messages: packed.messages,
    cacheBreakpoints: packed.stats.cacheBreakpoints,
    ...(settings.toolSpecs.length > 0 ? { tools: settings.toolSpecs } : {}),
    ...(settings.maxOutputTokens === undefined ? {} : { maxOutputTokens: settings.maxOutputTokens }),
    ...(settings.providerOptions ? { providerOptions: settings.providerOptions } : {}),
    ...(settings.outputFormat ? { output: settings.outputFormat } : {}),
    ...(settings.nativeContext ? { nativeContext: settings.nativeContext } : {}),
  };
  const { message, usage, stopReason } = await collectResponse(settings.model, request, { signal }, (event) => {
    if (event.type === 'reasoning-delta' || event.type === 'text-delta') emit({ type: event.type, step, text: event.text });
    else if (event.type === 'warning') {
      emit({ type: 'warning', step, message: event.message, ...(event.code === undefined ? {} : { code: event.code }) });
    }
  });
  return { message, usage, stopReason };
}

/** The longest delay `setTimeout` honours (2^31 - 1 ms, about 24.8 days). */
export const MAX_RETRY_DELAY_MS = 2 ** 31 - 1;

/**
 * The provider's `retryAfter` when given, else exponential backoff with jitter (50 to
 * 100% of the step). At most {@link MAX_RETRY_DELAY_MS}: a longer `setTimeout` would fire
 * at once (a `retry-after` of 3,000,000 s would retry after 1 ms).
 */
export function retryDelay(error: ModelError, attempt: number, options: RetryOptions = {}): number {
  if (error.retryAfter !== undefined && error.retryAfter >= 0) return Math.min(MAX_RETRY_DELAY_MS, Math.ceil(error.retryAfter * 1000));
  const step = Math.min(options.maxDelayMs ?? 30_000, (options.baseDelayMs ?? 1_000) * 2 ** attempt);
  return Math.round(step * (0.5 + Math.random() / 2));
}

/** The error as a {@link ModelError}, recognised across duplicated copies of this package. */
export function asModelError(error: unknown): ModelError | undefined {
  if (!EpisodicError.isInstance(error) || !error.code.startsWith('model_')) return undefined;
  return typeof (error as Partial<ModelError>).kind === 'string' ? (error as ModelError) : undefined;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
