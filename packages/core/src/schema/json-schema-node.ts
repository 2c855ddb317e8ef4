/**
 * Plain helpers over JSON Schema documents as the schema normalisers see them:
 * untyped records, walked by keyword, and the two walks they share: over every
 * subschema ({@link walkSchema}, for the checkers) and rewriting each node into a
 * dialect ({@link rewriteSchema}). Kept apart so each normaliser reads as its list of
 * rules rather than as tree plumbing.
 */

import { isJsonObject, typeNames } from '../support/json-schema.js';

// The two helpers are core's (its zod converter needs them too).
export { isJsonObject, typeNames };

/** A JSON Schema node (or any JSON object); the same shape core's zod converter produces. */
export type JsonSchema = Record<string, unknown>;

/** One rule a schema breaks, found by a checker. */
export interface SchemaViolation {
  /** JSON Pointer-like location, such as `/properties/path/type` (empty for the root). */
  path: string;
  /** What is wrong, in words. */
  message: string;
}

/** The node's `properties` as a record (empty when absent). */
export function propertiesOf(node: JsonSchema): Record<string, JsonSchema> {
  const properties = node.properties;
  if (!isJsonObject(properties)) return {};
  const result: Record<string, JsonSchema> = {};
  for (const [key, value] of Object.entries(properties)) if (isJsonObject(value)) result[key] = value;
  return result;
}

/** The node's `required` names (empty when absent). */
export function requiredOf(node: JsonSchema): string[] {
  return Array.isArray(node.required) ? node.required.filter((key): key is string => typeof key === 'string') : [];
}

/** The subschemas of a combinator keyword such as `anyOf` (empty when absent). */
export function branchesOf(node: JsonSchema, keyword: 'anyOf' | 'oneOf' | 'allOf'): JsonSchema[] {
  const branches = node[keyword];
  return Array.isArray(branches) ? branches.filter(isJsonObject) : [];
}

/** True for the schema of `null` alone (`{ type: 'null' }`). */
export function isNullSchema(node: JsonSchema): boolean {
  const names = typeNames(node);
  return names.length === 1 && names[0]?.toLowerCase() === 'null';
}

/**
 * True for a map with free keys: an object whose `additionalProperties` is a schema
 * and that declares no fixed properties (what `z.record` produces).
 */
export function isRecordSchema(node: JsonSchema): boolean {
  return (
    typeNames(node).includes('object') &&
    isJsonObject(node.additionalProperties) &&
    Object.keys(propertiesOf(node)).length === 0
  );
}

/**
 * Resolves a local `$ref` (`#/$defs/Name`, `#/definitions/Name` or `#`) against the
 * root document; `undefined` for anything else.
 */
export function resolveLocalRef(root: JsonSchema, ref: string): JsonSchema | undefined {
  if (ref === '#') return root;
  const match = /^#\/(\$defs|definitions)\/(.+)$/.exec(ref);
  if (!match) return undefined;
  const definitions = root[match[1]!];
  if (!isJsonObject(definitions)) return undefined;
  const target = definitions[decodePointerToken(match[2]!)];
  return isJsonObject(target) ? target : undefined;
}

/** Appends one segment to a JSON Pointer, escaping `~` and `/`. */
export function pointer(base: string, segment: string | number): string {
  return `${base}/${String(segment).replaceAll('~', '~0').replaceAll('/', '~1')}`;
}

function decodePointerToken(token: string): string {
  return token.replaceAll('~1', '/').replaceAll('~0', '~');
}

/** Appends a sentence to a node's description (used to keep dropped constraints visible to the model). */
export function withNote(description: unknown, note: string): string {
  const base = typeof description === 'string' ? description.trim() : '';
  if (base === '') return note;
  return /[.!?]$/.test(base) ? `${base} ${note}` : `${base}. ${note}`;
}

// Keywords whose value is one subschema, a list of them, or a map of them.
const SINGLE_SUBSCHEMA = ['items', 'additionalProperties', 'not', 'propertyNames', 'contains', 'if', 'then', 'else'];
const LIST_OF_SUBSCHEMAS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];
const MAP_OF_SUBSCHEMAS = ['properties', '$defs', 'definitions', 'patternProperties'];

/** Calls `visit` on `node` and on every subschema below it, depth first, with its pointer. */
export function walkSchema(node: JsonSchema, visit: (node: JsonSchema, path: string) => void, path = ''): void {
  visit(node, path);
  for (const keyword of SINGLE_SUBSCHEMA) {
    const child = node[keyword];
    if (isJsonObject(child)) walkSchema(child, visit, pointer(path, keyword));
  }
  for (const keyword of LIST_OF_SUBSCHEMAS) {
    const children = node[keyword];
    if (!Array.isArray(children)) continue;
    children.forEach((child, index) => {
      if (isJsonObject(child)) walkSchema(child, visit, pointer(pointer(path, keyword), index));
    });
  }
  for (const keyword of MAP_OF_SUBSCHEMAS) {
    const children = node[keyword];
    if (!isJsonObject(children)) continue;
    for (const [key, child] of Object.entries(children)) {
      if (isJsonObject(child)) walkSchema(child, visit, pointer(pointer(path, keyword), key));
    }
  }
}

/**
 * One target dialect's rules for {@link rewriteSchema}: what it keeps, how it reshapes
 * a node it cannot take as it is, and which subschemas it rewrites. `Context` travels
 * down the tree (such as the `$ref`s being inlined above a node).
 */
export interface SchemaRewriteRules<Context> {
  /** Keywords kept as they are; the others are dropped. */
  supported: ReadonlySet<string>;
  /** Dropped keywords left out of the note: the dialect says them another way. */
  unnoted?: ReadonlySet<string>;
  /**
   * An equivalent node in a form nearer the dialect (a `$ref` inlined, a map as
   * entries, a union collapsed), or `undefined` once `node` is in its final form.
   */
  reshape(node: JsonSchema, context: Context): { node: JsonSchema; context: Context } | undefined;
  /** Fixes the kept keywords (`result`) of `node`, moving what it cannot keep into `dropped`. */
  adjust(result: JsonSchema, node: JsonSchema, dropped: Record<string, unknown>): void;
  /** Replaces the subschemas in `result` (copied from `node`) by their rewrites. */
  rewriteChildren(result: JsonSchema, node: JsonSchema, rewrite: (child: JsonSchema) => JsonSchema): void;
}

/**
 * Rewrites `node` and its subschemas into a dialect: reshape until the node is in its
 * final form, keep the supported keywords, note the dropped constraints in the
 * description ({@link constraintNote}), then rewrite the subschemas the same way.
 */
export function rewriteSchema<Context>(node: JsonSchema, rules: SchemaRewriteRules<Context>, context: Context): JsonSchema {
  const reshaped = rules.reshape(node, context);
  if (reshaped) return rewriteSchema(reshaped.node, rules, reshaped.context);
  const result: JsonSchema = {};
  const dropped: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (rules.supported.has(key)) result[key] = value;
    else if (!rules.unnoted?.has(key)) dropped[key] = value;
  }
  rules.adjust(result, node, dropped);
  const note = constraintNote(dropped);
  if (note) result.description = withNote(result.description, note);
  rules.rewriteChildren(result, node, (child) => rewriteSchema(child, rules, context));
  return result;
}

/** Lists the keywords of `node` that are not in `allowed`, as violations. */
export function unsupportedKeywords(
  node: JsonSchema,
  path: string,
  allowed: ReadonlySet<string>,
  dialect: string,
): SchemaViolation[] {
  return Object.keys(node)
    .filter((key) => !allowed.has(key))
    .map((key) => ({ path: pointer(path, key), message: `keyword "${key}" is not supported by ${dialect}` }));
}

/**
 * Merges the object branches of an `allOf` (what `z.intersection` produces) into one
 * object schema; `undefined` when a branch is not a plain object schema.
 */
export function mergeAllOf(node: JsonSchema): JsonSchema | undefined {
  const branches = Array.isArray(node.allOf) ? node.allOf : [];
  const { allOf: _merged, ...rest } = node;
  const properties: Record<string, JsonSchema> = { ...propertiesOf(rest) };
  const required = new Set(requiredOf(rest));
  for (const branch of branches) {
    if (!isJsonObject(branch) || !typeNames(branch).includes('object') || branch.allOf || branch.$ref) return undefined;
    Object.assign(properties, propertiesOf(branch));
    for (const key of requiredOf(branch)) required.add(key);
  }
  return { ...rest, type: 'object', properties, required: [...required] };
}

// Dropped keywords worth telling the model about; structural ones (such as
// `additionalProperties`) are replaced by the dialect's own form instead.
const NOTED_KEYWORDS: ReadonlySet<string> = new Set([
  ...['default', 'format', 'pattern', 'minLength', 'maxLength', 'multipleOf', 'one of'],
  ...['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'],
  ...['minItems', 'maxItems', 'uniqueItems', 'minProperties', 'maxProperties'],
]);

/** A compact sentence listing constraints a dialect cannot express, for the description. */
export function constraintNote(dropped: Record<string, unknown>): string | undefined {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(dropped)) {
    if (!NOTED_KEYWORDS.has(key) || value === undefined) continue;
    if (key === 'default') parts.unshift(`Default: ${JSON.stringify(value)}.`);
    else if (typeof value !== 'object' || value === null) parts.push(`${key} ${JSON.stringify(value)}`);
  }
  const [first, ...others] = parts;
  if (first === undefined) return undefined;
  if (first.startsWith('Default:')) return others.length === 0 ? first : `${first} Constraints: ${others.join(', ')}.`;
  return `Constraints: ${parts.join(', ')}.`;
}

/**
 * An `allOf` that {@link mergeAllOf} cannot merge, reduced to its first branch: no
 * target dialect here can intersect non-object schemas, and zod still checks the
 * whole intersection when the tool runs. The description says something was left out.
 */
export function firstOfAllOf(node: JsonSchema): JsonSchema {
  const [first, ...others] = branchesOf(node, 'allOf');
  const { allOf: _allOf, ...rest } = node;
  const merged = { ...rest, ...(first ?? {}) };
  if (others.length === 0) return merged;
  return { ...merged, description: withNote(merged.description, 'Must also match further constraints not shown.') };
}
