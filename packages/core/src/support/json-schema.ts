/**
 * Turns an object schema into the JSON Schema a model sees: a tool's input (in its
 * `ToolSpec`) or a structured final answer. Each library's own converter does the
 * work: zod 4's `z.toJSONSchema`, the Standard JSON Schema converter a library
 * exposes (arktype; valibot through `toStandardJsonSchema` of
 * `@valibot/to-json-schema`), and `zod-to-json-schema` for zod 3, which has none.
 * In core because agents build tools (`agent.asTool`) and output schemas
 * themselves; `@episodic/tools` re-exports it as `toolInputSchema`.
 *
 * @see https://zod.dev/json-schema
 * @see https://standardschema.dev/json-schema
 */
import type { z } from 'zod/v4';
import { zod3ToJsonSchema } from '#zod3-json-schema';
import { InvalidArgumentError } from '../errors/input-errors.js';
import { jsonValueProblem } from './json-value.js';
import { assertStandardSchema, type StandardJSONSchemaV1, type StandardSchemaV1 } from './standard-schema.js';
import { zodNow } from './zod-loader.js';

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
 * The JSON Schema (draft 2020-12 where the library can write it) of what the model
 * must send for `schema`, a Standard Schema of zod 3.25+ or 4, arktype, valibot
 * (wrapped by `toStandardJsonSchema`) or any library that implements Standard JSON
 * Schema.
 *
 * It describes the schema's *input* side: a field with a default is optional, and
 * transforms do not matter. Recursive schemas come out as `$ref` into `$defs`.
 * Three things converters add that only cost tokens are removed: the `$schema`
 * line, the safe-integer bounds of integers, and the long regex zod writes next to
 * each string `format` (the format names the rule; the library still checks it).
 *
 * @throws {InvalidArgumentError} when the value is not a Standard Schema, when its
 * library offers no JSON Schema conversion, when the conversion is not plain JSON (a
 * cycle, a BigInt, a class instance), when the schema has no JSON Schema form
 * (e.g. a date or a function), or when it does not describe an object, which every
 * provider requires at the root of tool parameters. `subject` names the schema in
 * the message.
 */
export function toolInputSchema(schema: StandardSchemaV1 | z.ZodType, subject = 'Tool input schema'): JsonSchema {
  assertStandardSchema(schema, subject);
  let converted: JsonSchema;
  try {
    converted = convert(schema, subject);
  } catch (error) {
    if (error instanceof InvalidArgumentError) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new InvalidArgumentError(
      `${subject} has no JSON Schema form (${reason}). Use JSON types only: strings, numbers, booleans, arrays, objects.`,
    );
  }
  // A converter is the user's code: its output is checked before it is walked or sent.
  const problem = jsonValueProblem(converted);
  if (problem !== undefined) {
    throw new InvalidArgumentError(`${subject}: the JSON Schema its converter returned is not plain JSON (${problem}).`);
  }
  const { $schema: _dropped, ...rest } = converted;
  const cleaned = clean(rest);
  if (!typeNames(cleaned).includes('object')) {
    throw new InvalidArgumentError(
      `${subject} must describe an object (e.g. z.object(...)): providers require an object at the root of tool parameters and structured answers.`,
    );
  }
  return cleaned;
}

function convert(schema: StandardSchemaV1, subject: string): JsonSchema {
  // zod 4 (also through zod 3.25's `zod/v4`): its own converter, strict about what
  // it cannot represent.
  if ('_zod' in schema) return zod4JsonSchema(schema as z.ZodType);
  const props = schema['~standard'] as Partial<StandardJSONSchemaV1.Props>;
  if (props.jsonSchema && typeof props.jsonSchema.input === 'function') return standardJsonSchema(props.jsonSchema);
  // zod 3 implements Standard Schema but converts to nothing itself.
  if (props.vendor === 'zod' && '_def' in schema) {
    return zod3ToJsonSchema(schema, {
      target: 'jsonSchema2019-09',
      $refStrategy: 'root',
      definitionPath: '$defs',
      pipeStrategy: 'input',
      effectStrategy: 'input',
    });
  }
  const hint =
    props.vendor === 'valibot'
      ? ' Wrap a valibot schema with toStandardJsonSchema() from @valibot/to-json-schema.'
      : ' Use a library that implements Standard JSON Schema (https://standardschema.dev/json-schema).';
  throw new InvalidArgumentError(`${subject} (${String(props.vendor)}) offers no JSON Schema conversion.${hint}`);
}

/**
 * A zod 4 schema's JSON Schema. A schema of zod 4's classic API converts itself
 * (`schema.toJSONSchema`: zod's own converter, in the copy of zod the application
 * loaded, so converting loads nothing). zod mini schemas and zod 3.25's bundled v4
 * have no such method, and the method cannot convert a schema holding one of those
 * (it knows only schemas that carry their own converter): those go through
 * `z.toJSONSchema`, which knows every kind, as does a schema the method refuses, so
 * what cannot be represented fails with `z.toJSONSchema`'s error as before.
 */
function zod4JsonSchema(schema: z.ZodType): JsonSchema {
  const params = {
    io: 'input',
    target: 'draft-2020-12',
    unrepresentable: 'throw',
    // Descriptions live in the registry of the zod copy that made the schema (zod
    // 3.25's bundled v4 keeps its own), which each schema's `meta()` reads.
    metadata: { get: (node: { meta?: () => unknown }) => node.meta?.() } as never,
  } as const;
  const own = (schema as { toJSONSchema?: unknown }).toJSONSchema;
  if (typeof own === 'function') {
    try {
      return (own as (params: object) => JsonSchema).call(schema, params);
    } catch {
      // Converted again below: a schema holding a zod mini or zod 3.25 one, or one without a JSON Schema form.
    }
  }
  return zodNow().z.toJSONSchema(schema, params);
}

function standardJsonSchema(converter: StandardJSONSchemaV1.Converter): JsonSchema {
  try {
    return converter.input({ target: 'draft-2020-12' });
  } catch (error) {
    // A library may write only older drafts; the keywords providers read are the same.
    try {
      return converter.input({ target: 'draft-07' });
    } catch {
      throw error;
    }
  }
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
