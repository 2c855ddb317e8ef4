/**
 * Structured final answers: `send(input, { output: schema })`, with a schema of any
 * Standard Schema library (zod, valibot, arktype, ...). The model's answer
 * is checked against the schema, asked for in one of two ways (the profile's
 * `structuredOutput`):
 * - `native`: the request carries the schema as an {@link OutputFormat}; the adapter
 *   sends it in its wire API's field, and the answer is the JSON text of the model's
 *   last message;
 * - `tool`: a `final_answer` tool whose input is the schema; its accepted call ends
 *   the episode (its result is marked `finalAnswer`).
 * A failed check is fed back (a `final_answer` error result, or an injected user
 * message that does not start a new episode) up to `retries` times; then the run
 * fails with a {@link StructuredOutputError}.
 */
import { type StandardSchemaV1, validateWith } from '../../support/standard-schema.js';
import { StructuredOutputError } from '../../errors/structured-output-error.js';
import type { AssistantMessage, Message, ToolMessage, UserMessage } from '../../message/message.js';
import { assistantText, toolCallsOf, toolResultText } from '../../message/message.js';
import type { OutputFormat } from '../../model/model-adapter.js';
import { toolInputSchema } from '../../support/json-schema.js';
import { describeIssues, type SchemaIssue } from '../../support/schema-issue.js';
import { InvalidArgumentError } from '../../errors/input-errors.js';

export { StructuredOutputError } from '../../errors/structured-output-error.js';
import type { LoopSettings, NextStep, OutputSettings } from '../loop-types.js';

export type { OutputSettings } from '../loop-types.js';
import type { AgentTool } from '../tool.js';
import { ToolInputError } from '../../errors/tool-input-error.js';

/** The tool the model calls with its answer in `tool` mode, and the format's name in `native` mode. */
export const FINAL_ANSWER_TOOL = 'final_answer';
/** Failed checks fed back to the model before the run fails, when `outputRetries` is not given. */
export const DEFAULT_OUTPUT_RETRIES = 2;

/** The run's settings for `schema`: the format for the adapter, or the `final_answer` tool. */
export function withOutput(
  settings: LoopSettings,
  schema: StandardSchemaV1,
  options: { mode?: 'native' | 'tool' | undefined; retries?: number | undefined },
): LoopSettings {
  const jsonSchema = toolInputSchema(schema, 'Output schema');
  const mode = options.mode ?? settings.model.profile?.structuredOutput ?? 'tool';
  const retries = options.retries ?? DEFAULT_OUTPUT_RETRIES;
  if (!(retries >= 0)) throw new InvalidArgumentError(`outputRetries must be 0 or more (got ${retries}).`);
  const output: OutputSettings = { schema, jsonSchema, mode, retries };
  if (mode === 'native') {
    const format: OutputFormat = { name: FINAL_ANSWER_TOOL, schema: jsonSchema };
    return { ...settings, output, outputFormat: format };
  }
  if (settings.tools.has(FINAL_ANSWER_TOOL)) {
    throw new InvalidArgumentError(
      `the agent has a tool named "${FINAL_ANSWER_TOOL}", which a structured answer in tool mode needs for itself: rename yours.`,
    );
  }
  const tool = finalAnswerTool(output);
  return {
    ...settings,
    output,
    tools: new Map([...settings.tools, [FINAL_ANSWER_TOOL, tool]]),
    toolSpecs: [...settings.toolSpecs, tool.spec],
  };
}

function finalAnswerTool(output: OutputSettings): AgentTool {
  return {
    spec: {
      name: FINAL_ANSWER_TOOL,
      description:
        'Gives your final answer, as the arguments of this call. Call it once, when you are done, instead of answering in text.',
      inputSchema: output.jsonSchema,
    },
    timeoutMs: Infinity,
    async execute(args) {
      const checked = await check(output.schema, args);
      if (!checked.ok) throw new ToolInputError(FINAL_ANSWER_TOOL, checked.issues);
      return { content: 'Final answer accepted.', finalAnswer: true };
    },
  };
}

type Checked = { ok: true; value: unknown } | { ok: false; issues: SchemaIssue[] };

async function check(schema: StandardSchemaV1, value: unknown): Promise<Checked> {
  const parsed = await validateWith(schema, value);
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, issues: describeIssues(parsed.issues, value) };
}

/** The JSON of an answer given as text (a code fence around it is tolerated). */
function parseAnswerText(text: string): { ok: true; value: unknown } | { ok: false; issues: SchemaIssue[] } {
  const fenced = /^\s*```(?:json)?\s*\n([\s\S]*?)\n\s*```\s*$/.exec(text);
  const body = (fenced?.[1] ?? text).trim();
  try {
    return { ok: true, value: JSON.parse(body) };
  } catch (error) {
    const message = body === '' ? 'the answer is empty' : `not valid JSON (${(error as Error).message})`;
    return { ok: false, issues: [{ path: '', message }] };
  }
}

/**
 * One run's checks: counts failed answers, remembers the accepted one, and says
 * what to feed back. The loop asks it after every tool batch and at the end.
 */
export class AnswerCheck {
  private failures = 0;
  private accepted: { value: unknown } | undefined;

  constructor(private readonly output: OutputSettings) {}

  /** The accepted answer. */
  get value(): unknown {
    return this.accepted?.value;
  }

  /** After a tool batch: true when it accepted a final answer; counts (and past the limit throws on) a rejected one. */
  async afterTools(message: AssistantMessage, results: readonly ToolMessage[]): Promise<boolean> {
    const answer = results.find((result) => result.toolName === FINAL_ANSWER_TOOL);
    if (!answer) return false;
    if (answer.isError) {
      this.fail([{ path: '', message: toolResultText(answer).slice(0, 500) }]);
      return false;
    }
    const call = toolCallsOf(message).find((part) => part.id === answer.toolCallId);
    const checked = await check(this.output.schema, call?.args);
    if (checked.ok) this.accepted = { value: checked.value };
    return checked.ok;
  }

  /**
   * At the end of a run: undefined when the answer is accepted (or the run paused),
   * else the feedback to append before calling the model again. Throws a
   * {@link StructuredOutputError} when out of attempts or when the run ended without
   * an answer (a stop condition).
   */
  async atEnd(next: Extract<NextStep, { type: 'final' | 'stop' | 'paused' }>, messages: readonly Message[]): Promise<UserMessage | undefined> {
    if (next.type === 'paused' || this.accepted) return undefined;
    if (next.type === 'stop') throw new StructuredOutputError('missing', 'a stop condition ended the episode first; raise maxSteps, or resume() with { output }');
    if (!next.message) throw new StructuredOutputError('missing', 'the episode has no answer from the model');
    const earlier = await this.acceptedEarlier(messages);
    if (earlier) return undefined;
    const parsed = parseAnswerText(assistantText(next.message));
    const checked = parsed.ok ? await check(this.output.schema, parsed.value) : parsed;
    if (checked.ok) {
      this.accepted = { value: checked.value };
      return undefined;
    }
    this.fail(checked.issues);
    return this.feedback(checked.issues);
  }

  /** A resumed episode that had already ended with an accepted `final_answer`. */
  private async acceptedEarlier(messages: readonly Message[]): Promise<boolean> {
    const last = messages.findLast((message) => message.role !== 'summary');
    if (last?.role !== 'tool' || !last.finalAnswer) return false;
    const message = messages.findLast((candidate): candidate is AssistantMessage => candidate.role === 'assistant');
    return message ? this.afterTools(message, [last]) : false;
  }

  private fail(issues: readonly SchemaIssue[]): void {
    this.failures += 1;
    if (this.failures > this.output.retries) {
      const listed = issues.map((issue) => (issue.path ? `${issue.path}: ${issue.message}` : issue.message)).join('; ');
      throw new StructuredOutputError('invalid', listed, issues, this.failures);
    }
  }

  private feedback(issues: readonly SchemaIssue[]): UserMessage {
    const listed = issues.map((issue) => `- ${issue.path || '(the answer)'}: ${issue.message}`).join('\n');
    const how =
      this.output.mode === 'tool'
        ? `Call ${FINAL_ANSWER_TOOL} with your answer as its arguments.`
        : 'Answer again with only the JSON object, matching the schema.';
    return {
      role: 'user',
      content: `Your final answer does not match the required schema:\n${listed}\n${how}`,
      // Context no person typed: the episode (and its reasoning) goes on across it.
      injected: true,
      outputFeedback: true,
    };
  }
}
