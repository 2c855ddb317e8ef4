/**
 * The model's arguments do not match a tool's input schema. Its message is written
 * for the model (the loop turns it into the call's error result, unshortened): it
 * names every bad field and says to call again.
 */
import { EpisodicError } from '../errors.js';
import type { SchemaIssue } from '../support/schema-issue.js';

/** Thrown by a tool's `execute` for arguments its schema rejects; code `invalid_tool_input`. */
export class ToolInputError extends EpisodicError {
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
