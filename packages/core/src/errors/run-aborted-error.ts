/**
 * The error a run throws when its `AbortSignal` stops it.
 */
import { EpisodicError } from './episodic-error.js';

/**
 * A run was stopped through its `AbortSignal`. The transcript is consistent when it
 * is thrown: every tool call has a result (unfinished ones say they were aborted) and
 * a half-streamed model answer is not kept. Call `session.resume()` to continue.
 */
export class RunAbortedError extends EpisodicError<'run_aborted'> {
  constructor(reason?: unknown) {
    super('run_aborted', 'The run was aborted; the transcript is consistent and session.resume() continues it.', {
      cause: reason,
    });
  }
}
