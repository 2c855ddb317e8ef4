/**
 * Gemini function declarations take `parameters` as a subset of the OpenAPI 3.0
 * Schema object, not JSON Schema: no `$ref`/`$defs`, no `additionalProperties`, no
 * `const`/`oneOf`/`allOf`, `nullable` instead of a `null` type, string-only `enum`,
 * a few `format` values, and an OBJECT must declare at least one property.
 * {@link toGeminiSchema} rewrites a tool's JSON Schema into that subset and
 * {@link checkGeminiSchema} lists what breaks it.
 *
 * Maps become lists of `{key, value}` entries; `defineTool` reads them back, see
 * `normalized-arguments.ts`.
 *
 * @see https://ai.google.dev/api/caching#Schema
 * @see https://ai.google.dev/gemini-api/docs/function-calling
 */
import {
  branchesOf,
  firstOfAllOf,
  isJsonObject,
  isNullSchema,
  isRecordSchema,
  type JsonSchema,
  mergeAllOf,
  pointer,
  propertiesOf,
  requiredOf,
  resolveLocalRef,
  rewriteSchema,
  type SchemaRewriteRules,
  type SchemaViolation,
  typeNames,
  unsupportedKeywords,
  walkSchema,
} from './json-schema-node.js';
import { recordAsEntries } from './normalized-arguments.js';
import { UnsupportedSchemaError } from './unsupported-schema-error.js';

const DIALECT = 'the Gemini schema subset';

/** The fields of Gemini's `Schema` object. */
const SUPPORTED_KEYWORDS: ReadonlySet<string> = new Set([
  ...['type', 'format', 'title', 'description', 'nullable', 'enum', 'default', 'example', 'anyOf'],
  ...['properties', 'required', 'propertyOrdering', 'minProperties', 'maxProperties'],
  ...['items', 'minItems', 'maxItems', 'minLength', 'maxLength', 'pattern', 'minimum', 'maximum'],
]);

/** Gemini's `Type` values (the REST API spells them in capitals). */
const TYPES: ReadonlySet<string> = new Set(['STRING', 'NUMBER', 'INTEGER', 'BOOLEAN', 'ARRAY', 'OBJECT', 'NULL']);

/** The `format` values each type supports; others are dropped and named in the description. */
const FORMATS_BY_TYPE: Readonly<Record<string, readonly string[]>> = {
  STRING: ['enum', 'date-time'],
  NUMBER: ['float', 'double', 'enum'],
  INTEGER: ['int32', 'int64', 'enum'],
};

/**
 * Rewrites a JSON Schema (a tool's input schema) into Gemini's schema subset.
 * Returns `undefined` for an object without properties: a tool with no parameters
 * must omit `parameters` entirely, since Gemini rejects an empty OBJECT.
 *
 * @throws {@link UnsupportedSchemaError} for a recursive schema, which cannot be inlined.
 */
export function toGeminiSchema(schema: JsonSchema): JsonSchema | undefined {
  const result = rewriteSchema(schema, geminiRules(schema), []);
  if (result.type === 'OBJECT' && Object.keys(propertiesOf(result)).length === 0) return undefined;
  return result;
}

/** The Gemini rewrite of a node; the context is the `$ref`s inlined above it (a repeat is recursion). */
function geminiRules(root: JsonSchema): SchemaRewriteRules<readonly string[]> {
  return {
    supported: SUPPORTED_KEYWORDS,
    // Definitions are inlined where they are used; a `const` becomes a one-value `enum`.
    unnoted: new Set(['$schema', '$defs', 'definitions', 'const']),
    reshape(node, refs) {
      if (typeof node.$ref === 'string') return { node: inlineRef(root, node, refs), context: [...refs, node.$ref] };
      if (isRecordSchema(node)) return { node: recordAsEntries(node), context: refs };
      if (Array.isArray(node.allOf)) return { node: mergeAllOf(node) ?? firstOfAllOf(node), context: refs };
      const unioned = collapseUnion(node);
      return unioned === node ? undefined : { node: unioned, context: refs };
    },
    adjust(result, node, dropped) {
      const type = geminiType(node);
      if (type) result.type = type;
      if ('const' in node) Object.assign(result, { enum: [node.const] });
      Object.assign(dropped, fixEnum(result), fixFormat(result), fixBounds(result, dropped));
    },
    rewriteChildren(result, node, rewrite) {
      const type = geminiType(node);
      if (type === 'OBJECT') {
        const properties = propertiesOf(node);
        result.properties = Object.fromEntries(Object.entries(properties).map(([key, value]) => [key, rewrite(value)]));
        const required = requiredOf(node).filter((key) => key in properties);
        if (required.length > 0) result.required = required;
        else delete result.required;
      } else {
        delete result.properties;
        delete result.required;
      }
      if (type === 'ARRAY' && isJsonObject(node.items)) result.items = rewrite(node.items);
      else delete result.items;
      if (Array.isArray(result.anyOf)) result.anyOf = branchesOf(result, 'anyOf').map(rewrite);
    },
  };
}

/** The node's single type in Gemini's spelling (capitals). */
function geminiType(node: JsonSchema): string | undefined {
  return typeof node.type === 'string' ? node.type.toUpperCase() : undefined;
}

function inlineRef(root: JsonSchema, node: JsonSchema, refs: readonly string[]): JsonSchema {
  const ref = node.$ref as string;
  if (refs.includes(ref)) {
    throw new UnsupportedSchemaError(
      `The tool schema is recursive (${ref}), which the Gemini schema subset cannot express. ` +
        'Make the schema non-recursive, or send it as parametersJsonSchema instead of parameters.',
    );
  }
  const target = resolveLocalRef(root, ref);
  if (!target) throw new UnsupportedSchemaError(`The tool schema has a $ref that does not resolve: ${ref}.`);
  const { $ref: _ref, ...siblings } = node;
  return { ...target, ...siblings };
}

/**
 * `oneOf` -> `anyOf`; a `null` branch or type -> `nullable: true`; a union of
 * constants -> one `enum`; a union left with one branch is merged into the node; a
 * type array of several types -> `anyOf`. Returns `node` itself when it is already
 * in that form.
 */
function collapseUnion(node: JsonSchema): JsonSchema {
  const branches = [...branchesOf(node, 'anyOf'), ...branchesOf(node, 'oneOf')];
  const names = typeNames(node);
  const { anyOf: _anyOf, oneOf: _oneOf, type: _type, ...rest } = node;
  if (branches.length === 0) {
    if (!Array.isArray(node.type)) return node;
    const types = names.filter((name) => name !== 'null');
    const base = names.includes('null') ? { ...rest, nullable: true } : rest;
    if (types.length <= 1) return { ...base, ...(types[0] ? { type: types[0] } : {}) };
    return { ...base, anyOf: types.map((name) => ({ type: name })) };
  }
  const kept = branches.filter((branch) => !isNullSchema(branch));
  const nullable = kept.length < branches.length;
  if (!nullable && !('oneOf' in node) && kept.length > 1 && !('type' in node) && !isConstantUnion(kept)) return node;
  const base: JsonSchema = nullable ? { ...rest, nullable: true } : rest;
  if (isConstantUnion(kept)) return { ...base, type: kept[0]?.type, enum: kept.map((branch) => branch.const) };
  if (kept.length === 1) {
    const [only] = kept as [JsonSchema];
    return { ...only, ...base, description: base.description ?? only.description };
  }
  return { ...base, anyOf: kept };
}

/** True for `anyOf` branches that are all constants of one type (a union of literals). */
function isConstantUnion(branches: JsonSchema[]): boolean {
  const type = branches[0]?.type;
  return (
    branches.length > 1 &&
    typeof type === 'string' &&
    branches.every((branch) => 'const' in branch && branch.type === type)
  );
}

/** Enum values as strings; `null` among them means nullable; booleans cannot be listed. */
function fixEnum(node: JsonSchema): Record<string, unknown> {
  if (!Array.isArray(node.enum)) return {};
  const values = node.enum;
  if (values.includes(null)) node.nullable = true;
  const listed = values.filter((value) => value !== null);
  if (listed.some((value) => typeof value !== 'string' && typeof value !== 'number')) {
    delete node.enum;
    return { enum: undefined, 'one of': listed.map((value) => JSON.stringify(value)).join(' | ') };
  }
  node.enum = listed.map(String);
  node.format = 'enum';
  return {};
}

function fixFormat(node: JsonSchema): Record<string, unknown> {
  if (typeof node.format !== 'string') return {};
  const allowed = FORMATS_BY_TYPE[String(node.type)] ?? [];
  if (allowed.includes(node.format)) return {};
  const format = node.format;
  delete node.format;
  return { format };
}

/** Exclusive bounds of integers become inclusive ones; for numbers they stay in the description. */
function fixBounds(node: JsonSchema, dropped: Record<string, unknown>): Record<string, unknown> {
  if (node.type !== 'INTEGER') return {};
  const kept: Record<string, unknown> = {};
  if (typeof dropped.exclusiveMinimum === 'number') node.minimum = Math.floor(dropped.exclusiveMinimum) + 1;
  else kept.exclusiveMinimum = dropped.exclusiveMinimum;
  if (typeof dropped.exclusiveMaximum === 'number') node.maximum = Math.ceil(dropped.exclusiveMaximum) - 1;
  else kept.exclusiveMaximum = dropped.exclusiveMaximum;
  delete dropped.exclusiveMinimum;
  delete dropped.exclusiveMaximum;
  return kept;
}

/**
 * Lists every way `schema` breaks the Gemini schema subset: unsupported keywords,
 * missing or unknown types, type arrays, formats a type does not support, non-string
 * enum values, OBJECTs without properties or with `required` names they do not
 * declare, fields that belong to another type, ARRAYs without `items`, and a root
 * that is not an OBJECT.
 */
export function checkGeminiSchema(schema: JsonSchema): SchemaViolation[] {
  const violations: SchemaViolation[] = [];
  if (String(schema.type).toUpperCase() !== 'OBJECT') {
    violations.push({ path: '', message: 'the root of function parameters must be an OBJECT' });
  }
  walkSchema(schema, (node, path) => {
    violations.push(...unsupportedKeywords(node, path, SUPPORTED_KEYWORDS, DIALECT), ...nodeViolations(node, path));
  });
  return violations;
}

function nodeViolations(node: JsonSchema, path: string): SchemaViolation[] {
  const found: SchemaViolation[] = [];
  const add = (at: string, message: string) => found.push({ path: at, message });
  const type = typeof node.type === 'string' ? node.type.toUpperCase() : undefined;
  if (Array.isArray(node.type)) add(pointer(path, 'type'), 'type must be a single value; use "nullable" for null');
  else if (type === undefined && !('anyOf' in node)) add(path, 'every schema needs a "type" (or "anyOf")');
  else if (type !== undefined && !TYPES.has(type)) add(pointer(path, 'type'), `unknown type "${String(node.type)}"`);
  if (typeof node.format === 'string' && !(FORMATS_BY_TYPE[type ?? ''] ?? []).includes(node.format)) {
    add(pointer(path, 'format'), `format "${node.format}" is not supported for type ${type ?? '(none)'}`);
  }
  if (Array.isArray(node.enum) && node.enum.some((value) => typeof value !== 'string')) {
    add(pointer(path, 'enum'), 'enum values must be strings');
  }
  const properties = Object.keys(propertiesOf(node));
  if (type === 'OBJECT' && properties.length === 0)
    add(pointer(path, 'properties'), 'should be non-empty for OBJECT type');
  if (type !== 'OBJECT' && ('properties' in node || 'required' in node)) {
    add(path, 'properties and required are only allowed for OBJECT type');
  }
  const undeclared = requiredOf(node).filter((key) => !properties.includes(key));
  if (undeclared.length > 0)
    add(pointer(path, 'required'), `required names undeclared properties: ${undeclared.join(', ')}`);
  if (type === 'ARRAY' && !isJsonObject(node.items)) add(path, 'an ARRAY needs "items"');
  if (type !== 'ARRAY' && 'items' in node) add(pointer(path, 'items'), 'items is only allowed for ARRAY type');
  return found;
}
