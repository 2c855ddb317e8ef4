/**
 * One live run shared by every live provider test (they run only with a real API
 * key): a tool-using episode through the real agent loop, then a follow-up user
 * message, with every model call's response recorded from the step events.
 */
import {
  Agent,
  type AgentEventHandler,
  type AgentTool,
  type EpisodeResult,
  type ModelAdapter,
  type ModelResponse,
  type Session,
} from '@episodic/core';

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

/** What a live run produced. */
export interface LiveRun {
  session: Session;
  first: EpisodeResult;
  second: EpisodeResult;
  /** Every model call, in order. */
  responses: ModelResponse[];
}

/** Runs the two live episodes through the agent loop. */
export async function runLiveSession(model: ModelAdapter, maxOutputTokens = 8_000): Promise<LiveRun> {
  const agent = new Agent({ model, system: 'You debug CI failures. Be brief.', tools: [liveLogTool], modelCalls: { maxOutputTokens } });
  const session = await agent.session();
  const responses: ModelResponse[] = [];
  const onEvent: AgentEventHandler = (event) => {
    if (event.type === 'step-finish' && event.usage && event.stopReason) {
      responses.push({ message: event.message, usage: event.usage, stopReason: event.stopReason, warnings: [] });
    }
  };
  const first = await session.send(liveQuestion, { onEvent });
  const second = await session.send('Which run number was that? Answer with the number only.', { onEvent });
  return { session, first, second, responses };
}
