/** A tiny tool set for the live provider tests (they run only with a real API key). */
import type { AgentTool } from '@episodic/core';

export const liveLogTool: AgentTool = {
  spec: {
    name: 'get_ci_log',
    description: 'Returns the CI log of a run. Always call this before answering questions about a run.',
    inputSchema: {
      type: 'object',
      properties: { run: { type: 'integer', description: 'The run number' } },
      required: ['run'],
    },
  },
  async execute(args) {
    const run = (args as { run?: number }).run;
    return { content: `run ${run}: FAILED tests/test_parse.py::test_dates - expected 2024-01-02, got 2024-01-01` };
  },
};

export const liveQuestion =
  'Run 42 of our CI failed. Use get_ci_log to find out which test failed and answer with its name.';
