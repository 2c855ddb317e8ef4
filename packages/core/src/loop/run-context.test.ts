import { describe, expect, it, vi } from 'vitest';
import { Agent } from '../agent/agent.js';
import { autoApprove } from './approval-policy.js';
import { inlineRuntime } from './durable/durable-runtime.js';
import { scriptedModel } from '../testing/scripted-model.js';
import type { AgentTool } from './tool.js';
import type { LoopSession, LoopSettings } from './loop-types.js';

const runs = vi.hoisted(() => ({ frozen: 0 }));

// Every run the session starts gets a frozen session and frozen settings: the loop
// (ES modules run in strict mode) throws on any assignment to a field of either.
vi.mock('./run-loop.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('./run-loop.js')>();
  return {
    ...actual,
    runEpisode: (settings: LoopSettings, session: LoopSession, ...rest: [never, AbortSignal | undefined]) => {
      runs.frozen += 1;
      if (settings.pack) Object.freeze(settings.pack);
      return actual.runEpisode(Object.freeze({ ...settings }), Object.freeze({ ...session }), ...rest);
    },
  };
});

const echo: AgentTool = {
  spec: { name: 'echo', description: 'echoes', inputSchema: { type: 'object' } },
  execute: async (args) => ({ content: JSON.stringify(args) }),
  needsApproval: (args) => (args as { ask?: boolean }).ask === true,
};

const script = () =>
  scriptedModel({
    steps: [
      { toolCalls: [{ id: 'c1', name: 'echo', args: { said: 'x'.repeat(4000) } }] },
      { toolCalls: [{ id: 'c2', name: 'echo', args: { ask: true } }] },
      { text: 'done' },
    ],
  });

describe('the run context', () => {
  it('runs tools, the reader of cut results and a pause for approval without assigning to the session or settings', async () => {
    runs.frozen = 0;
    const model = script();
    const session = await new Agent({ model, tools: [echo], budget: 8_000 }).session();
    const paused = await session.send('go');
    expect(paused.reason).toBe('paused');
    await session.approve('c2');
    const result = await session.resume();
    expect(result).toMatchObject({ reason: 'done', text: 'done' });
    expect(runs.frozen).toBe(2);
    expect(model.requests.at(-1)?.tools?.map((tool) => tool.name)).toEqual(['echo', 'read_cut_result']);
  });

  it('runs a durable episode (durable tools and approvals per run) on a frozen session', async () => {
    runs.frozen = 0;
    const agent = new Agent({ model: script(), tools: [echo], budget: 8_000 });
    const session = await agent.session({ id: 's' });
    const result = await session.send('go', { durable: { runtime: inlineRuntime, episode: 0 }, approvalPolicy: autoApprove });
    expect(result).toMatchObject({ reason: 'done', text: 'done' });
    expect(runs.frozen).toBe(1);
  });
});
