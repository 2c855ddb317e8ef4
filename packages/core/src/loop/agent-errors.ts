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

/** `send`, `stream` or `resume` was called while the session was still running an episode. */
export class SessionBusyError extends EpisodicError {
  constructor(sessionId: string) {
    super(
      'session_busy',
      `Session "${sessionId}" is already running an episode: await it (or abort it) before sending again.`,
    );
  }
}
