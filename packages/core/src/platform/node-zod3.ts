/**
 * zod 3's JSON Schema converter on Node (`#zod3-json-schema` in package.json
 * resolves here under the `node` condition): `zod-to-json-schema`, required on the
 * first zod 3 schema, so applications on zod 4 or another library never load it.
 */
import { createRequire } from 'node:module';
import type { Zod3Converter } from './zod3-converter.js';

const require = createRequire(import.meta.url);

/** Converts a zod 3 schema with `zod-to-json-schema`, loaded on first use. */
export const zod3ToJsonSchema: Zod3Converter = (schema, options) => {
  const { zodToJsonSchema } = require('zod-to-json-schema') as typeof import('zod-to-json-schema');
  return zodToJsonSchema(schema as never, options) as Record<string, unknown>;
};
