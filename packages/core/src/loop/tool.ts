/**
 * The tool contract the agent loop executes. `@episodic/tools` builds these from
 * zod schemas (`defineTool`); core only needs this shape, so it imports no tool code.
 */
import type { ToolSpec } from '../message/message.js';

/** What a tool's `execute` receives besides its arguments. */
export interface ToolContext {
  /** Aborted on timeout or when the whole run is aborted. */
  signal: AbortSignal;
  toolCallId: string;
  /** The session whose transcript holds the call (absent when a tool runs outside a session). */
  sessionId?: string;
}

/** What a `needsApproval` predicate receives besides the call's arguments. */
export interface ApprovalContext {
  toolCallId: string;
  sessionId: string;
}

/**
 * Whether a call needs a person's approval before it runs: always, never, or per
 * call. A predicate gets the call's parsed (not yet validated) arguments. It is
 * asked again when a paused session is reopened, so it must answer the same for the
 * same call; when it throws, the call needs approval.
 */
export type NeedsApproval = boolean | ((args: unknown, context: ApprovalContext) => boolean | Promise<boolean>);

/** What a tool returns: text for the model, and whether it is an error. */
export interface ToolOutput {
  content: string;
  isError?: boolean;
}

/** A tool the agent loop can run. */
export interface AgentTool {
  readonly spec: ToolSpec;
  /** Per-call timeout in milliseconds (the loop's default applies when absent). */
  readonly timeoutMs?: number;
  /** Pauses the episode before a call runs until a person approves or rejects it (see `session.approve()`). Default false. */
  readonly needsApproval?: NeedsApproval;
  /**
   * Runs the tool. `args` is the parsed JSON the model produced (not yet validated:
   * the tool validates it and throws {@link ToolInputError} when it does not fit).
   */
  execute(args: unknown, context: ToolContext): Promise<ToolOutput>;
}
