import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent } from './agent.js';
import { MemorySessionStore } from '../store/memory-session-store.js';
import { scriptedModel } from '../testing/scripted-model.js';
import type { AgentTool } from '../loop/tool.js';

const add: AgentTool = {
  spec: { name: 'add', description: 'Adds two numbers.', inputSchema: { type: 'object' } },
  execute: async (args) => {
    const { a, b } = args as { a: number; b: number };
    return { content: String(a + b) };
  },
};

describe('agent.run', () => {
  it('answers one input in a session of its own, runs tools, and stores nothing in the agent store', async () => {
    const store = new MemorySessionStore();
    const model = scriptedModel({
      steps: [{ toolCalls: [{ name: 'add', args: { a: 2, b: 3 } }] }, { text: '2 + 3 = 5' }],
    });
    const agent = new Agent({ model, tools: [add], store, context: { budget: 8_000 } });
    const result = await agent.run('What is 2 + 3?');
    expect(result.status).toBe('finished');
    expect(result.text).toBe('2 + 3 = 5');
    expect(result.steps).toBe(2);
    expect(result.session.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(await store.load(result.session.id)).toBeUndefined();
  });

  it('runs each call in a new session: the second input does not see the first', async () => {
    const seen: number[] = [];
    const model = scriptedModel({
      steps: (request) => {
        seen.push(request.messages.length);
        return { text: 'ok' };
      },
    });
    const agent = new Agent({ model, context: { budget: 8_000 } });
    await agent.run('one');
    await agent.run('two');
    expect(seen).toEqual([1, 1]);
  });

  it('returns the checked structured answer when given an output schema', async () => {
    const model = scriptedModel({ steps: [{ text: '{"sum":5}' }], profile: { contextWindow: 16_000, structuredOutput: 'native' } });
    const result = await new Agent({ model }).run('Add 2 and 3.', { output: z.object({ sum: z.number() }) });
    expect(result.status === 'finished' && result.output.sum).toBe(5);
  });
});
