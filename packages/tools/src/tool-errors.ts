/**
 * Typed errors thrown by tools. Their messages are written for the model as much as
 * for the developer: the agent loop turns a thrown error into an error tool result
 * carrying the message, so it must be short, name the problem and say what to do.
 */
import { EpisodicError, type SchemaIssue } from '@episodic/core';

/** One problem in a tool's arguments. */
export type ToolInputIssue = SchemaIssue;

// In core, where agent tools (`agent.asTool`) throw it too.
export { ToolInputError } from '@episodic/core';

/**
 * A built-in tool could not do what it was asked (file not found, invalid regex,
 * command not allowed, ...). `code` says which.
 */
export class ToolUsageError extends EpisodicError {}

// In providers, beside the schema normalisers that throw it.
export { UnsupportedSchemaError } from '@episodic/core/schema';
