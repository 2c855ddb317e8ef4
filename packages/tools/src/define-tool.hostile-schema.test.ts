// defineTool against a Standard Schema whose JSON Schema converter (user code) returns
// what is not plain JSON. Attacks from issue 39: a cyclic schema threw a RangeError
// out of defineTool; a BigInt passed defineTool and then broke every send() of the
// agent that held the tool. Both are now an InvalidArgumentError at definition.
import { InvalidArgumentError, type StandardSchemaV1 } from '@episodic/core';
import { describe, expect, it } from 'vitest';
import { defineTool } from './define-tool.js';

/** A Standard Schema (any input passes) whose converter returns `jsonSchema`. */
function schemaConvertingTo(jsonSchema: Record<string, unknown>): StandardSchemaV1<{ n?: number }> {
  return {
    '~standard': {
      version: 1,
      vendor: 'hostile',
      validate: (value: unknown) => ({ value: value as { n?: number } }),
      jsonSchema: { input: () => jsonSchema, output: () => jsonSchema },
    },
  } as StandardSchemaV1<{ n?: number }>;
}

const define = (input: StandardSchemaV1<{ n?: number }>, inputJsonSchema?: Record<string, unknown>) =>
  defineTool({ name: 'pay', description: 'Pays.', input, ...(inputJsonSchema ? { inputJsonSchema } : {}), execute: () => 'paid' });

describe('defineTool with a converter that returns what is not plain JSON', () => {
  it('refuses a cyclic schema with a typed error naming where (attack: RangeError)', () => {
    const cyclic: Record<string, unknown> = { type: 'object', properties: {} };
    (cyclic.properties as Record<string, unknown>).self = cyclic;
    expect(() => define(schemaConvertingTo(cyclic))).toThrow(InvalidArgumentError);
    expect(() => define(schemaConvertingTo(cyclic))).toThrow(/not plain JSON \(a cycle at properties\.self\)/);
  });

  it('refuses a BigInt when the tool is defined, not at every send()', () => {
    const schema = { type: 'object', properties: { n: { type: 'integer', default: 10n } } };
    expect(() => define(schemaConvertingTo(schema))).toThrow(/a BigInt at properties\.n\.default/);
    expect(() => define(schemaConvertingTo({ type: 'object' }), schema)).toThrow(/inputJsonSchema is not plain JSON \(a BigInt at properties\.n\.default\)/);
  });

  it('accepts a schema that shares one subschema in many places (a DAG, not a cycle)', () => {
    const shared = { type: 'string' };
    const tool = define(schemaConvertingTo({ type: 'object', properties: { a: shared, b: shared } }));
    expect(JSON.parse(JSON.stringify(tool.spec.inputSchema))).toEqual({ type: 'object', properties: { a: shared, b: shared } });
  });
});
