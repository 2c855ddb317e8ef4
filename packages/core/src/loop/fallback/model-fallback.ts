/**
 * Model fallback: an agent with `fallback: [modelB, modelC]` retries a step on the
 * next model when its model fails with an error worth failing over (overloaded, a
 * server error or a dropped connection after the retries, a rate limit whose wait
 * is past a bound, a model the provider does not know). Errors that another model
 * would meet too (a bad request, a bad key, a context overflow) end the run as before.
 *
 * Which model a step goes to: the one that answered the current episode's last step
 * when it belongs to the chain, else the primary. An episode that failed over stays
 * on its fallback (its own reasoning goes back to it, no ping-pong of hand-off notes,
 * and a resume after a crash continues where it was); the next episode starts on
 * the primary again. Each model is tried at most once per step, in chain order from
 * the active one. The answering step records the models that failed before it
 * (`AssistantMessage.fallback`), so the switch is in the transcript.
 *
 * The reasoning of the model that failed reaches the next one only as a hand-off
 * note (handoff/handoff-call.ts): calls in a chain use hand-off unless
 * `fallback.handoff` is false, and nothing foreign is sent on the wire.
 */
import { FallbackExhaustedError, type FailoverReason } from '../../errors/fallback-error.js';
import { InvalidArgumentError } from '../../errors/input-errors.js';
import { RunAbortedError } from '../../errors/run-aborted-error.js';
import { Calibration } from '../../tokens/calibration.js';
import { createTokenCounter } from '../../tokens/token-counter.js';
import { currentEpisodeStart } from '../../message/episodes.js';
import type { AssistantMessage, FailedModelCall, Message, ModelRef } from '../../message/message.js';
import type { ModelAdapter, ModelError } from '../../model/model-adapter.js';
import type { Pricing } from '../../model/model-profile.js';
import { type ContextPolicy, type NativeContextOptions, nativeOptionsFor } from '../../model/native-context.js';
import type { HandoffOptions } from '../../reasoning/handoff/handoff-note.js';
import type { AgentEventHandler } from '../agent-events.js';
import { asModelError, type ModelCallSettings } from '../model-call.js';

/** A fallback model with settings of its own (another provider's options do not fit it). */
export interface FallbackModel {
  model: ModelAdapter;
  /** Sent with this model's calls in place of the agent's `providerOptions`. Default: none. */
  providerOptions?: Record<string, unknown>;
}

/** Options of an agent's fallback chain (`AgentOptions.fallback`; how it walks its models: model-fallback.ts). */
export interface FallbackOptions {
  /** The models to fail over to, in order after the agent's `model`. */
  models: readonly (ModelAdapter | FallbackModel)[];
  /**
   * A rate limit (or overload) whose provider-given wait is longer than this fails
   * over at once instead of waiting, when another model is left. Default 10,000 ms.
   */
  maxRetryWaitMs?: number;
  /** Decides which errors fail over; default {@link failoverReason}. Return undefined to end the run. */
  when?: (error: ModelError) => FailoverReason | undefined;
  /** The hand-off note for the model taking over; `false` sends none. Default on (3 traces, 2,000 tokens). */
  handoff?: boolean | HandoffOptions;
}

/** Default {@link FallbackOptions.maxRetryWaitMs}. */
export const DEFAULT_MAX_RETRY_WAIT_MS = 10_000;

/** Longest error message kept on a step's fallback record. */
const RECORDED_MESSAGE_LENGTH = 500;

/**
 * The default classification, by the typed error kinds every adapter maps provider
 * errors to (the per-provider rows live in the providers' error table): overload,
 * server errors, rate limits and dropped connections fail over once the call's own
 * retries are spent; a 404 is the provider saying it does not know the model (or
 * the endpoint), which another provider may well serve. Everything else, a bad
 * request, a bad key, a context overflow, would fail on any model.
 */
export function failoverReason(error: ModelError): FailoverReason | undefined {
  switch (error.kind) {
    case 'overloaded':
      return 'overloaded';
    case 'server':
      return 'server-error';
    case 'rate-limit':
      return 'rate-limit';
    case 'network':
      return 'unreachable';
    case 'invalid-request':
      return error.status === 404 ? 'model-not-found' : undefined;
    default:
      return undefined;
  }
}

/** What a fallback model's calls take from the agent's options. */
export interface ChainDefaults {
  /** The budget the agent was given, if any (else each model's window minus its max output). */
  budget: number | undefined;
  maxOutputTokens: number | undefined;
  retention: ModelCallSettings['retention'];
  policy: ContextPolicy;
}

/** The settings one link of the chain changes in the agent's call settings. */
type LinkSettings = Partial<ModelCallSettings> & { model: ModelAdapter; pricing?: Pricing | undefined };

const same = (a: ModelRef | undefined, b: ModelRef) => a !== undefined && a.provider === b.provider && a.id === b.id;
const label = (model: ModelRef) => `${model.provider}/${model.id}`;

/** An agent's models in fallback order, and the calls that walk them. */
export class FallbackChain {
  private readonly links: LinkSettings[];
  private readonly when: (error: ModelError) => FailoverReason | undefined;
  private readonly maxRetryWaitMs: number;
  private readonly handoff: HandoffOptions | undefined;

  constructor(primary: ModelAdapter, options: FallbackOptions, defaults: ChainDefaults) {
    this.links = [{ model: primary }, ...options.models.map((entry) => linkFor(entry, defaults))];
    this.when = options.when ?? failoverReason;
    this.maxRetryWaitMs = options.maxRetryWaitMs ?? DEFAULT_MAX_RETRY_WAIT_MS;
    this.handoff = options.handoff === false ? undefined : options.handoff === true ? {} : (options.handoff ?? {});
  }

  /** The models of the chain, primary first. */
  get models(): ModelRef[] {
    return this.links.map((link) => link.model.model);
  }

  /** The fallback models (the primary left out), each with the context management its calls send. */
  get fallbackContext(): { model: ModelRef; nativeContext: NativeContextOptions | undefined }[] {
    return this.links.slice(1).map((link) => ({ model: link.model.model, nativeContext: link.nativeContext }));
  }

  /** The call settings of the chain model `model` (the agent's when it is the primary or none of them). */
  settingsOfModel<S extends ModelCallSettings & { pricing?: Pricing | undefined }>(settings: S, model: ModelRef | undefined): S {
    const link = this.links.find((candidate) => same(model, candidate.model.model));
    if (!link || link === this.links[0]) return settings;
    return { ...settings, ...link, handoff: settings.handoff ?? this.handoff };
  }

  /** The links to try for the next step, the active one first (see the file comment). */
  private order(messages: readonly Message[]): LinkSettings[] {
    let active = 0;
    for (let index = messages.length - 1; index >= currentEpisodeStart(messages); index -= 1) {
      const message = messages[index] as Message;
      if (message.role !== 'assistant') continue;
      active = Math.max(0, this.links.findIndex((link) => same(message.model, link.model.model)));
      break;
    }
    return [...this.links.slice(active), ...this.links.slice(0, active)];
  }

  /**
   * One step's model call down the chain: `callOne` with the active model's settings
   * first, the next model's on an error worth failing over. Throws the first other
   * error as it came, and a {@link FallbackExhaustedError} naming every model's error
   * when all of them failed.
   */
  async call<S extends ModelCallSettings, R extends { message: AssistantMessage }>(
    settings: S,
    context: { messages: readonly Message[]; step: number; emit: AgentEventHandler; signal: AbortSignal | undefined },
    callOne: (settings: S) => Promise<R>,
  ): Promise<R> {
    const { emit, signal } = context;
    const order = this.order(context.messages);
    const failed: FailedModelCall[] = [];
    for (const [index, link] of order.entries()) {
      const last = index === order.length - 1;
      const linked = { ...settings, ...link, handoff: settings.handoff ?? this.handoff };
      // With another model left, a long provider-given wait is better spent there.
      const callSettings = last ? linked : { ...linked, maxRetryWaitMs: this.maxRetryWaitMs };
      try {
        const result = await callOne(callSettings);
        // Tagged here too: an adapter that leaves `model` out would make the answer look like the primary's.
        const message = { ...result.message, model: result.message.model ?? link.model.model };
        return { ...result, message: failed.length === 0 ? message : { ...message, fallback: { failed } } };
      } catch (error) {
        if (signal?.aborted || RunAbortedError.isInstance(error)) throw error;
        const failure = asModelError(settings.secrets ? settings.secrets.redactError(error) : error);
        const reason = failure ? this.when(failure) : undefined;
        if (!failure || !reason) throw error;
        failed.push(record(link.model.model, failure, reason));
        if (last) {
          const attempts = failed.map((entry) => ({ model: label(entry.model), code: entry.code, message: entry.message }));
          throw new FallbackExhaustedError(context.step, attempts, failure);
        }
        const to = (order[index + 1] as LinkSettings).model.model;
        emit({ type: 'error', error: failure, willRetry: true, retryInMs: 0 });
        emit({ type: 'model-fallback', step: context.step, from: link.model.model, to, reason, code: failure.code });
      }
    }
    throw new Error('unreachable: a fallback chain has at least one model');
  }
}

function record(model: ModelRef, failure: ModelError, reason: FailoverReason): FailedModelCall {
  return {
    model,
    code: failure.code,
    reason,
    ...(failure.status === undefined ? {} : { status: failure.status }),
    message: failure.message.slice(0, RECORDED_MESSAGE_LENGTH),
  };
}

/**
 * A fallback model's own settings: its budget (the agent's when given, never past
 * its window), output limit, retention, prices, context management and a tokenizer
 * whose calibration learns this model alone.
 */
function linkFor(entry: ModelAdapter | FallbackModel, defaults: ChainDefaults): LinkSettings {
  const { model, providerOptions } = 'stream' in entry ? { model: entry, providerOptions: undefined } : entry;
  const profile = model.profile;
  const maxOutputTokens = defaults.maxOutputTokens ?? profile?.maxOutputTokens;
  const fits = profile ? profile.contextWindow - (maxOutputTokens ?? 0) : undefined;
  const budget = Math.min(defaults.budget ?? fits ?? Infinity, fits ?? Infinity);
  if (!(budget > 0 && Number.isFinite(budget))) {
    throw new InvalidArgumentError(
      `fallback model ${label(model.model)} has no profile: give the agent a budget so its calls can be packed`,
    );
  }
  return {
    model,
    budget,
    maxOutputTokens,
    retention: defaults.retention ?? (defaults.policy === 'native' ? 'all' : profile?.retention),
    pricing: profile?.pricing,
    providerOptions,
    nativeContext: nativeOptionsFor(defaults.policy, profile?.nativeContext, budget),
    tokenizer: createTokenCounter({ calibration: new Calibration({ initial: profile?.tokenizerFactor ?? 1 }) }),
  };
}
