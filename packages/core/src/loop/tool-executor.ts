/**
 * Runs the tool calls of one assistant message: in parallel up to a limit, each
 * under a timeout, and never throwing. Every failure the model could act on becomes
 * an error {@link ToolMessage} with a short message (no stack trace): unknown tool
 * names, arguments that are not JSON, input the tool rejects (core's `ToolInputError`, which `defineTool` of `@episodic/tools` throws),
 * thrown errors, timeouts and aborts. So every call gets exactly one result.
 *
 * Arguments that were not valid JSON: an adapter that cannot parse a call's streamed
 * arguments puts the raw text in `args` as a string (tool input is always a JSON
 * object, so a string can only mean "unparsed"). The transcript keeps that string
 * as produced, and the executor answers with an error result quoting the parse
 * error; a string that does parse to an object is used as the arguments.
 */
import { EpisodicError } from '../errors/episodic-error.js';
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
  if (!args.ok) return errorOutput(args.message, options.redact);
  const timeoutMs = tool.timeoutMs ?? options.timeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS;
  const control = new CallControl(timeoutMs, options.signal);
  try {
    const output = await control.race(() => tool.execute(args.value, control.context(call.id, options)));
    if (typeof output?.content !== 'string') {
      return errorOutput(`Tool "${call.name}" returned no text content (a bug in the tool, not in your call).`);
    }
    return output;
  } catch (error) {
    if (options.signal?.aborted) return abortedOutput(call);
    if (control.timedOut) return errorOutput(`Tool "${call.name}" timed out after ${timeoutMs} ms.`);
    return errorOutput(describeFailure(call.name, error), options.redact);
  } finally {
    control.end();
  }
}

/** The call behind each tool context, for the shared `signal` getter. */
const controls = new WeakMap<object, CallControl>();

/** A tool context's `signal`: its call's, made on first read. */
const SIGNAL_PROPERTY: PropertyDescriptor = {
  get(this: object): AbortSignal | undefined {
    return controls.get(this)?.signal;
  },
  enumerable: true,
  configurable: true,
};

/**
 * One call's timeout and abort. The call settles with its tool, or fails as soon as
 * the timeout fires or the run's signal aborts (a tool may ignore its signal). The
 * tool's own signal is made only when the tool reads it: most tools never do, and
 * an AbortController per call was a visible share of a step.
 */
class CallControl {
  timedOut = false;
  private controller: AbortController | undefined;
  private combined: AbortSignal | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private fail: ((reason: unknown) => void) | undefined;
  private onAbort: (() => void) | undefined;

  constructor(
    private readonly timeoutMs: number,
    private readonly outer: AbortSignal | undefined,
  ) {}

  /** Aborted on timeout or when the run's signal aborts. */
  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.timedOut) this.controller.abort();
    }
    this.combined ??= this.outer ? AbortSignal.any([this.outer, this.controller.signal]) : this.controller.signal;
    return this.combined;
  }

  /**
   * The tool's context: its `signal` is made on first read (an own, enumerable field,
   * so spreads keep it). One getter is shared by every context, which finds its
   * control in a WeakMap, so a call that never reads its signal makes no AbortController.
   */
  context(toolCallId: string, options: ToolExecutionOptions): ToolContext {
    const context = Object.defineProperty({}, 'signal', SIGNAL_PROPERTY) as ToolContext;
    controls.set(context, this);
    context.toolCallId = toolCallId;
    const { sessionId, approvalFor, approvalPolicy } = options;
    if (sessionId !== undefined) context.sessionId = sessionId;
    if (approvalFor) context.approvalFor = approvalFor;
    if (approvalPolicy) context.approvalPolicy = approvalPolicy;
    return context;
  }

  /** Settles with `run`'s promise, or rejects on timeout or abort. */
  race<T>(run: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const { outer } = this;
      if (outer?.aborted) return reject(outer.reason);
      this.fail = reject;
      // Node fires a timer longer than MAX_TIMER_MS after 1 ms, so such a timeout
      // (Infinity included, the natural way to say "none") runs without a timer.
      if (this.timeoutMs <= MAX_TIMER_MS) this.timer = setTimeout(() => this.expire(), this.timeoutMs);
      if (outer) {
        this.onAbort = () => reject(outer.reason);
        outer.addEventListener('abort', this.onAbort, { once: true });
      }
      Promise.resolve().then(run).then(resolve, reject);
    });
  }

  private expire(): void {
    this.timedOut = true;
    this.controller?.abort();
    this.fail?.(this.controller?.signal.reason ?? new Error('timed out'));
  }

  /** Stops the timer and the listener once the call settled. */
  end(): void {
    clearTimeout(this.timer);
    if (this.onAbort) this.outer?.removeEventListener('abort', this.onAbort);
  }
}

function describeFailure(name: string, error: unknown): string {
  // Input errors (code `invalid_tool_input`, thrown by `defineTool` in @episodic/tools)
  // are already written for the model: they name the tool, the fields and the fix.
  if (EpisodicError.isInstance(error) && error.code === 'invalid_tool_input') return error.message;
  const message = error instanceof Error ? error.message : String(error);
  return `Tool "${name}" failed: ${message || 'unknown error'}`;
}

/**
 * An error result, cut to `MAX_ERROR_LENGTH` (1,000) characters. Redacted before the cut:
 * a cut through a secret would leave all but its last characters, which no redaction
 * recognises after. Durable tool steps record their failures through it too.
 */
export function errorOutput(text: string, redact?: (text: string) => string): ToolOutput {
  const message = redact ? redact(text) : text;
  const content = message.length > MAX_ERROR_LENGTH ? `${message.slice(0, MAX_ERROR_LENGTH)}...` : message;
  return { content, isError: true };
}

function abortedOutput(call: ToolCallPart): ToolOutput {
  return errorOutput(`Tool "${call.name}" was aborted before it finished.`);
}
