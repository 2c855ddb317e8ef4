/**
 * The JSON Schema normalisers for OpenAI strict mode and Gemini, and the reading
 * back of arguments sent in their normalised shape. They live here, beside the
 * adapters that send the schemas; `@episodic/tools` re-exports them.
 */
export { checkGeminiSchema, toGeminiSchema } from './gemini-schema.js';
export type { JsonSchema, SchemaViolation } from './json-schema-node.js';
export { restoreNormalizedArguments } from './normalized-arguments.js';
export { checkOpenAIStrictSchema, toOpenAIStrictSchema } from './openai-strict-schema.js';
export { UnsupportedSchemaError } from './unsupported-schema-error.js';
