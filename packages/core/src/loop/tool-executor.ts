/**
 * Runs the tool calls of one assistant message: in parallel up to a limit, each
 * under a timeout, and never throwing. Every failure the model could act on becomes
 * an error {@link ToolMessage} with a short message (no stack trace): unknown tool
 * names, arguments that are not JSON, input the tool rejects (`ToolInputError` from `@episodic/tools`),
 * thrown errors, timeouts and aborts. So every call gets exactly one result.
 *
 * Arguments that were not valid JSON: an adapter that cannot parse a call's streamed
 * arguments puts the raw text in `args` as a string (tool input is always a JSON
 * object, so a string can only mean "unparsed"). The transcript keeps that string
 * as produced, and the executor answers with an error result quoting the parse
 * error; a string that does parse to an object is used as the arguments.
 */
import { EpisodicError } from '../errors.js';
import type { ToolCallPart, ToolMessage } from '../message/message.js';
import type { ApprovalPolicy, ApprovalRequest } from './approval-policy.js';
import { parseToolArguments } from './tool-arguments.js';

export { type ParsedArguments, parseToolArguments } from './tool-arguments.js';
import type { AgentTool, ToolContext, ToolOutput } from './tool.js';

/** Default per-call timeout when neither the tool nor the caller sets one. */
export const DEFAULT_TOOL_TIMEOUT_MS = 120_000;
/** Default number of tool calls that run at the same time. */
export const DEFAULT_TOOL_CONCURRENCY = 4;
/** Longest delay `setTimeout` honours (2^31 - 1 ms, about 24.8 days). */
const MAX_TIMER_MS = 2 ** 31 - 1;
/** Error results are cut to this many characters: enough to act on, never a dump. */
const MAX_ERROR_LENGTH = 1_000;

export interface ToolExecutionOptions {
  /** The tools the model may call, by name. */
  tools: ReadonlyMap<string, AgentTool>;
  /** Calls running at the same time. Default {@link DEFAULT_TOOL_CONCURRENCY}. */
  maxConcurrency?: number;
  /** Timeout of a call whose tool sets no `timeoutMs`; `Infinity` for none. Default {@link DEFAULT_TOOL_TIMEOUT_MS}. */
  timeoutMs?: number;
  /** Aborts the whole batch: running calls are told through their signal and answered "aborted" at once. */
  signal?: AbortSignal;
  /** The session whose transcript holds the calls; passed to each tool in its context. */
  sessionId?: string;
  /** Passed to each tool in its context (see {@link ToolContext.approvalFor}). */
  approvalFor?: ToolContext['approvalFor'];
  /** Passed to each tool in its context (see {@link ToolContext.approvalPolicy}). */
  approvalPolicy?: ApprovalPolicy;
  /**
   * Receives a call whose tool waits for approvals elsewhere (see
   * {@link ToolOutput.pendingApprovals}); such a call then gets no result. Without
   * it, the call is answered with an error (only a session can ask for approvals).
   */
  onWaiting?: (call: ToolCallPart, requests: readonly ApprovalRequest[]) => void;
  /**
   * Applied to every result's content, errors included, before `onResult` sees it and
   * before it is returned: the agent passes its secret redactor here, so no tool
   * (built-in or custom) can put a known key into the transcript.
   */
  redact?: (text: string) => string;
  /** Called as each call finishes (in completion order), e.g. to emit an event. */
  onResult?: (result: ToolMessage, call: ToolCallPart, durationMs: number) => void;
}

/** Indexes tools by their spec name. */
export function toolsByName(tools: readonly AgentTool[]): Map<string, AgentTool> {
  return new Map(tools.map((tool) => [tool.spec.name, tool]));
}

/**
 * Runs `calls` and returns one result per call, in the order of `calls` (calls given
 * to `onWaiting` excepted). Never throws.
 */
export async function executeToolCalls(
  calls: readonly ToolCallPart[],
  options: ToolExecutionOptions,
): Promise<ToolMessage[]> {
  const results: (ToolMessage | undefined)[] = new Array(calls.length);
  let next = 0;
  const worker = async () => {
    while (next < calls.length) {
      const index = next++;
      const call = calls[index]!;
      const started = performance.now();
      const output = await executeToolCall(call, options);
      if (output.pendingApprovals?.length && options.onWaiting) {
        options.onWaiting(call, output.pendingApprovals);
        continue;
      }
      const result = toolMessage(call, output, options.redact);
      results[index] = result;
      options.onResult?.(result, call, performance.now() - started);
    }
  };
  // A limit below 1, or NaN, still runs one call at a time: every call must get its result.
  const limit = options.maxConcurrency ?? DEFAULT_TOOL_CONCURRENCY;
  const width = Math.min(calls.length, limit >= 1 ? Math.floor(limit) : 1);
  await Promise.all(Array.from({ length: width }, worker));
  return results.filter((result) => result !== undefined);
}

function toolMessage(call: ToolCallPart, output: ToolOutput, redact: ((text: string) => string) | undefined): ToolMessage {
  if (output.pendingApprovals?.length) {
    const output = errorOutput(`Tool "${call.name}" waits for approvals, which only a session can ask for.`);
    return { role: 'tool', toolCallId: call.id, toolName: call.name, content: output.content, isError: true };
  }
  return {
    role: 'tool',
    toolCallId: call.id,
    toolName: call.name,
    content: redact ? redact(output.content) : output.content,
    isError: output.isError === true,
    ...(output.subSession ? { subSession: output.subSession } : {}),
    ...(output.finalAnswer ? { finalAnswer: true } : {}),
  };
}

/** Runs one call; every failure becomes an error output. */
export async function executeToolCall(call: ToolCallPart, options: ToolExecutionOptions): Promise<ToolOutput> {
  if (options.signal?.aborted) return abortedOutput(call);
  const tool = options.tools.get(call.name);
  if (!tool) {
    const names = [...options.tools.keys()].join(', ') || 'none';
    return errorOutput(`Unknown tool "${call.name}". Available tools: ${names}.`);
  }
  const args = parseToolArguments(call);
  if (!args.ok) return errorOutput(args.message);
  const timeoutMs = tool.timeoutMs ?? options.timeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS;
  const timeout = new AbortController();
  // Node fires a timer longer than MAX_TIMER_MS after 1 ms, so such a timeout
  // (Infinity included, the natural way to say "none") runs without a timer.
  const timer = timeoutMs <= MAX_TIMER_MS ? setTimeout(() => timeout.abort(), timeoutMs) : undefined;
  const signal = options.signal ? AbortSignal.any([options.signal, timeout.signal]) : timeout.signal;
  try {
    const output = await untilAborted(() => tool.execute(args.value, { signal, toolCallId: call.id, ...contextOf(options) }), signal);
    if (typeof output?.content !== 'string') {
      return errorOutput(`Tool "${call.name}" returned no text content (a bug in the tool, not in your call).`);
    }
    return output;
  } catch (error) {
    if (options.signal?.aborted) return abortedOutput(call);
    if (timeout.signal.aborted) return errorOutput(`Tool "${call.name}" timed out after ${timeoutMs} ms.`);
    return errorOutput(describeFailure(call.name, error));
  } finally {
    clearTimeout(timer);
  }
}

/** Settles with the tool's promise, or rejects as soon as `signal` aborts (a tool may ignore its signal). */
function untilAborted<T>(run: () => Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    Promise.resolve()
      .then(run)
      .then(resolve, reject)
      .finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function describeFailure(name: string, error: unknown): string {
  // Input errors (code `invalid_tool_input`, thrown by `defineTool` in @episodic/tools)
  // are already written for the model: they name the tool, the fields and the fix.
  if (EpisodicError.isInstance(error) && error.code === 'invalid_tool_input') return error.message;
  const message = error instanceof Error ? error.message : String(error);
  return `Tool "${name}" failed: ${message || 'unknown error'}`;
}

function contextOf(options: ToolExecutionOptions): Partial<ToolContext> {
  const { sessionId, approvalFor, approvalPolicy } = options;
  return {
    ...(sessionId === undefined ? {} : { sessionId }),
    ...(approvalFor ? { approvalFor } : {}),
    ...(approvalPolicy ? { approvalPolicy } : {}),
  };
}

function errorOutput(message: string): ToolOutput {
  const content = message.length > MAX_ERROR_LENGTH ? `${message.slice(0, MAX_ERROR_LENGTH)}...` : message;
  return { content, isError: true };
}

function abortedOutput(call: ToolCallPart): ToolOutput {
  return errorOutput(`Tool "${call.name}" was aborted before it finished.`);
}
