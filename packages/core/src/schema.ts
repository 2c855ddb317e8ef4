/**
 * `@episodic/core/schema`: the JSON Schema normalisers for OpenAI strict mode and
 * Gemini (rewrite a tool's input schema into what the provider accepts, or list what
 * it would refuse). `@episodic/tools` and `@episodic/providers` re-export them.
 */
export {
  checkGeminiSchema,
  checkOpenAIStrictSchema,
  type JsonSchema,
  type SchemaViolation,
  toGeminiSchema,
  toOpenAIStrictSchema,
  UnsupportedSchemaError,
} from './schema/index.js';
