/**
 * A failed model call, as every adapter reports it: a kind the loop acts on (retry,
 * repack, give up) and the provider's status and wait hint when it gave them.
 */
import { EpisodicError } from './episodic-error.js';

/** Kinds of model failure, each with a clear meaning for the loop. */
export type ModelErrorKind =
  | 'rate-limit'
  | 'overloaded'
  | 'server'
  | 'context-overflow'
  | 'auth'
  | 'invalid-request'
  | 'aborted'
  | 'network'
  | 'protocol';

/** The `code` of a {@link ModelError}: `model_` and its kind with `_` for `-`, such as `model_rate_limit`. */
export type ModelErrorCode =
  | 'model_rate_limit'
  | 'model_overloaded'
  | 'model_server'
  | 'model_context_overflow'
  | 'model_auth'
  | 'model_invalid_request'
  | 'model_aborted'
  | 'model_network'
  | 'model_protocol';

/** A failed model call, mapped from a provider error. */
export class ModelError extends EpisodicError<ModelErrorCode> {
  readonly kind: ModelErrorKind;
  /** True when the same call may succeed later (429, 529, 5xx, network). */
  readonly retryable: boolean;
  readonly status: number | undefined;
  /** Seconds the provider asked to wait, if it said. */
  readonly retryAfter: number | undefined;

  constructor(
    kind: ModelErrorKind,
    message: string,
    options: { retryable?: boolean; status?: number; retryAfter?: number; cause?: unknown } = {},
  ) {
    super(`model_${kind.replace('-', '_')}` as ModelErrorCode, message, { cause: options.cause });
    this.kind = kind;
    this.retryable = options.retryable ?? false;
    this.status = options.status;
    this.retryAfter = options.retryAfter;
  }
}
