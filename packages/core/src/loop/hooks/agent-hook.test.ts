import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent } from '../../agent/agent.js';
import { scriptedModel } from '../../testing/scripted-model.js';
import type { AgentTool } from '../tool.js';
import type { AgentHook, HookState } from './agent-hook.js';
import type { NextStep } from '../next-step.js';

const echo: AgentTool = {
  spec: { name: 'echo', description: 'echoes', inputSchema: { type: 'object' } },
  execute: async (args) => ({ content: JSON.stringify(args) }),
};

const toolSteps = (count: number) =>
  scriptedModel({
    steps: [
      ...Array.from({ length: count }, (_, index) => ({ toolCalls: [{ id: `c${index}`, name: 'echo', args: { index } }] })),
      { text: 'done' },
    ],
  });

describe('AgentOptions.hooks', () => {
  it('asks decide at the start, after each step and each tool batch, with the batch results and the usage so far', async () => {
    const seen: { next: NextStep['type']; step: number; results: string[] | undefined; calls: number }[] = [];
    const watcher: AgentHook = {
      name: 'watcher',
      decide(next, state) {
        const results = state.results?.map((result) => result.toolCallId);
        seen.push({ next: next.type, step: state.step, results, calls: state.usage.calls });
        return undefined;
      },
    };
    const result = await new Agent({ model: toolSteps(1), tools: [echo], hooks: [watcher] }).run('go');
    expect(result).toMatchObject({ reason: 'done', text: 'done' });
    expect(seen).toEqual([
      { next: 'call-model', step: 0, results: undefined, calls: 0 },
      { next: 'run-tools', step: 1, results: undefined, calls: 1 },
      { next: 'call-model', step: 1, results: ['c0'], calls: 1 },
      { next: 'final', step: 2, results: undefined, calls: 2 },
    ]);
  });

  it('ends the episode with the step a hook decides, after the tool results are saved', async () => {
    const stopAfterTwo: AgentHook = {
      name: 'two-steps',
      decide: (next, { step, message }) => (next.type === 'call-model' && step >= 2 && message ? { type: 'stop', message } : undefined),
    };
    const model = toolSteps(5);
    const result = await new Agent({ model, tools: [echo], hooks: [stopAfterTwo] }).run('go');
    expect(result).toMatchObject({ status: 'finished', reason: 'stop-condition', steps: 2 });
    expect(model.requests).toHaveLength(2);
    expect(result.session.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'tool']);
  });

  it('runs afterStep with each saved step in order, hooks in the order given', async () => {
    const log: string[] = [];
    const hook = (name: string): AgentHook => ({
      name,
      afterStep: async ({ step, message, previous }) => {
        log.push(`${name} ${step} ${message.role} after ${previous?.role}`);
      },
    });
    await new Agent({ model: toolSteps(1), tools: [echo], hooks: [hook('a'), hook('b')] }).run('go');
    expect(log).toEqual(['a 1 assistant after user', 'b 1 assistant after user', 'a 2 assistant after tool', 'b 2 assistant after tool']);
  });

  it('fails the episode with the error a hook throws, the step it saw kept in the transcript', async () => {
    const failing: AgentHook = {
      name: 'failing',
      afterStep: () => {
        throw new Error('hook failed');
      },
    };
    const session = await new Agent({ model: toolSteps(1), tools: [echo], hooks: [failing] }).session();
    await expect(session.send('go')).rejects.toThrow('hook failed');
    expect(session.messages.map((message) => message.role)).toEqual(['user', 'assistant']);
    expect(session.unfinished).toBe(true);
  });

  it('calls only the public phases of an application hook and hands it no append', async () => {
    let state: HookState | undefined;
    const hook = {
      name: 'curious',
      settings: () => {
        throw new Error('not a public phase');
      },
      wrapModelCall: () => {
        throw new Error('not a public phase');
      },
      decide(_next: NextStep, given: HookState) {
        state = given;
        return undefined;
      },
    };
    const result = await new Agent({ model: toolSteps(0), hooks: [hook] }).run('go');
    expect(result.text).toBe('done');
    expect(state && 'append' in state).toBe(false);
  });

  it('runs before the structured answer: a hook sees the episode end before its answer is checked', async () => {
    const ends: string[] = [];
    const hook: AgentHook = {
      name: 'ends',
      decide: (next) => {
        if (next.type === 'final') ends.push(next.message?.content.map((part) => (part.type === 'text' ? part.text : part.type)).join('') ?? '');
        return undefined;
      },
    };
    const model = scriptedModel({ steps: [{ output: { ok: 'no' } }, { output: { ok: true } }], profile: { structuredOutput: 'native' } });
    const session = await new Agent({ model, hooks: [hook] }).session();
    const result = await session.send('go', { output: z.object({ ok: z.boolean() }) });
    expect(result).toMatchObject({ status: 'finished', output: { ok: true } });
    expect(ends).toEqual(['{"ok":"no"}', '{"ok":true}']);
  });
});
