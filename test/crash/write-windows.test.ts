// In-process crash windows of the write-ahead order: the process "dies" (the store
// throws) right after one write of a step and before the next. Reopening the session
// from what the store holds and calling resume() must finish the same episode with no
// step lost or doubled, whatever the window.
import { Agent, MemorySessionStore, type Message, type SessionStore } from '@episodic/core';
import { type PackState } from '@episodic/core/packing';
import { scriptedModel } from '@episodic/core/testing';
import { describe, expect, it } from 'vitest';
import { crashScript, TOOL_STEPS, workTool } from './crash-script.mjs';

class Crash extends Error {}

/** A store that throws once, at the n-th call of `method`, without doing that write. */
type Method = 'append' | 'saveState' | 'saveReasoningSidecar';

function crashingStore(inner: MemorySessionStore, method: Method, at: number): SessionStore {
  let calls = 0;
  const crashHere = () => {
    calls += 1;
    if (calls === at) throw new Crash(`crashed before ${method} #${at}`);
  };
  return {
    load: (id) => inner.load(id),
    append: async (id, messages: readonly Message[]) => {
      if (method === 'append') crashHere();
      return inner.append(id, messages);
    },
    saveState: async (id, state: PackState) => {
      if (method === 'saveState') crashHere();
      return inner.saveState(id, state);
    },
    saveReasoningSidecar: async (id, sidecar) => {
      if (method === 'saveReasoningSidecar') crashHere();
      return inner.saveReasoningSidecar(id, sidecar);
    },
  };
}

const system = 'You fix CI.';

describe('write-ahead crash windows', () => {
  // append #1 is the user message, then per step: the assistant message, its results.
  const persist = ['always', 'current-episode'] as const;
  const windows = persist.flatMap((persistReasoning) => [
    ...[2, 3, 4, 5, 6].map((at) => ({ persistReasoning, method: 'append' as Method, at })),
    ...[1, 2, 3].map((at) => ({ persistReasoning, method: 'saveState' as Method, at })),
    ...(persistReasoning === 'current-episode'
      ? [1, 2, 3].map((at) => ({ persistReasoning, method: 'saveReasoningSidecar' as Method, at }))
      : []),
  ]);
  it.each(windows)('persistReasoning $persistReasoning: a crash before $method #$at resumes without losing or doubling a step', async ({ persistReasoning, method, at }) => {
    const stored = new MemorySessionStore();
    const first = new Agent({
      model: scriptedModel({ steps: crashScript }),
      system,
      tools: [workTool({})],
      store: crashingStore(stored, method, at),
      reasoning: { persist: persistReasoning },
    });
    await expect((await first.session({ id: 's' })).send('Fix CI on main')).rejects.toBeInstanceOf(Crash);

    const ran: number[] = [];
    const model = scriptedModel({ steps: crashScript });
    const agent = new Agent({ model, system, tools: [workTool({ ran })], store: stored, reasoning: { persist: persistReasoning } });
    const session = await agent.session({ id: 's' });
    expect((await session.resume()).text).toBe('all steps done');
    // Every request after the crash carries the reasoning of the episode's earlier steps.
    for (const request of model.requests) {
      const steps = request.messages.filter((message) => message.role === 'assistant').length;
      const reasoning = request.messages.flatMap((message) =>
        message.role === 'assistant' ? message.content.filter((part) => part.type === 'reasoning') : [],
      );
      expect(reasoning).toHaveLength(steps);
    }
    const messages = (await stored.load('s'))?.messages ?? [];
    // The store holds the transcript as the session has it (reasoning kept out of it at rest).
    const atRest = (list: readonly Message[]) =>
      persistReasoning === 'always'
        ? list
        : list.map((message) =>
            message.role === 'assistant'
              ? { ...message, content: message.content.filter((part) => part.type !== 'reasoning') }
              : message,
          );
    expect(messages).toEqual(atRest(session.messages));
    expect(messages.map((message) => message.role)).toEqual([
      'user',
      ...Array.from({ length: TOOL_STEPS }, () => ['assistant', 'tool']).flat(),
      'assistant',
    ]);
    const results = messages.flatMap((message) => (message.role === 'tool' ? [message.toolCallId] : []));
    expect(results).toEqual(Array.from({ length: TOOL_STEPS }, (_, index) => `call_${index + 1}`));
  });
});
