/**
 * Neutral tool specs to Anthropic tool definitions
 * (https://docs.claude.com/en/docs/agents-and-tools/tool-use/implement-tool-use).
 */
import type { BetaTool as Tool } from '@anthropic-ai/sdk/resources/beta/messages/messages';
import type { ToolSpec } from '@episodic/core';

/** Converts tool specs; Anthropic takes JSON Schema as is (the root must be an object schema). */
export function prepareAnthropicTools(tools: readonly ToolSpec[] | undefined): Tool[] | undefined {
  if (!tools || tools.length === 0) return undefined;
  return tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    input_schema: { ...tool.inputSchema, type: 'object' } as Tool.InputSchema,
  }));
}
