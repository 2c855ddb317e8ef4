/**
 * Turns a zod object schema into the JSON Schema a model sees: a tool's input (in
 * its `ToolSpec`) or a structured final answer. Uses zod v4's own converter
 * (`z.toJSONSchema`). In core because agents build tools (`agent.asTool`) and
 * output schemas themselves; `@episodic/tools` re-exports it as `toolInputSchema`.
 *
 * @see https://zod.dev/json-schema
 */
import { z } from 'zod';
import { InvalidArgumentError } from '../errors/input-errors.js';

/** A JSON Schema node. */
export type JsonSchema = Record<string, unknown>;

/** True for a JSON object (not null, not an array). */
export function isJsonObject(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The names in a node's `type`, whether it is a string or an array (`[]` when absent). */
export function typeNames(node: JsonSchema): string[] {
  const { type } = node;
  if (typeof type === 'string') return [type];
  if (Array.isArray(type)) return type.filter((name): name is string => typeof name === 'string');
  return [];
}

/**
 * The JSON Schema (draft 2020-12) of what the model must send for `schema`.
 *
 * It describes the schema's *input* side: a field with a default is optional, and
 * transforms do not matter. Recursive schemas come out as `$ref` into `$defs`.
 * Three things zod adds that only cost tokens are removed: the `$schema` line, the
 * safe-integer bounds of `z.int()`, and the long regex zod writes next to each
 * string `format` (the format names the rule; zod still checks it on execution).
 *
 * @throws {InvalidArgumentError} when the schema has no JSON Schema form (e.g. a
 * `z.date()` or a function) or does not describe an object, which every provider
 * requires at the root of tool parameters. `subject` names the schema in the message.
 */
export function toolInputSchema(schema: z.ZodType, subject = 'Tool input schema'): JsonSchema {
  let converted: JsonSchema;
  try {
    converted = z.toJSONSchema(schema, { io: 'input', target: 'draft-2020-12', unrepresentable: 'throw' });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new InvalidArgumentError(
      `${subject} has no JSON Schema form (${reason}). Use JSON types only: strings, numbers, booleans, arrays, objects.`,
    );
  }
  const { $schema: _dropped, ...rest } = converted;
  const cleaned = clean(rest);
  if (!typeNames(cleaned).includes('object')) {
    throw new InvalidArgumentError(
      `${subject} must be a z.object(...): providers require an object at the root of tool parameters and structured answers.`,
    );
  }
  return cleaned;
}

// Keywords holding a map of subschemas, and keywords holding data (copied as they are).
const SCHEMA_MAPS: ReadonlySet<string> = new Set(['properties', 'patternProperties', '$defs', 'definitions']);
const DATA_KEYWORDS: ReadonlySet<string> = new Set(['enum', 'const', 'default', 'examples', 'required']);

function clean(node: JsonSchema): JsonSchema {
  const result: JsonSchema = {};
  for (const [key, child] of Object.entries(node)) {
    if (key === 'pattern' && typeof node.format === 'string') continue;
    if ((key === 'minimum' || key === 'maximum') && Math.abs(Number(child)) === Number.MAX_SAFE_INTEGER) continue;
    if (DATA_KEYWORDS.has(key)) result[key] = child;
    else if (SCHEMA_MAPS.has(key) && isJsonObject(child)) result[key] = mapValues(child);
    else if (Array.isArray(child)) result[key] = child.map((item) => (isJsonObject(item) ? clean(item) : item));
    else result[key] = isJsonObject(child) ? clean(child) : child;
  }
  return result;
}

function mapValues(map: JsonSchema): JsonSchema {
  return Object.fromEntries(Object.entries(map).map(([name, item]) => [name, isJsonObject(item) ? clean(item) : item]));
}
