/**
 * Converts neutral tool specs to Chat Completions function tools.
 *
 * @see https://platform.openai.com/docs/guides/function-calling
 */
import type { ToolSpec } from '@episodic/core';
import type { ChatCompletionFunctionTool } from 'openai/resources/chat/completions';

/** Function tools in the given order (the order is part of the cached prefix). */
export function prepareOpenAIChatTools(
  tools: readonly ToolSpec[] | undefined,
): ChatCompletionFunctionTool[] | undefined {
  if (!tools || tools.length === 0) return undefined;
  return tools.map((tool) => ({
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
  }));
}
