/**
 * The error of a step that every model of an agent's fallback chain failed.
 */
import { EpisodicError } from './episodic-error.js';

/** Why an error is worth trying another model for (see `failoverReason`). */
export type FailoverReason = 'overloaded' | 'server-error' | 'rate-limit' | 'unreachable' | 'model-not-found';

/** One model's failure, as the error reports it. */
export interface FallbackAttempt {
  /** `provider/id` of the model. */
  model: string;
  /** Its error's `code`, e.g. `model_overloaded`. */
  code: string;
  message: string;
}

/**
 * Every model of the fallback chain failed the same step with an error worth failing
 * over (overload, server error, rate limit, unreachable, model not found). `attempts`
 * names each model and its error, in the order they were tried; `cause` is the last error.
 */
export class FallbackExhaustedError extends EpisodicError<'fallback_exhausted'> {
  readonly attempts: readonly FallbackAttempt[];
  readonly step: number;

  constructor(step: number, attempts: readonly FallbackAttempt[], cause: unknown) {
    const list = attempts.map((attempt) => `${attempt.model}: ${attempt.code} (${attempt.message})`).join('; ');
    super(
      'fallback_exhausted',
      `step ${step}: every model of the fallback chain failed: ${list}. The transcript is consistent; ` +
        'session.resume() tries the step again once a model is back.',
      { cause },
    );
    this.attempts = attempts;
    this.step = step;
  }
}
