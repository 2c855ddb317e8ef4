/**
 * A structured final answer for the Messages API (`output_config.format`, type
 * `json_schema`). The API takes a subset of JSON Schema: every object must say
 * `additionalProperties: false`, and numeric, string-length and most array
 * constraints are refused; those are moved into the field's description (the loop
 * still checks them on the answer), as Anthropic's own SDK helpers do.
 *
 * @see https://docs.claude.com/en/docs/build-with-claude/structured-outputs
 */
import type { BetaJSONOutputFormat as JSONOutputFormat } from '@anthropic-ai/sdk/resources/beta/messages/messages';
import type { OutputFormat } from '@episodic/core';

/** Constraints the API refuses in an output schema. */
const DROPPED = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'minLength', 'maxLength', 'maxItems', 'uniqueItems'];

/** The `output_config.format` for `output`. */
export function anthropicOutputFormat(output: OutputFormat): JSONOutputFormat {
  return { type: 'json_schema', schema: closed(output.schema) as Record<string, unknown> };
}

function closed(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(closed);
  if (node === null || typeof node !== 'object') return node;
  const result: Record<string, unknown> = {};
  const notes: string[] = [];
  for (const [key, value] of Object.entries(node)) {
    const droppedMinItems = key === 'minItems' && typeof value === 'number' && value > 1;
    if (DROPPED.includes(key) || droppedMinItems) notes.push(`${key}: ${JSON.stringify(value)}`);
    else result[key] = key === 'enum' || key === 'const' || key === 'required' ? value : closed(value);
  }
  if (result.type === 'object' || 'properties' in result) result.additionalProperties = false;
  if (notes.length > 0) {
    const description = typeof result.description === 'string' ? `${result.description} ` : '';
    result.description = `${description}(${notes.join(', ')})`;
  }
  return result;
}
