/**
 * The tools of the conformance scenarios: their specs (also used by
 * provider-specific tests that call an adapter directly) and the agent tools the
 * loop runs. `failing_tool` always throws, so the loop turns it into an error result.
 */
import type { AgentTool, ToolSpec } from '@episodic/core';

export const testToolSpecs: ToolSpec[] = [
  {
    name: 'get_ci_log',
    description: 'Returns the CI log of a run.',
    inputSchema: {
      type: 'object',
      properties: { run: { type: 'integer', description: 'Run number' } },
      required: ['run'],
      additionalProperties: false,
    },
  },
  {
    name: 'read_file',
    description: 'Reads a file of the repository.',
    inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  },
  {
    name: 'failing_tool',
    description: 'Always fails.',
    inputSchema: { type: 'object', properties: {} },
  },
];

const behaviour: Record<string, (args: Record<string, unknown>) => string> = {
  get_ci_log: (args) => `run ${String(args.run)}: 1 test failed (expected 2, got 3)`,
  read_file: (args) => `contents of ${String(args.path)}`,
  failing_tool: () => {
    throw new Error('disk on fire');
  },
};

/** {@link testToolSpecs} as tools the agent loop runs. */
export const testAgentTools: AgentTool[] = testToolSpecs.map((spec) => ({
  spec,
  async execute(args: unknown) {
    const run = behaviour[spec.name];
    if (!run) throw new Error(`no behaviour for test tool ${spec.name}`);
    return { content: run((args ?? {}) as Record<string, unknown>) };
  },
}));
