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
}

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
  /**
   * Runs the tool. `args` is the parsed JSON the model produced (not yet validated:
   * the tool validates it and throws `ToolInputError` of `@episodic/tools` when it does not fit).
   */
  execute(args: unknown, context: ToolContext): Promise<ToolOutput>;
}
