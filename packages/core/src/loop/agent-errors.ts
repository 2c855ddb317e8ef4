/**
 * Errors of the agent layer. (Tool input errors live in `@episodic/tools`; the
 * executor recognises them by their code, `invalid_tool_input`.)
 */
import { EpisodicError } from '../errors.js';

/**
 * A run was stopped through its `AbortSignal`. The transcript is consistent when it
 * is thrown: every tool call has a result (unfinished ones say they were aborted) and
 * a half-streamed model answer is not kept. Call `session.resume()` to continue.
 */
export class RunAbortedError extends EpisodicError {
  constructor(reason?: unknown) {
    super('run_aborted', 'The run was aborted; the transcript is consistent and session.resume() continues it.', {
      cause: reason,
    });
  }
}

/**
 * `send`, `stream` or `resume` found the session held by another writer (this
 * `Session` still running an episode, or another one); defined with the store rule it enforces.
 */
export { SessionBusyError } from '../store/session-errors.js';
