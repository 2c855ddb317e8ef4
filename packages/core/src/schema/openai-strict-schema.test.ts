import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toolInputSchema } from '../support/json-schema.js';
import type { JsonSchema } from './json-schema-node.js';
import { restoreNormalizedArguments } from './normalized-arguments.js';
import { checkOpenAIStrictSchema, toOpenAIStrictSchema } from './openai-strict-schema.js';
import { realisticSchemas, structuralErrors } from './realistic-schemas.fixture.js';

const messages = (schema: JsonSchema) => checkOpenAIStrictSchema(schema).map((item) => `${item.path} ${item.message}`);

describe('OpenAI strict mode on realistic tool schemas', () => {
  for (const fixture of realisticSchemas) {
    describe(fixture.name, () => {
      const raw = toolInputSchema(fixture.schema);
      const strict = toOpenAIStrictSchema(raw);

      it('breaks the rules as zod emits it and follows them once normalised', () => {
        expect(checkOpenAIStrictSchema(raw).length).toBeGreaterThan(0);
        expect(messages(strict)).toEqual([]);
      });

      it('accepts what a strict model sends, and the tool reads it back as meant', () => {
        expect(structuralErrors(strict, fixture.wireArgs)).toEqual([]);
        expect(fixture.schema.parse(restoreNormalizedArguments(raw, fixture.wireArgs))).toEqual(fixture.parsed);
      });
    });
  }
});

describe('toOpenAIStrictSchema', () => {
  it('requires every property, makes optional ones nullable and closes every object', () => {
    const raw = toolInputSchema(
      z.object({ path: z.string(), line: z.int().optional(), mode: z.enum(['a', 'b']).optional() }),
    );
    expect(toOpenAIStrictSchema(raw)).toEqual({
      type: 'object',
      properties: {
        path: { type: 'string' },
        line: { type: ['integer', 'null'] },
        mode: { type: ['string', 'null'], enum: ['a', 'b', null] },
      },
      required: ['path', 'line', 'mode'],
      additionalProperties: false,
    });
  });

  it('wraps optional objects and arrays in anyOf with null, keeping the description outside', () => {
    const strict = toOpenAIStrictSchema(
      toolInputSchema(z.object({ since: z.object({ day: z.int() }).optional().describe('Start day') })),
    );
    const since = (strict.properties as Record<string, JsonSchema>).since;
    expect(since).toEqual({
      description: 'Start day',
      anyOf: [
        { type: 'object', properties: { day: { type: 'integer' } }, required: ['day'], additionalProperties: false },
        { type: 'null' },
      ],
    });
  });

  it('keeps defaults and unsupported constraints visible in the description', () => {
    const strict = toOpenAIStrictSchema(
      toolInputSchema(
        z.object({ name: z.string().min(2).max(9).describe('Who'), limit: z.int().default(20), site: z.url() }),
      ),
    );
    const properties = strict.properties as Record<string, JsonSchema>;
    expect(properties.name).toEqual({ type: 'string', description: 'Who. Constraints: minLength 2, maxLength 9.' });
    expect(properties.limit).toEqual({ type: ['integer', 'null'], description: 'Default: 20.' });
    expect(properties.site).toEqual({ type: 'string', description: 'Constraints: format "uri".' });
  });

  it('turns oneOf into anyOf and merges allOf of objects', () => {
    const strict = toOpenAIStrictSchema({
      type: 'object',
      properties: {
        choice: { oneOf: [{ type: 'string' }, { type: 'number' }] },
        both: {
          allOf: [
            { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
            { type: 'object', properties: { b: { type: 'number' } } },
          ],
        },
      },
      required: ['choice', 'both'],
    });
    const properties = strict.properties as Record<string, JsonSchema>;
    expect(properties.choice).toEqual({ anyOf: [{ type: 'string' }, { type: 'number' }] });
    expect(properties.both).toEqual({
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: ['number', 'null'] } },
      required: ['a', 'b'],
      additionalProperties: false,
    });
    expect(messages(strict)).toEqual([]);
  });

  it('keeps recursive schemas as $ref into $defs, which strict mode supports', () => {
    const node: z.ZodType = z.lazy(() => z.object({ name: z.string(), children: z.array(node).optional() }));
    const raw = toolInputSchema(z.object({ tree: node }));
    const strict = toOpenAIStrictSchema(raw);
    expect(JSON.stringify(strict)).toContain('"$ref"');
    expect(messages(strict)).toEqual([]);
    const wire = { tree: { name: 'a', children: [{ name: 'b', children: null }] } };
    expect(structuralErrors(strict, wire)).toEqual([]);
  });
});

describe('checkOpenAIStrictSchema', () => {
  const closed = (properties: Record<string, JsonSchema>) => ({
    type: 'object',
    properties,
    required: Object.keys(properties),
    additionalProperties: false,
  });

  it('accepts a schema that follows every rule', () => {
    expect(messages(closed({ a: { type: 'string', format: 'date', description: 'x' } }))).toEqual([]);
  });

  it('refuses a root that is not an object, or is a union', () => {
    expect(messages({ type: 'string' })).toContain(' the root must be a plain object schema (type "object", no anyOf)');
    expect(messages({ anyOf: [closed({})] })[0]).toMatch(/root must be a plain object/);
  });

  it('names open objects, missing required names, unsupported keywords and formats', () => {
    const found = messages({
      type: 'object',
      properties: { a: { type: 'string', format: 'uri', minLength: 1 }, b: { type: 'array', uniqueItems: true } },
      required: ['a'],
    });
    expect(found).toEqual(
      expect.arrayContaining([
        ' objects must set "additionalProperties": false',
        '/required every property must be required; missing b',
        '/properties/a/format format "uri" is not supported by OpenAI strict mode',
        '/properties/a/minLength keyword "minLength" is not supported by OpenAI strict mode',
        '/properties/b/uniqueItems keyword "uniqueItems" is not supported by OpenAI strict mode',
      ]),
    );
  });

  it('refuses nodes without a type (z.unknown()) and dangling $refs', () => {
    const found = messages(closed({ anything: {}, link: { $ref: '#/$defs/Missing' } }));
    expect(found).toContain(
      '/properties/anything every schema needs a "type" (strict mode cannot express "any value")',
    );
    expect(found).toContain('/properties/link/$ref $ref "#/$defs/Missing" does not point into this schema\'s $defs');
  });

  // zod writes a tuple as prefixItems plus items: false; prefixItems is not in the subset, so
  // once normalised the array would have to be empty, yet minItems says 2.
  it('refuses an array without an items schema, such as a z.tuple after normalising', () => {
    const strict = toOpenAIStrictSchema(toolInputSchema(z.object({ pair: z.tuple([z.string(), z.int()]) })));
    expect(messages(strict)).toContain('/properties/pair an array needs an "items" schema (tuples are not supported)');
    expect(messages(closed({ list: { type: 'array' } }))).toContain(
      '/properties/list an array needs an "items" schema (tuples are not supported)',
    );
  });

  it('enforces the nesting, property and enum limits', () => {
    let deep: JsonSchema = closed({ leaf: { type: 'string' } });
    for (let level = 0; level < 10; level += 1) deep = closed({ next: deep });
    expect(messages(deep)).toContain(' objects nest 11 deep; at most 10');

    const many = closed(
      Object.fromEntries(Array.from({ length: 5001 }, (_, index) => [`p${index}`, { type: 'string' }])),
    );
    expect(messages(many)).toContain(' 5001 properties; at most 5000');

    const values = Array.from({ length: 1001 }, (_, index) => `v${index}`);
    expect(messages(closed({ e: { type: 'string', enum: values } }))).toContain(' 1001 enum values; at most 1000');
  });
});
