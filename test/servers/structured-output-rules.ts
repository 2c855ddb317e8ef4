/**
 * Structured answers as each wire API takes them, for the loopback servers: the
 * request field, what the API refuses in it, and the neutral view of it. The answer
 * itself is the scripted reply's text (the servers stream it as they stream any text).
 *
 * Sources: OpenAI https://platform.openai.com/docs/guides/structured-outputs (strict
 * mode's rules; the error texts are the API's), Anthropic
 * https://docs.claude.com/en/docs/build-with-claude/structured-outputs (every object
 * `additionalProperties: false`, no numeric or length constraints; wording unverified),
 * Gemini https://ai.google.dev/gemini-api/docs/structured-output (the 2.5 refusal of a
 * JSON answer next to function calling is the API's text, seen in the field).
 */
import type { OutputFormatView } from './scripted-server.js';

type Schema = Record<string, unknown>;

const isObject = (value: unknown): value is Schema => value !== null && typeof value === 'object' && !Array.isArray(value);

/** Every object node of a schema with its path (as tuples in OpenAI's `context=(...)` form). */
function* objectNodes(node: unknown, path: string[] = []): Generator<{ node: Schema; path: string[] }> {
  if (Array.isArray(node)) {
    for (const [index, item] of node.entries()) yield* objectNodes(item, [...path, String(index)]);
    return;
  }
  if (!isObject(node)) return;
  if (node.type === 'object' || isObject(node.properties)) yield { node, path };
  for (const [key, value] of Object.entries(node)) {
    if (key !== 'enum' && key !== 'const' && key !== 'required') yield* objectNodes(value, [...path, key]);
  }
}

/** The json_schema format of Responses (`text.format`) or Chat (`response_format`); `param` names the field. */
export function openAIFormatProblem(format: unknown, param: string): string | undefined {
  if (!isObject(format)) return undefined;
  if (format.type !== 'json_schema') return `Invalid value for '${param}.type': expected 'json_schema'.`;
  if (typeof format.name !== 'string') return `Missing required parameter: '${param}.name'.`;
  if (!/^[a-zA-Z0-9_-]{1,64}$/.test(format.name)) {
    return `Invalid '${param}.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.`;
  }
  if (!isObject(format.schema)) return `Missing required parameter: '${param}.schema'.`;
  if (format.strict !== true) return undefined;
  for (const { node, path } of objectNodes(format.schema)) {
    const context = `In context=(${path.map((segment) => `'${segment}'`).join(', ')}${path.length === 1 ? ',' : ''})`;
    if (node.additionalProperties !== false) {
      return `Invalid schema for response_format '${format.name}': ${context}, 'additionalProperties' is required to be supplied and to be false.`;
    }
    const required = Array.isArray(node.required) ? node.required : [];
    const missing = Object.keys(isObject(node.properties) ? node.properties : {}).find((key) => !required.includes(key));
    if (missing) {
      return `Invalid schema for response_format '${format.name}': ${context}, 'required' is required to be supplied and to be an array including every key in properties. Missing '${missing}'.`;
    }
  }
  return undefined;
}

/** The view of an OpenAI json_schema format. */
export function openAIFormatView(format: unknown): OutputFormatView | undefined {
  if (!isObject(format) || format.type !== 'json_schema') return undefined;
  return { name: String(format.name), strict: format.strict === true, schema: format.schema };
}

/** Claude models with structured outputs: the 4.5 models and every later one. */
const anthropicStructured = /^claude-((opus|sonnet|haiku)-4-5|(opus|sonnet)-4-[6-9]|[a-z]+-5|mythos)/;
const anthropicRefused = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'minLength', 'maxLength'];

/** Anthropic's `output_config.format`. */
export function anthropicFormatProblem(outputConfig: unknown, model: string): string | undefined {
  const format = isObject(outputConfig) ? outputConfig.format : undefined;
  if (format === undefined) return undefined;
  if (!isObject(format) || format.type !== 'json_schema') return "output_config.format.type: Input should be 'json_schema'";
  if (!anthropicStructured.test(model)) return `output_config.format: structured outputs are not supported for ${model}`;
  if (!isObject(format.schema)) return 'output_config.format.schema: Field required';
  for (const { node } of objectNodes(format.schema)) {
    if (node.additionalProperties !== false) {
      return "output_config.format.schema: For 'object' type, 'additionalProperties' must be explicitly set to false";
    }
    for (const property of Object.values(isObject(node.properties) ? node.properties : {})) {
      const refused = isObject(property) ? anthropicRefused.find((keyword) => keyword in property) : undefined;
      if (refused) return `output_config.format.schema: property '${refused}' is not supported`;
    }
  }
  return undefined;
}

/** The view of Anthropic's format. */
export function anthropicFormatView(outputConfig: unknown): OutputFormatView | undefined {
  const format = isObject(outputConfig) ? outputConfig.format : undefined;
  return isObject(format) ? { schema: format.schema } : undefined;
}

/** Gemini's `responseMimeType` / `responseJsonSchema` / `responseSchema`, given the request's tools. */
export function geminiFormatProblem(config: Schema | undefined, model: string, hasFunctions: boolean): string | undefined {
  if (!config) return undefined;
  const schemaSet = config.responseJsonSchema !== undefined || config.responseSchema !== undefined;
  if (config.responseJsonSchema !== undefined && config.responseSchema !== undefined) {
    return 'Only one of response_schema and response_json_schema may be set.';
  }
  if (schemaSet && config.responseMimeType !== 'application/json') {
    return 'A response schema requires response_mime_type to be application/json.';
  }
  if (config.responseMimeType === 'application/json' && hasFunctions && !/^gemini-3/.test(model)) {
    return "Function calling with a response mime type: 'application/json' is unsupported";
  }
  return undefined;
}

/** The view of Gemini's format. */
export function geminiFormatView(config: Schema | undefined): OutputFormatView | undefined {
  if (config?.responseMimeType !== 'application/json') return undefined;
  return { schema: config.responseJsonSchema ?? config.responseSchema };
}
