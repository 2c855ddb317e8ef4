/**
 * Tool approvals: a tool with `needsApproval` does not run until a person (or the
 * agent's approval policy) decides. The loop sorts each batch of calls into those
 * that run, those already rejected and those still waiting; the episode pauses
 * while any wait, and `resume()` continues it once they are decided.
 */
import type { ApprovalDecision } from '../store/approval-record.js';
import type { ToolApproval, ToolCallPart, ToolMessage } from '../message/message.js';
import type { AgentTool, NeedsApproval } from './tool.js';
import { parseToolArguments } from './tool-arguments.js';
import { DEFAULT_TOOL_TIMEOUT_MS } from './tool-executor.js';

/** Longest delay `setTimeout` honours (2^31 - 1 ms); a longer timeout is none. */
const MAX_TIMER_MS = 2 ** 31 - 1;

import type { ApprovalPolicy, ApprovalRequest } from './approval-policy.js';

export { type ApprovalDecision, type ApprovalPolicy, type ApprovalRequest, autoApprove, autoReject } from './approval-policy.js';

/** A decision and who made it. */
export interface MadeDecision {
  decision: ApprovalDecision;
  by: ToolApproval['by'];
}

/** Where a batch's decisions come from. */
export interface GateInput {
  tools: ReadonlyMap<string, AgentTool>;
  sessionId: string;
  /** A person's decision on a call, made before this run. */
  decided: (callId: string) => ApprovalDecision | undefined;
  policy: ApprovalPolicy | undefined;
}

/** A batch of calls sorted by what happens to them now. */
export interface GatedCalls {
  /** Calls that run (needing no approval, or approved). */
  run: ToolCallPart[];
  /** Decisions on the calls that needed approval and got one. */
  decisions: Map<string, MadeDecision>;
  /** Calls still waiting, in call order. */
  pending: ApprovalRequest[];
}

/** Sorts `calls` (see {@link GatedCalls}): a person's decision first, then the policy, else the call waits. */
export async function gateToolCalls(calls: readonly ToolCallPart[], input: GateInput): Promise<GatedCalls> {
  const gated: GatedCalls = { run: [], decisions: new Map(), pending: [] };
  for (const call of calls) {
    const request = await approvalRequest(call, input.tools.get(call.name), input.sessionId);
    if (!request) {
      gated.run.push(call);
      continue;
    }
    const personal = input.decided(call.id);
    const made: MadeDecision | undefined = personal
      ? { decision: personal, by: 'person' }
      : await policyDecision(input.policy, request);
    if (!made) {
      gated.pending.push(request);
      continue;
    }
    gated.decisions.set(call.id, made);
    if (made.decision.decision === 'approved') gated.run.push(call);
  }
  return gated;
}

/**
 * The approval request for `call`, or undefined when it needs none: its tool does
 * not ask, or the call will not run anyway (unknown tool, arguments that are not a
 * JSON object: the executor answers those with an error).
 */
export async function approvalRequest(
  call: ToolCallPart,
  tool: AgentTool | undefined,
  sessionId: string,
): Promise<ApprovalRequest | undefined> {
  if (!tool?.needsApproval) return undefined;
  const args = parseToolArguments(call);
  if (!args.ok) return undefined;
  const needed = await asks(tool.needsApproval, args.value, { toolCallId: call.id, sessionId }, tool.timeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS);
  return needed ? { callId: call.id, toolName: call.name, args: args.value, sessionId } : undefined;
}

/**
 * What the predicate answers. A predicate that fails, or does not answer within the
 * tool's timeout (a validator that never settles), cannot vouch for the call: ask.
 */
async function asks(
  needsApproval: NeedsApproval,
  args: unknown,
  context: { toolCallId: string; sessionId: string },
  timeoutMs: number,
): Promise<boolean> {
  if (typeof needsApproval === 'boolean') return needsApproval;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<boolean>((resolve) => {
    if (timeoutMs <= MAX_TIMER_MS) timer = setTimeout(() => resolve(true), timeoutMs);
  });
  try {
    return (await Promise.race([Promise.resolve(needsApproval(args, context)).then((answer) => answer !== false), expired])) !== false;
  } catch {
    return true;
  } finally {
    clearTimeout(timer);
  }
}

async function policyDecision(
  policy: ApprovalPolicy | undefined,
  request: ApprovalRequest,
): Promise<MadeDecision | undefined> {
  const decision = await policy?.(request);
  return decision ? { decision, by: 'policy' } : undefined;
}

/** The error result of a rejected call: what the model reads instead of the tool's output. */
export function rejectedResult(call: ToolCallPart, made: MadeDecision): ToolMessage {
  const reason = made.decision.decision === 'rejected' ? made.decision.reason : undefined;
  const who = made.by === 'person' ? 'the user' : 'the approval policy';
  return {
    role: 'tool',
    toolCallId: call.id,
    toolName: call.name,
    content: `Tool "${call.name}" was not run: ${who} rejected this call.${reason ? ` Reason: ${reason}` : ''}`,
    isError: true,
    approval: approvalField(made),
  };
}

/** An approved call's result with its `approval` field and the approver's note after the output. */
export function approvedResult(result: ToolMessage, made: MadeDecision): ToolMessage {
  const note = made.decision.decision === 'approved' ? made.decision.note : undefined;
  if (!note) return { ...result, approval: approvalField(made) };
  const text = `[Note from the user who approved this call: ${note}]`;
  const content =
    typeof result.content === 'string' ? `${result.content}\n\n${text}` : [...result.content, { type: 'text' as const, text }];
  return { ...result, content, approval: approvalField(made) };
}

function approvalField(made: MadeDecision): ToolApproval {
  const { decision } = made.decision;
  const note = made.decision.decision === 'approved' ? made.decision.note : undefined;
  const reason = made.decision.decision === 'rejected' ? made.decision.reason : undefined;
  return { decision, by: made.by, ...(note ? { note } : {}), ...(reason ? { reason } : {}) };
}

/** The session side of approvals, as the loop sees it. */
export interface LoopApprovals {
  /** A person's decision on a call of `sessionId` (this session's, or a sub-agent's), made before this run. */
  decided(callId: string, sessionId: string): ApprovalDecision | undefined;
  /** The calls now have results: their decisions are spent (and forgotten by the store). */
  answered(callIds: readonly string[]): Promise<void>;
}
