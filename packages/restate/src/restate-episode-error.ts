/**
 * Errors of `@episodic/restate`: an attempt that ended under a running episode, a
 * Restate server or endpoint that cannot be reached or refuses a request, and an
 * episode that failed for good.
 */
import { EpisodicError } from '@episodic/core';

/** The codes of {@link RestateEpisodeError}. */
export type RestateEpisodeErrorCode =
  | 'restate_attempt_ended'
  | 'restate_request_failed'
  | 'restate_episode_failed'
  | 'restate_server_failed';

/** A failure talking to Restate, or of an episode run on it; `code` says which. */
export class RestateEpisodeError extends EpisodicError<RestateEpisodeErrorCode> {
  constructor(code: RestateEpisodeErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}
