/**
 * The JSON Schema normalisers for OpenAI strict mode and Gemini, and the reading
 * back of arguments sent in their normalised shape. They live in core so that
 * `@episodic/tools` (which defines tools) and `@episodic/providers` (whose adapters
 * send the schemas) share them without depending on each other.
 */
export { checkGeminiSchema, toGeminiSchema } from './gemini-schema.js';
export type { JsonSchema, SchemaViolation } from './json-schema-node.js';
export { restoreNormalizedArguments } from './normalized-arguments.js';
export { checkOpenAIStrictSchema, toOpenAIStrictSchema } from './openai-strict-schema.js';
export { UnsupportedSchemaError } from './unsupported-schema-error.js';
