/**
 * Converts neutral tool specs to Responses API function tools.
 *
 * @see https://platform.openai.com/docs/guides/function-calling
 */
import type { ToolSpec } from '@episodic/core';
import type { FunctionTool } from 'openai/resources/responses/responses';

/**
 * Function tools, in the given order (order is part of the cached prefix). `strict`
 * is off: tool schemas come from users and need not meet strict mode's rules.
 */
export function prepareOpenAIResponsesTools(tools: readonly ToolSpec[] | undefined): FunctionTool[] | undefined {
  if (!tools || tools.length === 0) return undefined;
  return tools.map((tool) => ({
    type: 'function',
    name: tool.name,
    description: tool.description,
    parameters: tool.inputSchema,
    strict: false,
  }));
}
