/**
 * Short, model-readable descriptions of zod issues: what a tool's input error or a
 * rejected structured answer tells the model, one line per bad field.
 */
import type { z } from 'zod';

/** One problem in a value checked against a schema. */
export interface SchemaIssue {
  /** Dotted path to the field, such as `edits[2].line` (empty for the value itself). */
  path: string;
  /** What is wrong with it, such as `expected string, got number`. */
  message: string;
}

/** Short, model-readable descriptions of zod issues, one per bad field. */
export function describeIssues(issues: readonly z.core.$ZodIssue[], input: unknown): SchemaIssue[] {
  return issues.map((issue) => ({ path: formatPath(issue.path), message: describeIssue(issue, input) }));
}

function describeIssue(issue: z.core.$ZodIssue, input: unknown): string {
  switch (issue.code) {
    case 'invalid_type': {
      const value = valueAt(input, issue.path);
      return value === undefined
        ? `missing (expected ${issue.expected})`
        : `expected ${issue.expected}, got ${kindOf(value)}`;
    }
    case 'unrecognized_keys':
      return `unknown field${issue.keys.length === 1 ? '' : 's'} ${issue.keys.join(', ')}`;
    case 'invalid_value':
      return `expected one of ${issue.values.map((value) => JSON.stringify(value)).join(', ')}, got ${JSON.stringify(valueAt(input, issue.path)) ?? 'nothing'}`;
    case 'invalid_union':
      return 'does not match any of the allowed shapes';
    default:
      return issue.message;
  }
}

function formatPath(path: readonly PropertyKey[]): string {
  let result = '';
  for (const segment of path) {
    if (typeof segment === 'number') result += `[${segment}]`;
    else result += result === '' ? String(segment) : `.${String(segment)}`;
  }
  return result;
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let current = input;
  for (const segment of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[segment];
  }
  return current;
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}
