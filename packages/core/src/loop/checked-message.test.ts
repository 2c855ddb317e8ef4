import { describe, expect, it } from 'vitest';
import { Agent } from '../agent/agent.js';
import { MemorySessionStore } from '../store/memory-session-store.js';
import type { AssistantMessage } from '../message/message.js';
import { type ModelAdapter, ModelError } from '../model/model-adapter.js';

/** A custom adapter with a bug: its tool call has an empty id. */
const broken: ModelAdapter = {
  model: { provider: 'acme', id: 'acme-1' },
  async* stream() {
    const message: AssistantMessage = { role: 'assistant', content: [{ type: 'tool-call', id: '', name: 'x', args: {} }] };
    yield { type: 'finish', message, usage: { inputTokens: 10, outputTokens: 1 }, stopReason: 'tool-calls' };
  },
};

describe('assistant messages from adapters', () => {
  it('are checked before they are saved: an invalid one fails the step and is not written', async () => {
    const store = new MemorySessionStore();
    const session = await new Agent({ model: broken, budget: 10_000 }).session({ store, id: 'a' });
    const error = await session.send('go').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ModelError);
    expect((error as ModelError).kind).toBe('protocol');
    expect((error as ModelError).retryable).toBe(false);
    expect((error as Error).message).toContain('content[0].id must not be empty');
    const stored = await store.load('a');
    expect(stored?.messages.map((message) => message.role)).toEqual(['user']);
  });
});
