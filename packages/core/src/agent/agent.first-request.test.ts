/**
 * A fresh agent's first request leaves before the tokenizer is loaded (tiktoken's
 * rank table is the slow part of a cold start), and its counts are exact once read.
 */
import { describe, expect, it } from 'vitest';
import { Agent } from './agent.js';
import type { AgentEvent } from '../loop/agent-events.js';
import type { ToolSpec } from '../message/message.js';
import { countContext } from '../packing/message-fits.js';
import { scriptedModel } from '../testing/scripted-model.js';
import { boundsOf, createTokenCounter } from '../tokens/token-counter.js';

const spec: ToolSpec = { name: 'read_log', description: 'Reads a CI log', inputSchema: { type: 'object', properties: {} } };

describe('a fresh agent', () => {
  it('sends its first request without loading the tokenizer, and reports exact counts', async () => {
    const loadedAtRequest: boolean[] = [];
    let sentTools: ToolSpec[] = [];
    const model = scriptedModel({
      steps: (request, index) => {
        if (index === 0) sentTools = [...(request.tools ?? [])];
        // Called after `agent` below is made, when the session sends.
        loadedAtRequest.push(boundsOf(agent.tokenizer) === undefined);
        return index === 0 ? { toolCalls: [{ name: 'read_log', args: {} }] } : { text: 'The fixture server did not start.' };
      },
    });
    const events: AgentEvent[] = [];
    const agent: Agent = new Agent({ model, system: 'You debug CI failures.', tools: [{ spec, execute: async () => ({ content: 'ok' }) }] });
    const session = await agent.session();
    const result = await session.send('Why did the build fail?', { onEvent: (event) => events.push(event) });
    expect(result.text).toBe('The fixture server did not start.');
    // The first request went out on the bound; the second, after the answer, counted exactly.
    expect(loadedAtRequest).toEqual([false, true]);
    const packed = events.filter((event) => event.type === 'context-packed');
    const first = packed[0]?.type === 'context-packed' ? packed[0].stats.tokens.total : undefined;
    // The tools as sent: the agent's own and the reader of cut results it offers from the first call.
    expect(sentTools.map((tool) => tool.name)).toEqual(['read_log', 'read_cut_result']);
    const exact = countContext(createTokenCounter(), { system: 'You debug CI failures.', tools: sentTools, messages: [{ role: 'user', content: 'Why did the build fail?' }] });
    expect(first).toBe(exact);
  });
});
