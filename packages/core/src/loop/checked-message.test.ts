import { describe, expect, it } from 'vitest';
import { Agent } from '../agent/agent.js';
import { MemorySessionStore } from '../store/memory-session-store.js';
import type { AssistantMessage, Usage } from '../message/message.js';
import { type ModelAdapter, ModelError } from '../model/model-adapter.js';

/** A custom adapter with a bug: it answers `message` (with `usage`). */
function adapter(message: AssistantMessage, usage: Usage = { inputTokens: 10, outputTokens: 1 }): ModelAdapter {
  return {
    model: { provider: 'acme', id: 'acme-1' },
    async* stream() {
      yield { type: 'finish', message, usage, stopReason: 'tool-calls' };
    },
  };
}

/** A custom adapter with a bug: its tool call has an empty id. */
const broken = adapter({ role: 'assistant', content: [{ type: 'tool-call', id: '', name: 'x', args: {} }] });

async function refusal(model: ModelAdapter): Promise<{ error: unknown; stored: string[] | undefined }> {
  const store = new MemorySessionStore();
  const session = await new Agent({ model, budget: 10_000 }).session({ store, id: 'a' });
  const error = await session.send('go').catch((caught: unknown) => caught);
  return { error, stored: (await store.load('a'))?.messages.map((message) => message.role) };
}

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

  // The fast structural check passes the usual shapes; whatever it is unsure of takes
  // the full check, which still refuses malformed output and names the field.
  const malformed: [string, ModelAdapter, string][] = [
    ['negative input tokens', adapter({ role: 'assistant', content: [] }, { inputTokens: -1, outputTokens: 1 }), 'usage.inputTokens'],
    ['text that is a number', adapter({ role: 'assistant', content: [{ type: 'text', text: 7 as unknown as string }] }), 'content[0].text'],
    ['an unknown part type', adapter({ role: 'assistant', content: [{ type: 'thinking', text: 'x' } as never] }), 'content[0].type'],
    ['an empty tool name', adapter({ role: 'assistant', content: [{ type: 'tool-call', id: 'c', name: '', args: {} }] }), 'content[0].name'],
    ['arguments JSON cannot write', adapter({ role: 'assistant', content: [{ type: 'tool-call', id: 'c', name: 'x', args: { n: 1n } }] }), 'cannot be written as JSON'],
  ];
  for (const [what, model, field] of malformed) {
    it(`refuses ${what} with a protocol error naming it, and writes nothing`, async () => {
      const { error, stored } = await refusal(model);
      expect(error).toBeInstanceOf(ModelError);
      expect((error as ModelError).kind).toBe('protocol');
      expect((error as Error).message).toContain(field);
      expect(stored).toEqual(['user']);
    });
  }
});
