/**
 * OpenAI strict mode (`strict: true` on a function tool): the model's arguments are
 * guaranteed to match the schema, but only a subset of JSON Schema is accepted.
 * {@link toOpenAIStrictSchema} rewrites a tool's JSON Schema into that subset and
 * {@link checkOpenAIStrictSchema} lists what still breaks the rules; send
 * `strict: true` only when the list is empty.
 *
 * The rewrite changes the wire shape in two ways (optional fields become nullable,
 * maps become entry lists); `defineTool` reads both back, see `normalized-arguments.ts`.
 *
 * @see https://platform.openai.com/docs/guides/structured-outputs#supported-schemas
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

const DIALECT = 'OpenAI strict mode';

/** Keywords strict mode accepts (annotations, structure, and the supported constraints). */
const SUPPORTED_KEYWORDS: ReadonlySet<string> = new Set([
  ...['type', 'properties', 'required', 'additionalProperties', 'items', 'anyOf', 'enum', 'const'],
  ...['description', 'title', '$ref', '$defs', 'definitions'],
  ...['pattern', 'format'],
  ...['multipleOf', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum'],
  ...['minItems', 'maxItems'],
]);

/** String formats strict mode accepts. */
const SUPPORTED_FORMATS: ReadonlySet<string> = new Set([
  ...['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid'],
]);

/** Size limits of a strict schema. */
const OPENAI_STRICT_LIMITS = { maxObjectDepth: 10, maxProperties: 5000, maxEnumValues: 1000 } as const;

/**
 * Rewrites a JSON Schema for OpenAI strict mode: every object gets
 * `additionalProperties: false` and lists every property as required (optional ones
 * become nullable), `oneOf` becomes `anyOf`, `allOf` of objects is merged, maps become
 * lists of `{key, value}` entries, and unsupported keywords are dropped (defaults and
 * length limits survive as a sentence in the description). `$defs` and `$ref` stay,
 * since strict mode supports them, recursion included.
 *
 * Not fixable here: a root that is not an object, and nodes without a type (`z.unknown()`).
 * {@link checkOpenAIStrictSchema} reports those.
 */
export function toOpenAIStrictSchema(schema: JsonSchema): JsonSchema {
  return rewriteSchema(schema, strictRules, undefined);
}

/** The strict-mode rewrite of a node (no context: `$ref`s stay as they are). */
const strictRules: SchemaRewriteRules<undefined> = {
  supported: SUPPORTED_KEYWORDS,
  reshape(node) {
    if (isRecordSchema(node)) return { node: recordAsEntries(node), context: undefined };
    if (Array.isArray(node.allOf)) return { node: mergeAllOf(node) ?? firstOfAllOf(node), context: undefined };
    if (Array.isArray(node.oneOf)) {
      const { oneOf, ...rest } = node;
      return { node: { ...rest, anyOf: [...branchesOf(rest, 'anyOf'), ...(oneOf as unknown[])] }, context: undefined };
    }
    const split = splitTypeArray(node);
    return split ? { node: split, context: undefined } : undefined;
  },
  adjust(result, _node, dropped) {
    if (typeof result.format === 'string' && !SUPPORTED_FORMATS.has(result.format)) {
      dropped.format = result.format;
      delete result.format;
    }
  },
  rewriteChildren(result, _node, rewrite) {
    if (typeNames(result).includes('object') || isJsonObject(result.properties)) strictObject(result, rewrite);
    if (isJsonObject(result.items)) result.items = rewrite(result.items);
    if (Array.isArray(result.anyOf)) result.anyOf = branchesOf(result, 'anyOf').map(rewrite);
    for (const keyword of ['$defs', 'definitions'] as const) {
      const definitions = result[keyword];
      if (!isJsonObject(definitions)) continue;
      result[keyword] = Object.fromEntries(
        Object.entries(definitions).map(([name, definition]) => [
          name,
          isJsonObject(definition) ? rewrite(definition) : definition,
        ]),
      );
    }
  },
};

function strictObject(node: JsonSchema, rewrite: (child: JsonSchema) => JsonSchema): void {
  const required = new Set(requiredOf(node));
  const properties: Record<string, JsonSchema> = {};
  for (const [key, property] of Object.entries(propertiesOf(node))) {
    const strict = rewrite(property);
    properties[key] = required.has(key) ? strict : nullable(strict);
  }
  node.properties = properties;
  node.required = Object.keys(properties);
  node.additionalProperties = false;
}

/** The same schema, also accepting `null` (strict mode's way of saying "optional"). */
function nullable(node: JsonSchema): JsonSchema {
  if (acceptsNull(node)) return node;
  const names = typeNames(node);
  const simple = names.length === 1 && names[0] !== 'object' && names[0] !== 'array' && !('const' in node);
  if (simple) {
    const result: JsonSchema = { ...node, type: [names[0], 'null'] };
    if (Array.isArray(node.enum)) result.enum = [...node.enum, null];
    return result;
  }
  if (Array.isArray(node.anyOf)) return { ...node, anyOf: [...node.anyOf, { type: 'null' }] };
  const { description, ...inner } = node;
  return { ...(description === undefined ? {} : { description }), anyOf: [inner, { type: 'null' }] };
}

function acceptsNull(node: JsonSchema): boolean {
  return typeNames(node).includes('null') || branchesOf(node, 'anyOf').some(isNullSchema);
}

/** `type: ['string', 'number']` as `anyOf`, keeping `null` as a branch of its own. */
function splitTypeArray(node: JsonSchema): JsonSchema | undefined {
  const names = typeNames(node);
  const others = names.filter((name) => name !== 'null');
  if (!Array.isArray(node.type) || others.length <= 1) return undefined;
  const { type: _type, description, ...constraints } = node;
  const branches = names.map((name) => ({ type: name, ...(name === 'null' ? {} : constraints) }));
  return { ...(description === undefined ? {} : { description }), anyOf: branches };
}

/**
 * Lists every way `schema` breaks OpenAI strict mode: unsupported keywords and
 * formats, objects without `additionalProperties: false` or with properties left out
 * of `required`, arrays without an `items` schema, nodes without a type, a root that is not an object, unresolvable
 * `$ref`s, and the size limits (objects nested 10 deep, 5,000 properties, 1,000 enum values).
 */
export function checkOpenAIStrictSchema(schema: JsonSchema): SchemaViolation[] {
  const violations: SchemaViolation[] = [];
  if (!(schema.type === 'object') || 'anyOf' in schema) {
    violations.push({ path: '', message: 'the root must be a plain object schema (type "object", no anyOf)' });
  }
  let propertyCount = 0;
  let enumCount = 0;
  walkSchema(schema, (node, path) => {
    violations.push(
      ...unsupportedKeywords(node, path, SUPPORTED_KEYWORDS, DIALECT),
      ...nodeViolations(schema, node, path),
    );
    propertyCount += Object.keys(propertiesOf(node)).length;
    if (Array.isArray(node.enum)) enumCount += node.enum.length;
  });
  const depth = objectDepth(schema, schema, new Set());
  const limits = OPENAI_STRICT_LIMITS;
  if (depth > limits.maxObjectDepth)
    violations.push({ path: '', message: `objects nest ${depth} deep; at most ${limits.maxObjectDepth}` });
  if (propertyCount > limits.maxProperties)
    violations.push({ path: '', message: `${propertyCount} properties; at most ${limits.maxProperties}` });
  if (enumCount > limits.maxEnumValues)
    violations.push({ path: '', message: `${enumCount} enum values; at most ${limits.maxEnumValues}` });
  return violations;
}

function nodeViolations(root: JsonSchema, node: JsonSchema, path: string): SchemaViolation[] {
  const violations: SchemaViolation[] = [];
  if (!('type' in node) && !('anyOf' in node) && !('$ref' in node)) {
    violations.push({ path, message: 'every schema needs a "type" (strict mode cannot express "any value")' });
  }
  if (typeof node.format === 'string' && !SUPPORTED_FORMATS.has(node.format)) {
    violations.push({
      path: pointer(path, 'format'),
      message: `format "${node.format}" is not supported by ${DIALECT}`,
    });
  }
  if (typeof node.$ref === 'string' && !resolveLocalRef(root, node.$ref)) {
    violations.push({
      path: pointer(path, '$ref'),
      message: `$ref "${node.$ref}" does not point into this schema's $defs`,
    });
  }
  // OpenAI refuses an array schema missing items; a tuple's prefixItems is outside the subset.
  if (typeNames(node).includes('array') && !isJsonObject(node.items)) {
    violations.push({ path, message: 'an array needs an "items" schema (tuples are not supported)' });
  }
  if (typeNames(node).includes('object')) {
    if (node.additionalProperties !== false) {
      violations.push({ path, message: 'objects must set "additionalProperties": false' });
    }
    const required = new Set(requiredOf(node));
    const missing = Object.keys(propertiesOf(node)).filter((key) => !required.has(key));
    if (missing.length > 0) {
      violations.push({
        path: pointer(path, 'required'),
        message: `every property must be required; missing ${missing.join(', ')}`,
      });
    }
  }
  return violations;
}

/** How deep objects nest, following `$ref` once per definition (recursion counts as one level). */
function objectDepth(root: JsonSchema, node: JsonSchema, seenRefs: Set<string>): number {
  if (typeof node.$ref === 'string') {
    if (seenRefs.has(node.$ref)) return 0;
    const target = resolveLocalRef(root, node.$ref);
    return target ? objectDepth(root, target, new Set([...seenRefs, node.$ref])) : 0;
  }
  const children = [
    ...Object.values(propertiesOf(node)),
    ...(isJsonObject(node.items) ? [node.items] : []),
    ...branchesOf(node, 'anyOf'),
  ];
  const below = Math.max(0, ...children.map((child) => objectDepth(root, child, seenRefs)));
  return below + (typeNames(node).includes('object') ? 1 : 0);
}
