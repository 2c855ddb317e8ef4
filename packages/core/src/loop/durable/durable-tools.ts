/**
 * Tools as durable steps: each call runs inside a step named by its session,
 * episode and tool-call id, so a replay gets its recorded output instead of running
 * it again. A tool that declares `idempotent: false` also records that it began
 * (a step of its own, just before it runs): on a replay that finds it began but
 * finds no result, the tool may or may not have done its work before the crash, so
 * it is not run again; the model gets an error result saying the outcome is unknown.
 *
 * A step records its output with the agent's secrets replaced, as the transcript will
 * show it: the journal is an engine's store (DBOS's `operation_outputs`, Restate's
 * journal), and nothing unredacted is persisted. A replay hands back the redacted
 * output, which the executor's redaction leaves as it is, so the transcript is the same.
 */
import { EpisodicError } from '../../errors/episodic-error.js';
import type { AgentTool, ToolContext, ToolOutput } from '../tool.js';
import { errorOutput } from '../tool-executor.js';
import { type DurableRun, stepIds } from './durable-runtime.js';

/** The error result of a non-idempotent call that may have run before a crash. */
export function unknownOutcome(name: string): string {
  return `Tool "${name}" may or may not have run: the process running it stopped before its result was recorded, and it is not idempotent, so it was not run again. Check its effect before calling it again.`;
}

/** Replaces the agent's secrets in a text (identity when it has none). */
export type Redact = (text: string) => string;

/**
 * `tools` with every execution made a step of `run` in session `sessionId`, recording
 * outputs passed through `redact`. A failure of the runtime itself (not of a tool)
 * goes to `onFailure` as well as to the executor, which would otherwise record it as
 * the tool's error result: the loop raises it instead, and the engine runs the episode again.
 */
export function durableTools(
  tools: ReadonlyMap<string, AgentTool>,
  run: DurableRun,
  sessionId: string,
  onFailure: (error: unknown) => void,
  redact: Redact = (text) => text,
): Map<string, AgentTool> {
  return new Map([...tools].map(([name, tool]) => [name, durableTool(tool, { run, sessionId, redact }, onFailure)]));
}

interface StepScope {
  run: DurableRun;
  sessionId: string;
  redact: Redact;
}

function durableTool(tool: AgentTool, scope: StepScope, onFailure: (error: unknown) => void): AgentTool {
  const step = stepOf(scope, tool);
  const execute = async (args: unknown, context: ToolContext): Promise<ToolOutput> => {
    try {
      return await step(args, context);
    } catch (error) {
      // The tool's own failures are outputs already (see outputOf): this one is the runtime's.
      if (!context.signal.aborted) onFailure(error);
      throw error;
    }
  };
  // Everything else (spec, timeout, approvals) from the tool itself, methods included.
  return Object.create(tool, { execute: { value: execute } }) as AgentTool;
}

function stepOf({ run: { runtime, episode }, sessionId, redact }: StepScope, tool: AgentTool) {
  return async (args: unknown, context: ToolContext): Promise<ToolOutput> => {
    const id = stepIds.tool(sessionId, episode, context.toolCallId);
    if (tool.idempotent !== false) return runtime.step(id, () => outputOf(tool, args, context, redact));
    const attempt = globalThis.crypto.randomUUID();
    const began = await runtime.step(stepIds.toolBegan(sessionId, episode, context.toolCallId), () => Promise.resolve(attempt));
    // The step runs only when no result was recorded; `began` from another attempt means that attempt may have done the work.
    const unknown: ToolOutput = { content: unknownOutcome(tool.spec.name), isError: true };
    return runtime.step(id, () => (began === attempt ? outputOf(tool, args, context, redact) : Promise.resolve(unknown)));
  };
}

/**
 * The tool's output with a thrown error as an error output, so failures are recorded
 * (and not re-run) too; its text redacted, so the record holds no secret.
 */
async function outputOf(tool: AgentTool, args: unknown, context: ToolContext, redact: Redact): Promise<ToolOutput> {
  let output: ToolOutput;
  try {
    // Only what the transcript keeps: a recorded result is JSON.
    output = JSON.parse(JSON.stringify(await tool.execute(args, context))) as ToolOutput;
  } catch (error) {
    if (context.signal.aborted) throw error;
    // Cut and redacted as the executor answers a failure, so a replay gives the same result.
    return errorOutput(failureText(tool, error), redact);
  }
  // A tool that broke its contract (no text) is answered by the executor; there is nothing to redact.
  const content = (output as ToolOutput | null)?.content;
  return typeof content === 'string' ? { ...output, content: redact(content) } : output;
}

function failureText(tool: AgentTool, error: unknown): string {
  // Input errors are written for the model already (as the executor reports them).
  if (EpisodicError.isInstance(error) && error.code === 'invalid_tool_input') return error.message;
  const message = error instanceof Error ? error.message : String(error);
  return `Tool "${tool.spec.name}" failed: ${message || 'unknown error'}`;
}
