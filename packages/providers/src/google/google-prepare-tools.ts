/**
 * Neutral tool specs to Gemini function declarations
 * (https://ai.google.dev/gemini-api/docs/function-calling). Parameters must be
 * in Gemini's OpenAPI schema subset; `../schema/gemini-schema.ts` owns that normaliser.
 */

import type { ToolSpec } from '@episodic/core';
import { type JsonSchema, toGeminiSchema } from '@episodic/core/schema';
import type { FunctionDeclaration, Schema, Tool } from '@google/genai';

/** One call site for the schema normaliser, so swapping it touches one line. */
export function toGeminiParameters(schema: Record<string, unknown>): Schema | undefined {
  return toGeminiSchema(schema as JsonSchema) as Schema | undefined;
}

/** Converts tool specs to one Gemini tool holding every function declaration. */
export function prepareGoogleTools(tools: readonly ToolSpec[] | undefined): Tool[] | undefined {
  if (!tools || tools.length === 0) return undefined;
  const functionDeclarations = tools.map((tool): FunctionDeclaration => {
    const parameters = toGeminiParameters(tool.inputSchema);
    return { name: tool.name, description: tool.description, ...(parameters ? { parameters } : {}) };
  });
  return [{ functionDeclarations }];
}
