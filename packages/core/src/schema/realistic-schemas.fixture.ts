/**
 * Tool input schemas shaped like real tools, for the normaliser tests. Each comes
 * with arguments a strict-mode model would send (optional fields as `null`, maps as
 * entry lists) and what the tool should see after reading them back.
 */
import { z } from 'zod';

export interface SchemaFixture {
  name: string;
  schema: z.ZodType;
  /** Arguments in OpenAI strict mode's wire shape (optional fields sent as `null`). */
  wireArgs: Record<string, unknown>;
  /** Arguments in Gemini's wire shape (optional fields left out, enum numbers as strings). */
  geminiArgs: Record<string, unknown>;
  /** What zod should produce from them after `restoreNormalizedArguments`. */
  parsed: Record<string, unknown>;
}

export const realisticSchemas: SchemaFixture[] = [
  {
    name: 'nested objects',
    schema: z.object({
      repository: z.object({ owner: z.string(), name: z.string() }).describe('Where to open the issue'),
      title: z.string().max(120),
      body: z.string().optional(),
      assignees: z.array(z.object({ login: z.string() })).optional(),
    }),
    wireArgs: {
      repository: { owner: 'acme', name: 'api' },
      title: 'CI red',
      body: null,
      assignees: [{ login: 'ann' }],
    },
    geminiArgs: { repository: { owner: 'acme', name: 'api' }, title: 'CI red', assignees: [{ login: 'ann' }] },
    parsed: { repository: { owner: 'acme', name: 'api' }, title: 'CI red', assignees: [{ login: 'ann' }] },
  },
  {
    name: 'optional fields with defaults and descriptions',
    schema: z.object({
      path: z.string().describe('File path relative to the root'),
      startLine: z.int().min(1).optional().describe('First line, 1-based'),
      encoding: z.enum(['utf8', 'latin1']).default('utf8'),
      limit: z.number().int().positive().default(50),
    }),
    wireArgs: { path: 'a.ts', startLine: null, encoding: null, limit: null },
    geminiArgs: { path: 'a.ts' },
    parsed: { path: 'a.ts', encoding: 'utf8', limit: 50 },
  },
  {
    name: 'enums and literals',
    schema: z.object({
      level: z.enum(['debug', 'info', 'warn', 'error']),
      format: z.enum(['json', 'text']).optional(),
      version: z.literal(2),
      kind: z.literal('query'),
      retries: z.union([z.literal(0), z.literal(1), z.literal(3)]),
    }),
    wireArgs: { level: 'warn', format: null, version: 2, kind: 'query', retries: 3 },
    geminiArgs: { level: 'warn', version: 2, kind: 'query', retries: 3 },
    parsed: { level: 'warn', version: 2, kind: 'query', retries: 3 },
  },
  {
    name: 'arrays with bounds',
    schema: z.object({
      edits: z
        .array(z.object({ line: z.int().min(1), text: z.string(), note: z.string().optional() }))
        .min(1)
        .max(50),
      tags: z.array(z.string().min(1)).optional(),
      unique: z.array(z.number()).optional(),
    }),
    wireArgs: { edits: [{ line: 3, text: 'x', note: null }], tags: null, unique: [1.5] },
    geminiArgs: { edits: [{ line: 3, text: 'x' }], unique: [1.5] },
    parsed: { edits: [{ line: 3, text: 'x' }], unique: [1.5] },
  },
  {
    name: 'unions',
    schema: z.object({
      target: z.union([z.string(), z.object({ id: z.number() })]),
      action: z.discriminatedUnion('type', [
        z.object({ type: z.literal('rename'), to: z.string() }),
        z.object({ type: z.literal('delete'), force: z.boolean().optional() }),
      ]),
      cursor: z.string().nullable(),
      value: z.union([z.string(), z.number(), z.boolean()]).optional(),
    }),
    wireArgs: { target: { id: 7 }, action: { type: 'delete', force: null }, cursor: null, value: 4 },
    geminiArgs: { target: { id: 7 }, action: { type: 'delete' }, cursor: null, value: 4 },
    parsed: { target: { id: 7 }, action: { type: 'delete' }, cursor: null, value: 4 },
  },
  {
    name: 'records',
    schema: z.object({
      env: z.record(z.string(), z.string()).describe('Extra environment variables'),
      weights: z.record(z.string(), z.object({ value: z.number(), note: z.string().optional() })).optional(),
    }),
    wireArgs: {
      env: [{ key: 'CI', value: '1' }],
      weights: [{ key: 'a', value: { value: 0.5, note: null } }],
    },
    geminiArgs: { env: [{ key: 'CI', value: '1' }], weights: [{ key: 'a', value: { value: 0.5 } }] },
    parsed: { env: { CI: '1' }, weights: { a: { value: 0.5 } } },
  },
  {
    name: 'string formats and length limits',
    schema: z.object({
      email: z.email(),
      when: z.iso.datetime().optional(),
      id: z.uuid(),
      name: z.string().min(1).max(40),
      homepage: z.url().optional(),
      score: z.number().gt(0).lt(10),
      count: z.int().gt(0).lte(100),
    }),
    wireArgs: {
      email: 'a@b.co',
      when: null,
      id: '3f1c1b2e-8a4d-4c2a-9f3e-2b1a0c9d8e7f',
      name: 'x',
      homepage: null,
      score: 5,
      count: 1,
    },
    geminiArgs: { email: 'a@b.co', id: '3f1c1b2e-8a4d-4c2a-9f3e-2b1a0c9d8e7f', name: 'x', score: 5, count: 1 },
    parsed: { email: 'a@b.co', id: '3f1c1b2e-8a4d-4c2a-9f3e-2b1a0c9d8e7f', name: 'x', score: 5, count: 1 },
  },
  {
    name: 'intersection and shared sub-schemas',
    schema: z.object({
      filter: z.intersection(
        z.object({ label: z.string() }),
        z.object({ state: z.enum(['open', 'closed']).optional() }),
      ),
      since: z.object({ day: z.int() }).optional(),
    }),
    wireArgs: { filter: { label: 'bug', state: null }, since: null },
    geminiArgs: { filter: { label: 'bug' } },
    parsed: { filter: { label: 'bug' } },
  },
];

type Json = Record<string, unknown>;

/**
 * A small validator for the structural keywords both dialects share (type, nullable,
 * enum, const, properties, required, additionalProperties: false, items, anyOf, local
 * $ref), enough to show that wire arguments fit a normalised schema. Types are
 * compared case-insensitively and enum values as strings, as Gemini lists them.
 */
export function structuralErrors(schema: Json, value: unknown, root: Json = schema, path = ''): string[] {
  if (typeof schema.$ref === 'string') {
    const name = schema.$ref.replace(/^#\/\$defs\//, '');
    const target = schema.$ref === '#' ? root : (root.$defs as Record<string, Json>)[name];
    return target ? structuralErrors(target, value, root, path) : [`${path}: unresolved ${schema.$ref}`];
  }
  if (value === null && schema.nullable === true) return [];
  if (Array.isArray(schema.anyOf)) {
    const fits = (schema.anyOf as Json[]).some((branch) => structuralErrors(branch, value, root, path).length === 0);
    return fits ? [] : [`${path}: matches no anyOf branch`];
  }
  const types = (Array.isArray(schema.type) ? schema.type : schema.type === undefined ? [] : [schema.type]).map(
    (name) => String(name).toLowerCase(),
  );
  if (types.length > 0 && !types.some((name) => hasType(value, name))) return [`${path}: expected ${types.join('|')}`];
  if (Array.isArray(schema.enum) && !schema.enum.some((option) => String(option) === String(value))) {
    return [`${path}: not in enum`];
  }
  if ('const' in schema && schema.const !== value) return [`${path}: not the const`];
  if (Array.isArray(value) && schema.items) {
    return value.flatMap((item, index) => structuralErrors(schema.items as Json, item, root, `${path}[${index}]`));
  }
  if (value !== null && typeof value === 'object' && !Array.isArray(value))
    return objectErrors(schema, value as Json, root, path);
  return [];
}

function objectErrors(schema: Json, value: Json, root: Json, path: string): string[] {
  const properties = (schema.properties ?? {}) as Record<string, Json>;
  const errors = ((schema.required ?? []) as string[])
    .filter((key) => !(key in value))
    .map((key) => `${path}.${key}: required`);
  for (const [key, item] of Object.entries(value)) {
    const property = properties[key];
    if (property) errors.push(...structuralErrors(property, item, root, `${path}.${key}`));
    else if (schema.additionalProperties === false) errors.push(`${path}.${key}: not allowed`);
  }
  return errors;
}

function hasType(value: unknown, name: string): boolean {
  switch (name) {
    case 'null':
      return value === null;
    case 'array':
      return Array.isArray(value);
    case 'object':
      return value !== null && typeof value === 'object' && !Array.isArray(value);
    case 'integer':
      return Number.isInteger(value);
    default:
      return typeof value === name;
  }
}
