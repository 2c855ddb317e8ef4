/**
 * The two ways a normalised schema changes what the model sends, and how a tool
 * reads such arguments back in their original shape.
 *
 * - OpenAI strict mode wants every property required, so an optional field becomes
 *   required-but-nullable and the model sends `null` to leave it out.
 * - Neither OpenAI strict mode nor Gemini can describe a map with free keys (a
 *   `z.record`), so it is offered as a list of `{ key, value }` entries.
 *
 * - Gemini lists enum values as strings, so a number enum may come back as `"3"`.
 *
 * {@link restoreNormalizedArguments} undoes all three, guided by the tool's own
 * schema. It only changes values that the original schema would reject anyway (a
 * `null` where null is not allowed, a list where a map is expected, a string where
 * only numbers are), so it is safe to run on every call, whatever provider produced
 * the arguments.
 */
import {
  branchesOf,
  isJsonObject,
  isNullSchema,
  isRecordSchema,
  type JsonSchema,
  propertiesOf,
  requiredOf,
  resolveLocalRef,
  typeNames,
  withNote,
} from './json-schema-node.js';

const ENTRIES_NOTE = 'A map, given as a list of {key, value} entries.';

/** The list-of-entries form of a record schema (see the module comment). */
export function recordAsEntries(record: JsonSchema): JsonSchema {
  const valueSchema = isJsonObject(record.additionalProperties) ? record.additionalProperties : {};
  const keySchema = isJsonObject(record.propertyNames) ? record.propertyNames : { type: 'string' };
  return {
    type: 'array',
    description: withNote(record.description, ENTRIES_NOTE),
    items: {
      type: 'object',
      properties: { key: { ...keySchema, type: 'string' }, value: valueSchema },
      required: ['key', 'value'],
    },
  };
}

/**
 * Returns `args` with `null` dropped from optional fields that do not accept null
 * and entry lists turned back into maps, following `schema` (the tool's original
 * input schema, the root of any `$ref`).
 */
export function restoreNormalizedArguments(schema: JsonSchema, args: unknown): unknown {
  return restore(schema, schema, args, 0);
}

// Deeper than any sane tool input; guards against cyclic `$ref` with cyclic data.
const MAX_DEPTH = 64;

function restore(root: JsonSchema, node: JsonSchema, value: unknown, depth: number): unknown {
  if (depth > MAX_DEPTH || value === null) return value;
  const resolved = typeof node.$ref === 'string' ? resolveLocalRef(root, node.$ref) : node;
  if (!resolved) return value;
  if (typeof value === 'string') return acceptsOnlyNumbers(resolved) && NUMERIC.test(value) ? Number(value) : value;
  if (typeof value !== 'object') return value;
  if (isRecordSchema(resolved)) return restoreRecord(root, resolved, value, depth);
  if (Array.isArray(value)) {
    const items = resolved.items;
    return isJsonObject(items) ? value.map((item) => restore(root, items, item, depth + 1)) : value;
  }
  const branch = matchingBranch(root, resolved, value);
  if (branch) return restore(root, branch, value, depth + 1);
  if (!typeNames(resolved).includes('object')) return value;
  return restoreObject(root, resolved, value as Record<string, unknown>, depth);
}

function restoreRecord(root: JsonSchema, record: JsonSchema, value: object, depth: number): unknown {
  const valueSchema = isJsonObject(record.additionalProperties) ? record.additionalProperties : {};
  const entries = Array.isArray(value) ? toEntries(value) : Object.entries(value);
  if (!entries) return value;
  return Object.fromEntries(entries.map(([key, item]) => [key, restore(root, valueSchema, item, depth + 1)]));
}

function toEntries(list: unknown[]): [string, unknown][] | undefined {
  const entries: [string, unknown][] = [];
  for (const item of list) {
    if (!isJsonObject(item) || typeof item.key !== 'string' || !('value' in item)) return undefined;
    entries.push([item.key, item.value]);
  }
  return entries;
}

function restoreObject(root: JsonSchema, node: JsonSchema, value: Record<string, unknown>, depth: number): unknown {
  const properties = propertiesOf(node);
  const required = new Set(requiredOf(node));
  const result: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    // Own properties only: `properties.__proto__` is Object.prototype.
    const propertySchema = Object.hasOwn(properties, key) ? properties[key] : undefined;
    if (propertySchema && item === null && !required.has(key) && !acceptsNull(root, propertySchema)) {
      continue; // Strict mode's stand-in for "absent": leave the field out so zod applies its default.
    }
    const restored = propertySchema ? restore(root, propertySchema, item, depth + 1) : item;
    // A data property, never `result[key] =`: a "__proto__" key from JSON.parse would set the prototype.
    Object.defineProperty(result, key, { value: restored, enumerable: true, writable: true, configurable: true });
  }
  return result;
}

const NUMERIC = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/;

function acceptsOnlyNumbers(node: JsonSchema): boolean {
  const names = typeNames(node);
  if (names.length > 0) return names.every((name) => name === 'number' || name === 'integer');
  const branches = branchesOf(node, 'anyOf');
  return branches.length > 0 && branches.every(acceptsOnlyNumbers);
}

/**
 * The union branch `value` belongs to: the only non-null branch, or among object
 * branches the one whose constant fields (a discriminator such as `type: 'delete'`)
 * match and whose properties cover the value's keys.
 */
function matchingBranch(root: JsonSchema, node: JsonSchema, value: object): JsonSchema | undefined {
  const branches = [...branchesOf(node, 'anyOf'), ...branchesOf(node, 'oneOf')]
    .map((branch) => (typeof branch.$ref === 'string' ? resolveLocalRef(root, branch.$ref) : branch))
    .filter((branch): branch is JsonSchema => branch !== undefined && !isNullSchema(branch));
  if (branches.length <= 1) return branches[0];
  const wanted = Array.isArray(value) ? 'array' : 'object';
  const sameType = branches.filter((branch) => typeNames(branch).includes(wanted));
  if (sameType.length <= 1 || Array.isArray(value)) return sameType[0];
  const fields = value as Record<string, unknown>;
  return sameType.find((branch) => {
    const properties = propertiesOf(branch);
    const constantsMatch = Object.entries(properties).every(
      ([key, property]) => !('const' in property) || property.const === fields[key],
    );
    return constantsMatch && Object.keys(fields).every((key) => key in properties);
  });
}

function acceptsNull(root: JsonSchema, node: JsonSchema): boolean {
  const resolved = typeof node.$ref === 'string' ? resolveLocalRef(root, node.$ref) : node;
  if (!resolved) return true;
  if (typeNames(resolved).some((name) => name.toLowerCase() === 'null')) return true;
  if (resolved.nullable === true || resolved.const === null) return true;
  if (Array.isArray(resolved.enum) && resolved.enum.includes(null)) return true;
  const branches = [...branchesOf(resolved, 'anyOf'), ...branchesOf(resolved, 'oneOf')];
  if (branches.some((branch) => acceptsNull(root, branch))) return true;
  // A schema without a type or combinator (`z.unknown()`) accepts null too.
  return typeNames(resolved).length === 0 && branches.length === 0 && !('enum' in resolved) && !('const' in resolved);
}
