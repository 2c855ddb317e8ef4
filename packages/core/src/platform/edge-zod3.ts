/**
 * zod 3's JSON Schema converter in browsers and edge runtimes
 * (`#zod3-json-schema` outside Node): `zod-to-json-schema`, bundled with core.
 */
import { zodToJsonSchema } from 'zod-to-json-schema';
import type { Zod3Converter } from './zod3-converter.js';

/** Converts a zod 3 schema with `zod-to-json-schema`. */
export const zod3ToJsonSchema: Zod3Converter = (schema, options) =>
  zodToJsonSchema(schema as never, options) as Record<string, unknown>;
