import { Agent, type ToolMessage } from '@episodic/core';
import { scriptedModel } from '@episodic/core/testing';
import { defineTool } from '@episodic/tools';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

describe('agent loop with @episodic/tools', () => {
  it('answers a schema violation with an error result the model reads, then goes on', async () => {
    const seen: number[] = [];
    const square = defineTool({
      name: 'square',
      description: 'Squares a number.',
      input: z.object({ n: z.number() }),
      execute: ({ n }) => {
        seen.push(n);
        return String(n * n);
      },
    });
    const model = scriptedModel({
      steps: [
        { toolCalls: [{ id: 'bad', name: 'square', args: { n: 'four' } }] },
        { toolCalls: [{ id: 'good', name: 'square', args: { n: 4 } }] },
        { text: '16' },
      ],
    });
    const session = await new Agent({ model, tools: [square] }).session();
    expect((await session.send('square four')).text).toBe('16');
    expect(seen).toEqual([4]);
    const results = session.messages.filter((message): message is ToolMessage => message.role === 'tool');
    expect(results[0]).toMatchObject({ toolCallId: 'bad', isError: true });
    expect(results[0]?.content).toMatch(/^Invalid arguments for tool square: n: .+/);
    expect(results[0]?.content).not.toMatch(/\n\s+at /);
    expect(results[1]).toMatchObject({ toolCallId: 'good', isError: false, content: '16' });
  });
});
