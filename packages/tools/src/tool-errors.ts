/**
 * Typed errors thrown by tools. Their messages are written for the model as much as
 * for the developer: the agent loop turns a thrown error into an error tool result
 * carrying the message, so it must be short, name the problem and say what to do.
 */
import { EpisodicError } from '@episodic/core';

/** One problem in a tool's arguments. */
export interface ToolInputIssue {
  /** Dotted path to the field, such as `edits[2].line` (empty for the arguments themselves). */
  path: string;
  /** What is wrong with it, such as `expected string, got number`. */
  message: string;
}

/** The model's arguments do not match the tool's input schema. */
export class ToolInputError extends EpisodicError {
  readonly toolName: string;
  readonly issues: readonly ToolInputIssue[];

  constructor(toolName: string, issues: readonly ToolInputIssue[]) {
    const listed = issues.map((issue) => (issue.path === '' ? issue.message : `${issue.path}: ${issue.message}`));
    super(
      'invalid_tool_input',
      `Invalid arguments for tool ${toolName}: ${listed.join('; ')}. Call it again with arguments that match its schema.`,
    );
    this.toolName = toolName;
    this.issues = issues;
  }
}

/**
 * A built-in tool could not do what it was asked (file not found, invalid regex,
 * command not allowed, ...). `code` says which.
 */
export class ToolUsageError extends EpisodicError {}

/** A JSON Schema uses something the target provider's schema dialect cannot express. */
export class UnsupportedSchemaError extends EpisodicError {
  constructor(message: string) {
    super('unsupported_schema', message);
  }
}
