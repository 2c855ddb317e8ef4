/**
 * Errors of the agent layer: tool input that does not fit, and runs stopped on purpose.
 */
import { EpisodicError } from './errors.js';

/** One problem with a tool's input, e.g. from a zod issue. */
export interface ToolInputIssue {
  /** Dotted path inside the arguments, empty for the whole object. */
  path: string;
  message: string;
}

/**
 * Thrown by a tool's `execute` when its arguments do not fit its schema. The agent
 * loop turns it into an error tool result naming the issues, so the model can retry
 * with fixed arguments.
 */
export class ToolInputError extends EpisodicError {
  readonly issues: readonly ToolInputIssue[];

  constructor(message: string, issues: readonly ToolInputIssue[] = []) {
    super('invalid_tool_input', message);
    this.issues = issues;
  }
}

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
