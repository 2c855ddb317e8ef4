/**
 * A session never loads or writes a transcript whose lines contradict each other:
 * loading checks the stored messages (whatever the store) and a given history, and
 * the loop renames a tool-call id the model reuses before saving the message.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TranscriptError } from '../errors/input-errors.js';
import type { Message, ToolMessage } from '../message/message.js';
import { FileSessionStore } from '../store/file-session-store.js';
import { MemorySessionStore } from '../store/memory-session-store.js';
import { scriptedModel } from '../testing/scripted-model.js';
import { Agent } from './agent.js';
import type { AgentEvent } from '../loop/agent-events.js';
import type { AgentTool } from '../loop/tool.js';

const user: Message = { role: 'user', content: 'go' };
const call: Message = { role: 'assistant', content: [{ type: 'tool-call', id: 'a', name: 't', args: {} }] };
const result: Message = { role: 'tool', toolCallId: 'a', toolName: 't', content: 'done' };
const echo: AgentTool = {
  spec: { name: 't', description: 'Echoes.', inputSchema: { type: 'object' } },
  execute: async (args) => ({ content: JSON.stringify(args) }),
};

describe('session consistency', () => {
  it('refuses a stored session whose lines contradict each other, whatever the store', async () => {
    const store = new MemorySessionStore();
    await store.append('s', [user, call, result, result]);
    const agent = new Agent({ model: scriptedModel({ steps: [] }), context: { budget: 10_000 } });
    const error = await agent.session({ id: 's', store }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TranscriptError);
    expect((error as Error).message).toMatch(/^session "s", line 4: tool call "a" already has its result on line 3/);
  });

  it('refuses a history with a result for no call', async () => {
    const agent = new Agent({ model: scriptedModel({ steps: [] }), context: { budget: 10_000 } });
    await expect(agent.session({ history: [user, result] })).rejects.toThrow(
      /^history, line 2: a result for tool call "a", but no earlier line makes that call/,
    );
  });

  it('renames a tool-call id the model reuses, warns, and saves a transcript that loads', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'episodic-ids-'));
    try {
      const store = new FileSessionStore({ directory });
      // A server that numbers calls per response: call_0 every time.
      const model = scriptedModel({
        steps: [
          { toolCalls: [{ id: 'call_0', name: 't', args: { n: 1 } }] },
          { toolCalls: [{ id: 'call_0', name: 't', args: { n: 2 } }, { id: 'call_0', name: 't', args: { n: 3 } }] },
          { text: 'done' },
        ],
      });
      const agent = new Agent({ model, tools: [echo], store, context: { budget: 100_000 } });
      const events: AgentEvent[] = [];
      const session = await agent.session({ id: 's' });
      await session.send('go', { onEvent: (event) => events.push(event) });
      const warnings = events.filter((event) => event.type === 'warning');
      expect(warnings).toEqual([
        expect.objectContaining({ step: 2, code: 'duplicate-tool-call-id', message: expect.stringContaining('"call_0" -> "call_0-2", "call_0" -> "call_0-3"') }),
      ]);
      const reloaded = await new Agent({ model, tools: [echo], store, context: { budget: 100_000 } }).session({ id: 's' });
      const results = reloaded.messages.filter((message): message is ToolMessage => message.role === 'tool');
      expect(results.map((message) => [message.toolCallId, message.content])).toEqual([
        ['call_0', '{"n":1}'],
        ['call_0-2', '{"n":2}'],
        ['call_0-3', '{"n":3}'],
      ]);
      // The last call's request pairs each result with its own call, once.
      const sent = model.requests.at(-1)!.messages.filter((message) => message.role === 'tool');
      expect(sent).toHaveLength(3);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });
});
