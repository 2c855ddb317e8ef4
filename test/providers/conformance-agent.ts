/**
 * The conformance scenarios that run through the real agent loop
 * (`Agent`/`Session` from `@episodic/core`): packing, retries, repack on
 * overflow, abort and a model switch between episodes of one session, with the
 * adapter under test and its strict loopback server.
 */
import {
  Agent,
  type AgentEvent,
  type AgentTool,
  assistantText,
  MemorySessionStore,
  type ModelAdapter,
  ModelError,
} from '@episodic/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RecordedRequest, ScriptedServer } from '../servers/scripted-server.js';
import type { ConformanceTarget } from './conformance.js';
import { testToolSpecs, testTools } from './conformance-driver.js';

const agentTools: AgentTool[] = testToolSpecs.map((spec) => ({
  spec,
  async execute(args: unknown) {
    const tool = testTools[spec.name];
    if (!tool) throw new Error(`unknown tool ${spec.name}`);
    return { content: await tool((args ?? {}) as Record<string, unknown>) };
  },
}));

const noWait = { sleep: async () => {} };
const echoed = (call: RecordedRequest | undefined) => call?.view?.echoedReasoning;

/** Defines the agent-loop scenarios for one adapter. */
export function runAgentLoopConformance(target: ConformanceTarget): void {
  const echoes = target.echoesReasoning ?? true;
  const expected = (texts: string[]) => (echoes ? texts : []);

  describe(`${target.name} through the agent loop`, () => {
    let server: ScriptedServer;
    let adapter: ModelAdapter;
    const agentFor = (model: ModelAdapter, store = new MemorySessionStore()) =>
      new Agent({ model, system: 'You debug CI failures.', tools: agentTools, budget: 100_000, retry: noWait, store });

    beforeEach(async () => {
      server = await target.startServer();
      adapter = target.createAdapter(server.url, { model: target.models.primary });
    });
    afterEach(async () => {
      await server.close();
    });

    it('keeps the episode`s reasoning across tool steps and drops it at the next user message', async () => {
      server.enqueue(
        { type: 'reply', reasoning: ['l1'], toolCalls: [{ name: 'get_ci_log', args: { run: 1 } }] },
        { type: 'reply', reasoning: ['l2'], toolCalls: [{ name: 'failing_tool', args: {} }] },
        { type: 'reply', reasoning: ['l3'], text: 'Found it.' },
        { type: 'reply', reasoning: ['l4'], text: 'You are welcome.' },
      );
      const session = await agentFor(adapter).session();
      const first = await session.send('CI is red');
      expect(first.reason).toBe('done');
      await session.send('Thanks');
      const calls = server.modelCalls();
      expect(calls.map((call) => call.status)).toEqual([200, 200, 200, 200]);
      expect(echoed(calls[1])).toEqual(expected(['l1']));
      expect(echoed(calls[2])).toEqual(expected(['l1', 'l2']));
      expect(calls[2]?.view?.toolErrorIds).toHaveLength(1);
      expect(calls[3]?.view?.reasoningItems).toBe(0);
      expect(calls[3]?.view?.toolResultIds).toEqual(calls[3]?.view?.toolCallIds);
    });

    it('retries a 429 and repacks once after a context-length error', async () => {
      server.enqueue(
        { type: 'error', status: 429, retryAfterSeconds: 0 },
        { type: 'reply', text: 'one' },
        { type: 'context-overflow' },
        { type: 'reply', text: 'two' },
      );
      const events: AgentEvent[] = [];
      const session = await agentFor(adapter).session();
      await session.send('first', { onEvent: (event) => events.push(event) });
      const second = await session.send('second', { onEvent: (event) => events.push(event) });
      expect(second.message && assistantText(second.message)).toBe('two');
      const errors = events.flatMap((event) => (event.type === 'error' ? [event.error] : []));
      expect(errors.map((error) => (error as ModelError).kind)).toEqual(['rate-limit', 'context-overflow']);
      expect(errors.every((error) => error instanceof ModelError)).toBe(true);
      expect(server.modelCalls().map((call) => call.status)).toEqual([429, 200, 400, 200]);
    });

    it('aborts mid-stream leaving a consistent transcript, then continues', async () => {
      server.enqueue(
        { type: 'reply', reasoning: ['x'], toolCalls: [{ name: 'read_file', args: { path: 'e.ts' } }] },
        { type: 'stall', text: 'thinking out loud' },
      );
      const controller = new AbortController();
      const session = await agentFor(adapter).session();
      const outcome = await session
        .send('Go', {
          signal: controller.signal,
          onEvent: (event) => {
            if (event.type === 'text-delta') controller.abort();
          },
        })
        .then(
          (result) => result.reason,
          (error: Error) => error.name,
        );
      expect(['aborted', 'RunAbortedError']).toContain(outcome);
      const calls = session.messages.flatMap((message) => (message.role === 'assistant' ? message.content : []));
      const results = session.messages.filter((message) => message.role === 'tool');
      expect(results).toHaveLength(calls.filter((part) => part.type === 'tool-call').length);
      server.enqueue({ type: 'reply', text: 'continued' });
      const next = await session.send('Go on');
      expect(next.message && assistantText(next.message)).toBe('continued');
      expect(server.modelCalls().at(-1)?.status).toBe(200);
    });

    it('switches model between episodes of one session without sending the other model`s opaque data', async () => {
      const store = new MemorySessionStore();
      server.enqueue(
        { type: 'reply', reasoning: ['p1'], toolCalls: [{ name: 'get_ci_log', args: { run: 9 } }] },
        { type: 'reply', reasoning: ['p2'], text: 'Primary done.' },
        { type: 'reply', reasoning: ['s1'], toolCalls: [{ name: 'read_file', args: { path: 'f.ts' } }] },
        { type: 'reply', text: 'Secondary done.' },
      );
      const first = await agentFor(adapter, store).session({ id: 'shared' });
      await first.send('Start');
      const other = target.createAdapter(server.url, { model: target.models.secondary });
      const second = await agentFor(other, store).session({ id: 'shared' });
      await second.send('Continue elsewhere');
      const calls = server.modelCalls();
      expect(calls.map((call) => call.status)).toEqual([200, 200, 200, 200]);
      expect(calls[2]?.view?.model).toBe(target.models.secondary);
      expect(calls[2]?.view?.reasoningItems).toBe(0);
      expect(echoed(calls[3])).toEqual(expected(['s1']));
    });
  });
}
