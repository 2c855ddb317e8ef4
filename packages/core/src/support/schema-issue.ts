/**
 * Zod failures in words, for two readers:
 * - a user, for a saved record that does not load: the field it is about
 *   (`content[2].type`) and what is wrong with it (`must be one of text, reasoning,
 *   tool-call`). Shared by every persisted format, so their errors read alike;
 * - the model, for a tool's input or a structured answer that does not fit: one
 *   short line per bad field (`edits[2].line: expected number, got string`). These
 *   come from any Standard Schema library: zod's issues get the wording below, the
 *   others' keep their library's message.
 */
import type { z } from 'zod/v4';
import type { SchemaIssue } from '../errors/tool-input-error.js';
import { issuePath, type StandardIssue } from './standard-schema.js';

export type { SchemaIssue } from '../errors/tool-input-error.js';

/** The field a failed parse is about (empty for the value itself) and what is wrong with it. */
export interface FieldIssue {
  field: string;
  detail: string;
}

/** Describes the first issue of `error`, raised when parsing `value`. */
export function describeSchemaIssue(error: z.ZodError, value: unknown): FieldIssue {
  const { issue, path } = deepestIssue(error.issues[0] as z.core.$ZodIssue, []);
  return { field: formatPath(path), detail: describeIssue(issue, path, value) };
}

/**
 * Unions report one issue per alternative; the alternative that got furthest
 * (longest path) says best what is wrong.
 */
function deepestIssue(
  issue: z.core.$ZodIssue,
  prefix: PropertyKey[],
): { issue: z.core.$ZodIssue; path: PropertyKey[] } {
  const path = [...prefix, ...issue.path];
  if (issue.code !== 'invalid_union' || issue.errors.length === 0) return { issue, path };
  let best: { issue: z.core.$ZodIssue; path: PropertyKey[] } | undefined;
  for (const branch of issue.errors) {
    const first = branch[0];
    if (!first) continue;
    const candidate = deepestIssue(first, path);
    if (!best || candidate.path.length > best.path.length) best = candidate;
  }
  return best ?? { issue, path };
}

function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out ? `.${String(key)}` : String(key);
  }
  return out;
}

function describeIssue(issue: z.core.$ZodIssue, path: readonly PropertyKey[], root: unknown): string {
  const received = receivedAt(path, root);
  switch (issue.code) {
    case 'invalid_union': {
      const options = (issue as { options?: unknown[] }).options;
      if (options) return `must be one of ${options.join(', ')}`;
      return received === undefined ? 'is required' : 'does not match any allowed shape';
    }
    case 'invalid_type':
      if (received === undefined) return 'is required';
      return `must be ${issue.expected} (got ${describeValue(received)})`;
    case 'invalid_value':
      return `must be one of ${issue.values.map((value) => JSON.stringify(value)).join(', ')}`;
    case 'too_small':
      return issue.origin === 'string' ? 'must not be empty' : `must be at least ${String(issue.minimum)}`;
    default:
      return issue.message;
  }
}

/** Short, model-readable descriptions of a schema's issues (any Standard Schema library), one per bad field. */
export function describeIssues(issues: readonly (z.core.$ZodIssue | StandardIssue)[], input: unknown): SchemaIssue[] {
  return issues.map((issue) => {
    const path = issuePath(issue);
    return { path: formatPath(path), message: isZodIssue(issue) ? issueForModel(issue, input) : issue.message };
  });
}

// zod (3 and 4) issues carry a `code`; other libraries' have their own fields.
function isZodIssue(issue: z.core.$ZodIssue | StandardIssue): issue is z.core.$ZodIssue {
  return typeof issue.code === 'string' && Array.isArray(issue.path);
}

function issueForModel(issue: z.core.$ZodIssue, input: unknown): string {
  switch (issue.code) {
    case 'invalid_type': {
      const value = receivedAt(issue.path, input);
      return value === undefined
        ? `missing (expected ${issue.expected})`
        : `expected ${issue.expected}, got ${describeValue(value)}`;
    }
    case 'unrecognized_keys':
      return `unknown field${issue.keys.length === 1 ? '' : 's'} ${issue.keys.join(', ')}`;
    case 'invalid_value':
      return `expected one of ${issue.values.map((value) => JSON.stringify(value)).join(', ')}, got ${JSON.stringify(receivedAt(issue.path, input)) ?? 'nothing'}`;
    case 'invalid_union':
      return 'does not match any of the allowed shapes';
    default:
      return issue.message;
  }
}

function receivedAt(path: readonly PropertyKey[], root: unknown): unknown {
  let current: unknown = root;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}
