/**
 * The model's arguments do not match a tool's input schema. Its message is written
 * for the model (the loop turns it into the call's error result, unshortened): it
 * names every bad field and says to call again.
 */
import { EpisodicError } from './episodic-error.js';

/** One problem in a value checked against a schema, as the model reads it. */
export interface SchemaIssue {
  /** Dotted path to the field, such as `edits[2].line` (empty for the value itself). */
  path: string;
  /** What is wrong with it, such as `expected string, got number`. */
  message: string;
}

/** Thrown by a tool's `execute` for arguments its schema rejects; code `invalid_tool_input`. */
export class ToolInputError extends EpisodicError<'invalid_tool_input'> {
  readonly toolName: string;
  readonly issues: readonly SchemaIssue[];

  constructor(toolName: string, issues: readonly SchemaIssue[]) {
    const listed = issues.map((issue) => (issue.path === '' ? issue.message : `${issue.path}: ${issue.message}`));
    super(
      'invalid_tool_input',
      `Invalid arguments for tool ${toolName}: ${listed.join('; ')}. Call it again with arguments that match its schema.`,
    );
    this.toolName = toolName;
    this.issues = issues;
  }
}
