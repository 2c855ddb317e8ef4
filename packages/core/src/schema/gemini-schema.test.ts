import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { checkGeminiSchema, toGeminiSchema } from './gemini-schema.js';
import { toolInputSchema } from '../support/json-schema.js';
import type { JsonSchema } from './json-schema-node.js';
import { restoreNormalizedArguments } from './normalized-arguments.js';
import { realisticSchemas, structuralErrors } from './realistic-schemas.fixture.js';
import { UnsupportedSchemaError } from './unsupported-schema-error.js';

const messages = (schema: JsonSchema) => checkGeminiSchema(schema).map((item) => `${item.path} ${item.message}`);

/** What the checker must find in zod's raw output, per fixture (nothing where zod's output already fits). */
const expectedRawViolations: Record<string, RegExp[]> = {
  'nested objects': [],
  'optional fields with defaults and descriptions': [/limit\/exclusiveMinimum keyword "exclusiveMinimum"/],
  'enums and literals': [/version\/const keyword "const"/, /retries\/anyOf\/0\/const/],
  'arrays with bounds': [],
  unions: [/action\/oneOf keyword "oneOf"/, /cursor\/type type must be a single value/],
  records: [/env\/additionalProperties keyword/, /env\/properties should be non-empty for OBJECT type/],
  'string formats and length limits': [/email\/format format "email" is not supported for type STRING/],
  'intersection and shared sub-schemas': [],
};

describe('Gemini schema subset on realistic tool schemas', () => {
  for (const fixture of realisticSchemas) {
    describe(fixture.name, () => {
      const raw = toolInputSchema(fixture.schema);
      const gemini = toGeminiSchema(raw)!;

      it('the checker finds what zod emits that Gemini rejects, and nothing once normalised', () => {
        const expected = expectedRawViolations[fixture.name]!;
        const found = messages(raw);
        if (expected.length === 0) expect(found).toEqual([]);
        for (const pattern of expected) expect(found.some((message) => pattern.test(message))).toBe(true);
        expect(messages(gemini)).toEqual([]);
      });

      it('accepts what Gemini sends, and the tool reads it back as meant', () => {
        expect(structuralErrors(gemini, fixture.geminiArgs)).toEqual([]);
        expect(fixture.schema.parse(restoreNormalizedArguments(raw, fixture.geminiArgs))).toEqual(fixture.parsed);
      });
    });
  }
});

describe('toGeminiSchema', () => {
  it('writes OpenAPI types, nullable instead of null, string enums, and drops JSON Schema only keywords', () => {
    const raw = toolInputSchema(
      z.object({ cursor: z.string().nullable(), level: z.enum(['info', 'warn']), size: z.literal(3) }).strict(),
    );
    expect(raw.additionalProperties).toBe(false);
    expect(toGeminiSchema({ $schema: 'https://json-schema.org/draft/2020-12/schema', ...raw })).toEqual({
      type: 'OBJECT',
      properties: {
        cursor: { type: 'STRING', nullable: true },
        level: { type: 'STRING', enum: ['info', 'warn'], format: 'enum' },
        size: { type: 'NUMBER', enum: ['3'], format: 'enum' },
      },
      required: ['cursor', 'level', 'size'],
    });
  });

  it('inlines $ref from $defs and keeps the referring description', () => {
    const gemini = toGeminiSchema({
      type: 'object',
      properties: { from: { $ref: '#/$defs/Point', description: 'Start' }, to: { $ref: '#/$defs/Point' } },
      required: ['from', 'to'],
      $defs: { Point: { type: 'object', properties: { x: { type: 'number' } }, required: ['x'] } },
    });
    expect(gemini).toEqual({
      type: 'OBJECT',
      properties: {
        from: { type: 'OBJECT', properties: { x: { type: 'NUMBER' } }, required: ['x'], description: 'Start' },
        to: { type: 'OBJECT', properties: { x: { type: 'NUMBER' } }, required: ['x'] },
      },
      required: ['from', 'to'],
    });
    expect(messages(gemini!)).toEqual([]);
  });

  it('turns anyOf with null into nullable and a union of literals into one enum', () => {
    const gemini = toGeminiSchema(
      toolInputSchema(
        z.object({
          since: z.object({ day: z.int() }).nullable(),
          retries: z.union([z.literal(1), z.literal(3)]),
        }),
      ),
    );
    const properties = gemini!.properties as Record<string, JsonSchema>;
    expect(properties.since).toEqual({
      type: 'OBJECT',
      properties: { day: { type: 'INTEGER' } },
      required: ['day'],
      nullable: true,
    });
    expect(properties.retries).toEqual({ type: 'NUMBER', enum: ['1', '3'], format: 'enum' });
  });

  it('keeps only supported formats, and turns exclusive integer bounds into inclusive ones', () => {
    const gemini = toGeminiSchema(
      toolInputSchema(z.object({ when: z.iso.datetime(), mail: z.email(), count: z.int().gt(0).lt(10) })),
    );
    const properties = gemini!.properties as Record<string, JsonSchema>;
    expect(properties.when).toEqual({ type: 'STRING', format: 'date-time' });
    expect(properties.mail).toEqual({ type: 'STRING', description: 'Constraints: format "email".' });
    expect(properties.count).toEqual({ type: 'INTEGER', minimum: 1, maximum: 9 });
  });

  it('returns undefined for a tool without parameters, since Gemini rejects an empty OBJECT', () => {
    expect(toGeminiSchema(toolInputSchema(z.object({})))).toBeUndefined();
    expect(messages({ type: 'object', properties: {} })).toContain('/properties should be non-empty for OBJECT type');
  });

  it('refuses a recursive schema with a typed error that says what to do', () => {
    const node: z.ZodType = z.lazy(() => z.object({ name: z.string(), children: z.array(node) }));
    const raw = toolInputSchema(z.object({ tree: node }));
    expect(() => toGeminiSchema(raw)).toThrow(UnsupportedSchemaError);
    expect(() => toGeminiSchema(raw)).toThrow(/recursive.*parametersJsonSchema/s);
  });
});

describe('checkGeminiSchema', () => {
  it('accepts lower-case and upper-case type names', () => {
    const schema = { type: 'object', properties: { a: { type: 'STRING' }, b: { type: 'integer', format: 'int32' } } };
    expect(messages(schema)).toEqual([]);
  });

  it('names each broken rule', () => {
    const found = messages({
      type: 'OBJECT',
      properties: {
        tags: { type: 'ARRAY' },
        mode: { type: 'STRING', enum: [1, 2] },
        name: { type: 'STRING', properties: { x: { type: 'STRING' } } },
        weird: { type: 'DATE' },
        loose: { description: 'anything' },
      },
      required: ['tags', 'ghost'],
    });
    expect(found).toEqual(
      expect.arrayContaining([
        '/required required names undeclared properties: ghost',
        '/properties/tags an ARRAY needs "items"',
        '/properties/mode/enum enum values must be strings',
        '/properties/name properties and required are only allowed for OBJECT type',
        '/properties/weird/type unknown type "DATE"',
        '/properties/loose every schema needs a "type" (or "anyOf")',
      ]),
    );
    expect(messages({ type: 'STRING' })).toContain(' the root of function parameters must be an OBJECT');
  });
});
