import { describe, expect, it } from 'vitest';
import { Agent } from '../../agent/agent.js';
import { FallbackExhaustedError } from '../../errors/fallback-error.js';
import { ModelError } from '../../errors/model-error.js';
import type { AgentEvent } from '../agent-events.js';
import { MemorySessionStore } from '../../store/memory-session-store.js';
import type { AssistantMessage, Message } from '../../message/message.js';
import { failoverReason } from './model-fallback.js';
import { scriptedModel } from '../../testing/scripted-model.js';
import type { AgentTool } from '../tool.js';
import { MemoryReplayCache } from '../../reasoning/replay-cache/memory-replay-cache.js';

const read: AgentTool = {
  spec: { name: 'read', description: 'reads the CI log', inputSchema: { type: 'object' } },
  execute: async () => ({ content: 'FAIL test/db.test.ts: timeout after 1000 ms' }),
};
const trace = 'The log says the db fixture timed out after 1 s; the config sets testTimeout.';
const a = { provider: 'lab-a', id: 'model-a' };
const b = { provider: 'lab-b', id: 'model-b' };
const c = { provider: 'lab-c', id: 'model-c' };
const retry = { maxRetries: 1, sleep: async () => {} };

function events() {
  const seen: AgentEvent[] = [];
  return { seen, onEvent: (event: AgentEvent) => seen.push(event) };
}
const assistants = (messages: readonly Message[]) =>
  messages.filter((message): message is AssistantMessage => message.role === 'assistant');

describe('model fallback', () => {
  it('retries a step that failed mid-episode on the next model, with the hand-off note, and records the switch', async () => {
    const primary = scriptedModel({
      model: a,
      steps: [
        { reasoning: trace, toolCalls: [{ id: 'c1', name: 'read' }] },
        { error: { kind: 'overloaded', status: 529, message: 'Overloaded' } },
        { error: { kind: 'overloaded', status: 529, message: 'Overloaded' } },
        { text: 'Back on the primary.' },
      ],
    });
    const secondary = scriptedModel({
      model: b,
      steps: [{ reasoning: 'Raise the timeout.', toolCalls: [{ id: 'c2', name: 'read' }] }, { text: 'Raise testTimeout to 5 s.' }],
    });
    const store = new MemorySessionStore();
    const agent = new Agent({ model: primary, tools: [read], fallback: [secondary], retry, store });
    const session = await agent.session({ id: 's' });
    const { seen, onEvent } = events();
    const result = await session.send('Why is CI red?', { onEvent });

    expect(result.message?.model).toEqual(b);
    // The note carries the primary's reasoning; nothing of it travels as reasoning.
    const first = secondary.requests[0]!;
    expect(first.system).toContain(trace);
    expect(first.system).toContain('lab-a/model-a');
    expect(JSON.stringify(first.messages)).not.toContain(trace);
    // The episode stays on the fallback: its second step went to model B, not back to A.
    expect(secondary.requests).toHaveLength(2);
    expect(primary.requests).toHaveLength(3);
    const switched = seen.find((event) => event.type === 'model-fallback');
    expect(switched).toMatchObject({ step: 2, from: a, to: b, reason: 'overloaded', code: 'model_overloaded' });
    const packedFor = seen.flatMap((event) => (event.type === 'context-packed' ? [event.model?.id] : []));
    expect(packedFor).toEqual(['model-a', 'model-a', 'model-a', 'model-b', 'model-b']);

    // Persisted: a reopened session reads which step switched and why.
    const reopened = await agent.session({ id: 's' });
    const answered = assistants(reopened.messages);
    expect(answered.map((message) => message.model?.id)).toEqual(['model-a', 'model-b', 'model-b']);
    expect(answered[1]?.fallback?.failed).toEqual([
      expect.objectContaining({ model: a, code: 'model_overloaded', reason: 'overloaded', status: 529 }),
    ]);
    expect(answered[2]?.fallback).toBeUndefined();

    // The next episode starts on the primary again.
    const next = await reopened.send('Thanks. Anything else?');
    expect(next.message?.model).toEqual(a);
  });

  it('a resumed episode continues on the model it failed over to', async () => {
    const primary = scriptedModel({ model: a, steps: [{ text: 'primary must not answer' }] });
    const secondary = scriptedModel({ model: b, steps: [{ text: 'Done on B.' }] });
    const history: Message[] = [
      { role: 'user', content: 'Why is CI red?' },
      {
        role: 'assistant',
        model: b,
        content: [{ type: 'tool-call', id: 'c1', name: 'read', args: {} }],
        fallback: { failed: [{ model: a, code: 'model_server', reason: 'server-error', message: 'HTTP 500' }] },
      },
      { role: 'tool', toolCallId: 'c1', toolName: 'read', content: 'log' },
    ];
    const session = await new Agent({ model: primary, tools: [read], fallback: [secondary] }).session({ history });
    const result = await session.resume();
    expect(result.message?.model).toEqual(b);
    expect(primary.requests).toHaveLength(0);
  });

  it.each([
    ['a bad request', { kind: 'invalid-request' as const, status: 400, message: 'messages.1: bad shape' }],
    ['a bad key', { kind: 'auth' as const, status: 401, message: 'invalid x-api-key' }],
    ['a context overflow', { kind: 'context-overflow' as const, status: 400, message: 'prompt is too long' }],
  ])('does not fail over on %s', async (_name, error) => {
    const primary = scriptedModel({ model: a, steps: [{ error }, { error }, { error }] });
    const secondary = scriptedModel({ model: b, steps: [{ text: 'must not answer' }] });
    const session = await new Agent({ model: primary, fallback: [secondary], retry }).session();
    const failure = await session.send('hi').catch((caught: unknown) => caught);
    expect(ModelError.isInstance(failure)).toBe(true);
    expect(secondary.requests).toHaveLength(0);
  });

  it('throws a typed error naming every model and its error when all fail', async () => {
    const primary = scriptedModel({ model: a, steps: Array(2).fill({ error: { kind: 'server', status: 503, message: 'unavailable' } }) });
    const second = scriptedModel({ model: b, steps: [{ error: { kind: 'invalid-request', status: 404, message: 'model: model-b' } }] });
    const third = scriptedModel({ model: c, steps: Array(2).fill({ error: { kind: 'network', message: 'ECONNREFUSED' } }) });
    const session = await new Agent({ model: primary, fallback: [second, third], retry }).session();
    const failure = await session.send('hi').catch((caught: unknown) => caught);
    expect(FallbackExhaustedError.isInstance(failure)).toBe(true);
    const error = failure as FallbackExhaustedError;
    expect(error.code).toBe('fallback_exhausted');
    expect(error.attempts.map((attempt) => [attempt.model, attempt.code])).toEqual([
      ['lab-a/model-a', 'model_server'],
      ['lab-b/model-b', 'model_invalid_request'],
      ['lab-c/model-c', 'model_network'],
    ]);
    expect(error.message).toContain('model: model-b');
    // The transcript stays consistent: the user message, no half answer.
    expect(session.messages.map((message) => message.role)).toEqual(['user']);
  });

  it('fails over at once when a rate limit asks to wait past maxRetryWaitMs', async () => {
    const waits: number[] = [];
    const primary = scriptedModel({ model: a, steps: [{ error: { kind: 'rate-limit', status: 429, retryAfter: 60 } }] });
    const secondary = scriptedModel({ model: b, steps: [{ text: 'ok' }] });
    const agent = new Agent({
      model: primary,
      fallback: { models: [secondary], maxRetryWaitMs: 5_000 },
      retry: { maxRetries: 3, sleep: async (ms) => void waits.push(ms) },
    });
    const result = await (await agent.session()).send('hi');
    expect(result.message?.model).toEqual(b);
    expect(waits).toEqual([]);
    expect(primary.requests).toHaveLength(1);
  });

  it('classifies by the typed error kinds', () => {
    const error = (kind: ModelError['kind'], status?: number) => new ModelError(kind, 'x', { status });
    expect(failoverReason(error('overloaded', 529))).toBe('overloaded');
    expect(failoverReason(error('server', 500))).toBe('server-error');
    expect(failoverReason(error('rate-limit', 429))).toBe('rate-limit');
    expect(failoverReason(error('network'))).toBe('unreachable');
    expect(failoverReason(error('invalid-request', 404))).toBe('model-not-found');
    expect(failoverReason(error('invalid-request', 400))).toBeUndefined();
    expect(failoverReason(error('auth', 401))).toBeUndefined();
    expect(failoverReason(error('context-overflow', 400))).toBeUndefined();
  });

  describe('an application-owned history (reasoning stripped) with a replay cache', () => {
    /** Runs model A for one tool step with the cache, and returns the visible history a chat UI would keep. */
    async function visibleHistory(cache: MemoryReplayCache): Promise<Message[]> {
      const first = scriptedModel({ model: a, steps: [{ reasoning: trace, toolCalls: [{ id: 'c1', name: 'read' }] }] });
      const agent = new Agent({ model: first, tools: [read], replayCache: cache, stopWhen: () => true });
      const session = await agent.session();
      await session.send('Why is CI red?');
      return session.messages.map((message) =>
        message.role === 'assistant'
          ? { ...message, content: message.content.filter((part) => part.type !== 'reasoning') }
          : message,
      );
    }

    it('the fallback model gets the primary`s trace from the cache', async () => {
      const cache = new MemoryReplayCache();
      const history = await visibleHistory(cache);
      expect(JSON.stringify(history)).not.toContain(trace);
      const primary = scriptedModel({ model: a, steps: [{ error: { kind: 'server', status: 500 } }, { error: { kind: 'server', status: 500 } }] });
      const secondary = scriptedModel({ model: b, steps: [{ text: 'Raise testTimeout.' }] });
      const agent = new Agent({ model: primary, tools: [read], fallback: [secondary], replayCache: cache, retry });
      await (await agent.session({ history })).resume();
      expect(secondary.requests[0]?.system).toContain(trace);
      expect(JSON.stringify(secondary.requests[0]?.messages)).not.toContain(trace);
    });

    it('a router switching models by agent gets the note from the cache (hand-off on)', async () => {
      const cache = new MemoryReplayCache();
      const history = await visibleHistory(cache);
      const next = scriptedModel({ model: b, steps: [{ text: 'Raise testTimeout.' }] });
      const agent = new Agent({ model: next, tools: [read], replayCache: cache, handoff: true });
      await (await agent.session({ history })).resume();
      expect(next.requests[0]?.system).toContain(trace);
      expect(JSON.stringify(next.requests[0]?.messages)).not.toContain(trace);
    });
  });
});
