/**
 * A tool call's arguments as the tool receives them: a JSON string is parsed, a
 * missing value becomes `{}`, and anything that is not one JSON object is an error
 * result for the model. Shared by the executor and the approval gate.
 */
import type { ToolCallPart } from '../message/message.js';

/** A call's arguments as the tool will get them, or why it will not run. */
export type ParsedArguments = { ok: true; value: unknown } | { ok: false; message: string };

/** The arguments a tool receives for `call` (see the module comment), or the error result's message. */
export function parseToolArguments(call: ToolCallPart): ParsedArguments {
  if (call.args === undefined || call.args === null) return { ok: true, value: {} };
  if (typeof call.args !== 'string') return { ok: true, value: call.args };
  let value: unknown;
  try {
    value = JSON.parse(call.args);
  } catch (error) {
    return {
      ok: false,
      message: `Invalid JSON arguments for tool "${call.name}" (${(error as Error).message}). Send the arguments as one JSON object.`,
    };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, message: `Arguments for tool "${call.name}" must be a JSON object.` };
  }
  return { ok: true, value };
}
