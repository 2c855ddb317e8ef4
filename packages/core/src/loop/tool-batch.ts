/**
 * One step's tool calls, as the loop runs them: decided by approvals first (calls
 * waiting for a person get no result yet: the episode pauses on them), then run in
 * parallel by the executor, with every result reported as an event and returned in
 * call order for the loop to persist.
 */
import type { AssistantMessage, Message, ToolCallPart, ToolMessage } from '../message/message.js';
import { type ApprovalRequest, approvedResult, gateToolCalls, type GatedCalls, rejectedResult } from './approvals.js';
import type { LoopSession, LoopSettings } from './loop-types.js';
import { executeToolCalls } from './tool-executor.js';

/** What a batch left: results to persist, calls still waiting, and an event handler's failure to raise after persisting. */
export interface ToolBatch {
  results: ToolMessage[];
  pending: ApprovalRequest[];
  handlerFailure: { error: unknown } | undefined;
}

/** Runs the calls of `next.message` that may run now; never throws for a tool's failure. */
export async function runToolBatch(
  settings: LoopSettings,
  session: Pick<LoopSession, 'id' | 'emit' | 'approvals'>,
  next: { calls: readonly ToolCallPart[]; step: number },
  signal: AbortSignal | undefined,
): Promise<ToolBatch> {
  const { emit } = session;
  const { calls, step } = next;
  const gated = await gateToolCalls(calls, {
    tools: settings.tools,
    sessionId: session.id,
    decided: (callId) => session.approvals?.decided(callId, session.id),
    policy: settings.approvalPolicy,
  });
  for (const call of calls) emit({ type: 'tool-call', step, call });
  for (const request of gated.pending) emit({ type: 'approval-requested', step, request });
  // The executor answers every call it runs, aborted ones included, so the transcript
  // never holds a call without its result, whatever happens next (calls waiting for
  // approval have none yet, by design). An event handler that throws must not cut
  // the batch short (its tools would run on unrecorded): the loop raises its error
  // once the results are persisted.
  let handlerFailure: { error: unknown } | undefined;
  const report = (result: ToolMessage, durationMs: number) => {
    try {
      emit({ type: 'tool-result', step, result, durationMs });
    } catch (error) {
      handlerFailure ??= { error };
    }
  };
  const rejected = rejectedResults(calls, gated);
  for (const result of rejected) report(result, 0);
  const waiting = new Map<string, readonly ApprovalRequest[]>();
  const executed = await executeToolCalls(gated.run, {
    tools: settings.tools,
    maxConcurrency: settings.maxConcurrency,
    timeoutMs: settings.toolTimeoutMs,
    signal,
    redact: settings.secrets ? (text) => settings.secrets!.redact(text) : undefined,
    sessionId: session.id,
    approvalFor: (sessionId, callId) => session.approvals?.decided(callId, sessionId),
    approvalPolicy: settings.approvalPolicy,
    onWaiting: (call, requests) => {
      waiting.set(call.id, requests);
      for (const request of requests) emit({ type: 'approval-requested', step, request });
    },
    onResult: (result, _call, durationMs) => report(withDecision(result, gated), durationMs),
  });
  const results = inCallOrder(calls, [...rejected, ...executed.map((result) => withDecision(result, gated))]);
  return { results, pending: pendingInCallOrder(calls, gated, waiting), handlerFailure };
}

/** The batch's own waiting calls and those its agent tools wait for, in call order. */
function pendingInCallOrder(
  calls: readonly ToolCallPart[],
  gated: GatedCalls,
  waiting: ReadonlyMap<string, readonly ApprovalRequest[]>,
): ApprovalRequest[] {
  return calls.flatMap((call) => [
    ...gated.pending.filter((request) => request.callId === call.id),
    ...(waiting.get(call.id) ?? []),
  ]);
}

/**
 * Every result of `message`'s calls so far (a batch that paused for approvals is
 * answered over several runs); summary lines, which belong to no episode, are passed over.
 */
export function resultsOf(messages: readonly Message[], message: AssistantMessage): ToolMessage[] {
  const results: ToolMessage[] = [];
  for (let index = messages.lastIndexOf(message) + 1; index < messages.length; index += 1) {
    const next = messages[index] as Message;
    if (next.role === 'tool') results.push(next);
    else if (next.role !== 'summary') break;
  }
  return results;
}

function rejectedResults(calls: readonly ToolCallPart[], gated: GatedCalls): ToolMessage[] {
  return calls.flatMap((call) => {
    const made = gated.decisions.get(call.id);
    return made?.decision.decision === 'rejected' ? [rejectedResult(call, made)] : [];
  });
}

function withDecision(result: ToolMessage, gated: GatedCalls): ToolMessage {
  const made = gated.decisions.get(result.toolCallId);
  return made ? approvedResult(result, made) : result;
}

function inCallOrder(calls: readonly ToolCallPart[], results: readonly ToolMessage[]): ToolMessage[] {
  const position = new Map(calls.map((call, index) => [call.id, index]));
  return [...results].sort((a, b) => (position.get(a.toolCallId) ?? 0) - (position.get(b.toolCallId) ?? 0));
}
