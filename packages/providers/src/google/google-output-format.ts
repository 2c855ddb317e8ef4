/**
 * A structured final answer for Gemini: `responseMimeType: 'application/json'` with
 * the schema in `responseJsonSchema`, the JSON Schema form of `responseSchema`
 * (the OpenAPI form would need the rewrites tool declarations get, maps as entry
 * lists and number enums as strings, which would change the answer the loop checks).
 * Gemini 2.5 refuses it together with function declarations, so its profiles ask
 * for the answer through the `final_answer` tool instead.
 *
 * @see https://ai.google.dev/gemini-api/docs/structured-output
 */
import type { GenerateContentConfig } from '@google/genai';
import type { OutputFormat } from '@episodic/core';

/** The generation config fields for `output`. */
export function googleOutputConfig(output: OutputFormat): Pick<GenerateContentConfig, 'responseMimeType' | 'responseJsonSchema'> {
  return { responseMimeType: 'application/json', responseJsonSchema: output.schema };
}
