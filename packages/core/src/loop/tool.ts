/**
 * The tool contract the agent loop executes. `@episodic/tools` builds these from
 * zod schemas (`defineTool`); core only needs this shape, so it imports no tool code.
 */
import type { SubSessionReference, ToolSpec } from '../message/message.js';
import type { ApprovalDecision } from '../store/approval-record.js';
import { InvalidArgumentError } from '../errors/input-errors.js';
import type { ApprovalPolicy, ApprovalRequest } from './approval-policy.js';

// The names every provider accepts: OpenAI and Anthropic allow [a-zA-Z0-9_-]{1,64};
// Gemini also wants a letter or `_` first.
// https://ai.google.dev/api/caching#FunctionDeclaration
const TOOL_NAME = /^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$/;

/** Throws an {@link InvalidArgumentError} for a tool name some provider rejects. */
export function assertToolName(name: string): void {
  if (!TOOL_NAME.test(name)) {
    throw new InvalidArgumentError(
      `Tool name "${name}" is not accepted by every provider: use 1 to 64 letters, digits, "_" or "-", starting with a letter or "_".`,
    );
  }
}

/** What a tool's `execute` receives besides its arguments. */
export interface ToolContext {
  /** Aborted on timeout or when the whole run is aborted. */
  signal: AbortSignal;
  toolCallId: string;
  /** The session whose transcript holds the call (absent when a tool runs outside a session). */
  sessionId?: string;
  /**
   * A decision made through this session on a call waiting in another one (a
   * sub-agent's session): how an agent tool hands approvals down.
   */
  approvalFor?: (sessionId: string, callId: string) => ApprovalDecision | undefined;
  /** The running session's approval policy, for sub-agents that have none of their own. */
  approvalPolicy?: ApprovalPolicy;
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
 * same call; when it throws, or does not answer within the tool's `timeoutMs` (default
 * 120 s), the call needs approval.
 */
export type NeedsApproval = boolean | ((args: unknown, context: ApprovalContext) => boolean | Promise<boolean>);

/** What a tool returns: text for the model, and whether it is an error. */
export interface ToolOutput {
  content: string;
  isError?: boolean;
  /** Set by agent tools: the sub-session that produced the output, and its usage (kept on the result). */
  subSession?: SubSessionReference;
  /**
   * Set when the call cannot finish before these calls (in a sub-agent's session)
   * are approved or rejected: it gets no result yet, and the session pauses with
   * them among its own pending approvals. The call runs again at `resume()`.
   */
  pendingApprovals?: readonly ApprovalRequest[];
  /** Set by the `final_answer` tool of a structured answer: the result ends the episode. */
  finalAnswer?: boolean;
}

/** A tool the agent loop can run. */
export interface AgentTool {
  readonly spec: ToolSpec;
  /** Per-call timeout in milliseconds (the loop's default applies when absent). */
  readonly timeoutMs?: number;
  /** Pauses the episode before a call runs until a person approves or rejects it (see `session.approve()`). Default false. */
  readonly needsApproval?: NeedsApproval;
  /**
   * False for a tool whose effect must not happen twice (a payment, an email). Under a
   * durable runtime such a call that may have begun before a crash is not run again:
   * the model gets an error result saying its outcome is unknown. Default true (a
   * call may run again after a crash: at least once).
   */
  readonly idempotent?: boolean;
  /**
   * Runs the tool. `args` is the parsed JSON the model produced (not yet validated:
   * the tool validates it and throws core's `ToolInputError` when it does not fit).
   */
  execute(args: unknown, context: ToolContext): Promise<ToolOutput>;
  /**
   * The approvals a call of this tool waits for, worked out from where its state is
   * stored (an agent tool: its sub-session), so a reopened session lists them too.
   */
  pendingApprovals?(args: unknown, context: ApprovalContext): Promise<readonly ApprovalRequest[]>;
}
