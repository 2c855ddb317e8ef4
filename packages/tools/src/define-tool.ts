/**
 * `defineTool`: a typed tool from a schema of any Standard Schema library (zod 3.25+
 * and 4, valibot, arktype, ...). The result is an {@link AgentTool} the agent loop
 * can run: its spec carries the JSON Schema of the input, and its `execute`
 * validates the model's arguments with the schema's own library before calling yours.
 */
import {
  type AgentTool,
  type ApprovalContext,
  InvalidArgumentError,
  type NeedsApproval,
  ToolInputError,
  type ToolContext,
  type ToolOutput,
  type ToolSpec,
} from '@episodic/core';
// Core's (agent.asTool and structured answers build on the same conversion, wording and name rule).
import {
  assertStandardSchema,
  assertToolName,
  describeIssues,
  jsonValueProblem,
  restoreNormalizedArguments,
  type SchemaOutput,
  type StandardSchemaV1,
  toolInputSchema,
  validateWith,
} from '@episodic/core/internal';

/** What a tool's `execute` may return: plain text, or text flagged as an error. */
export type ToolResult = string | ToolOutput;

/** The definition passed to {@link defineTool}. */
export interface ToolDefinition<Input extends StandardSchemaV1> {
  /** The name the model calls; letters, digits, `_` and `-`, at most 64, not starting with a digit or `-`. */
  name: string;
  /** What the tool does and when to use it: the model reads this to decide. */
  description: string;
  /**
   * The schema of the arguments, from any Standard Schema library; it must describe
   * an object (`z.object(...)`, `type({...})`, `v.object(...)`). Field descriptions
   * reach the model. Its JSON Schema comes from the library (valibot: wrap the
   * schema with `toStandardJsonSchema` of `@valibot/to-json-schema`), or from
   * `inputJsonSchema` when given.
   */
  input: Input;
  /**
   * The JSON Schema the model sees, for a library that cannot convert its schemas:
   * an object schema, sent as given (the arguments are still checked by `input`).
   */
  inputJsonSchema?: Record<string, unknown>;
  /** Runs the tool on validated, typed input. Throw for failures; the loop reports them to the model. */
  execute: (input: SchemaOutput<Input>, context: ToolContext) => ToolResult | Promise<ToolResult>;
  /** Per-call timeout in milliseconds; `context.signal` aborts when it passes. */
  timeoutMs?: number;
  /**
   * Pauses the episode before a call runs until a person approves it
   * (`session.approve()`), always (`true`) or when the predicate says so for the
   * call's validated input. Input that does not validate needs no approval: it does
   * not run (the model reads the input error). Default false.
   */
  needsApproval?: boolean | ((input: SchemaOutput<Input>, context: ApprovalContext) => boolean | Promise<boolean>);
  /** False when running the tool twice does harm: a durable runtime then never re-runs a call that may have begun. Default true. */
  idempotent?: boolean;
}

/** A tool built by {@link defineTool}: an `AgentTool` of `@episodic/core` that also exposes its input schema. */
export interface DefinedTool<Input extends StandardSchemaV1 = StandardSchemaV1> extends AgentTool {
  readonly input: Input;
}

/**
 * Builds a tool from a schema (zod, valibot, arktype or any Standard Schema
 * library), with the input type inferred from it.
 *
 * ```ts
 * const readNote = defineTool({
 *   name: 'read_note',
 *   description: 'Reads a note by id.',
 *   input: z.object({ id: z.string().describe('The note id') }),
 *   execute: async ({ id }) => notes.get(id) ?? `No note ${id}.`,
 * });
 * ```
 *
 * @throws {@link @episodic/core#InvalidArgumentError} for a name providers reject, a bad timeout, or an
 * input that is not a Standard Schema, is not an object or has no JSON Schema form.
 */
export function defineTool<Input extends StandardSchemaV1>(definition: ToolDefinition<Input>): DefinedTool<Input> {
  const { name, description, input, timeoutMs } = definition;
  assertToolName(name);
  if (timeoutMs !== undefined && !(Number.isFinite(timeoutMs) && timeoutMs > 0)) {
    throw new InvalidArgumentError(`Tool ${name}: timeoutMs must be a positive number of milliseconds.`);
  }
  const inputSchema = inputJsonSchema(definition);
  const spec: ToolSpec = { name, description, inputSchema };
  const needsApproval = approvalCheck(definition, inputSchema);
  return {
    spec,
    input,
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    ...(needsApproval === undefined ? {} : { needsApproval }),
    ...(definition.idempotent === false ? { idempotent: false } : {}),
    async execute(args: unknown, context: ToolContext): Promise<ToolOutput> {
      // Some providers omit the arguments of a call that has none.
      const prepared = restoreNormalizedArguments(inputSchema, args ?? {});
      const parsed = await validateWith(input, prepared);
      if (!parsed.success) throw new ToolInputError(name, describeIssues(parsed.issues, prepared));
      return toToolOutput(await definition.execute(parsed.data, context));
    },
  };
}

function inputJsonSchema(definition: {
  name: string;
  input: StandardSchemaV1;
  inputJsonSchema?: Record<string, unknown> | undefined;
}): Record<string, unknown> {
  const { name, input, inputJsonSchema: given } = definition;
  const subject = `Tool ${name}: input schema`;
  if (given === undefined) return toolInputSchema(input, subject);
  // Still a Standard Schema: it validates every call.
  assertStandardSchema(input, subject);
  if (typeof given !== 'object' || given === null || given.type !== 'object') {
    throw new InvalidArgumentError(`${subject}: inputJsonSchema must be a JSON Schema with type "object".`);
  }
  // Sent with every request: a cycle or a BigInt would make each send() throw.
  const problem = jsonValueProblem(given);
  if (problem !== undefined) throw new InvalidArgumentError(`${subject}: inputJsonSchema is not plain JSON (${problem}).`);
  return given;
}

/** `needsApproval` over raw arguments: a predicate sees validated input, and invalid input never runs. */
function approvalCheck<Input extends StandardSchemaV1>(
  definition: ToolDefinition<Input>,
  inputSchema: Record<string, unknown>,
): NeedsApproval | undefined {
  const { needsApproval } = definition;
  if (typeof needsApproval !== 'function') return needsApproval;
  return async (args, context) => {
    const parsed = await validateWith(definition.input, restoreNormalizedArguments(inputSchema, args ?? {}));
    return parsed.success ? needsApproval(parsed.data, context) : false;
  };
}

function toToolOutput(result: ToolResult): ToolOutput {
  if (typeof result === 'string') return { content: result, isError: false };
  return { content: String(result.content), isError: result.isError === true };
}
