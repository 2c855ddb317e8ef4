/**
 * A structured final answer for OpenAI's `json_schema` formats (Responses
 * `text.format`, Chat Completions `response_format.json_schema`). Strict mode
 * guarantees the schema but rewrites it (optional fields become nullable, maps become
 * entry lists), which would change the answer the loop checks; so the format is
 * strict only when the rewrite keeps every answer's shape, and otherwise goes as the
 * schema is (the model follows it, and the loop checks and feeds back).
 *
 * @see https://platform.openai.com/docs/guides/structured-outputs
 */
import type { OutputFormat } from '@episodic/core';
import { checkOpenAIStrictSchema, type JsonSchema, toOpenAIStrictSchema } from '@episodic/core/schema';

/** The `name`, `schema` and `strict` fields both endpoints take. */
export interface OpenAIJsonSchemaFormat {
  name: string;
  schema: JsonSchema;
  strict: boolean;
}

/** The json_schema format for `output`: strict where that keeps the answer's shape. */
export function openAIJsonSchemaFormat(output: OutputFormat): OpenAIJsonSchemaFormat {
  if (keepsAnswerShape(output.schema)) {
    const strict = toOpenAIStrictSchema(output.schema);
    if (checkOpenAIStrictSchema(strict).length === 0) return { name: output.name, schema: strict, strict: true };
  }
  return { name: output.name, schema: output.schema, strict: false };
}

/** True when every object lists all its properties as required and no object is a free-key map. */
function keepsAnswerShape(node: unknown): boolean {
  if (Array.isArray(node)) return node.every(keepsAnswerShape);
  if (node === null || typeof node !== 'object') return true;
  const schema = node as JsonSchema;
  const properties = isObject(schema.properties) ? Object.keys(schema.properties) : [];
  const required = Array.isArray(schema.required) ? schema.required : [];
  if (properties.some((name) => !required.includes(name))) return false;
  if (isObject(schema.additionalProperties) && properties.length === 0) return false;
  return Object.entries(schema).every(([key, value]) => key === 'enum' || key === 'const' || keepsAnswerShape(value));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
