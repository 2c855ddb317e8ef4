/**
 * The durability port: an episode run on a runtime replays from its start after a
 * crash; recorded steps are not run again, stored messages are not written twice,
 * a non-idempotent tool that may have begun is not re-run, and approvals are durable waits.
 */
import { describe, expect, it } from 'vitest';
import type { Message, ModelRequest } from '../index.js';
import { Agent } from './agent.js';
import type { AgentTool } from '../loop/tool.js';
import { MemorySessionStore } from '../store/memory-session-store.js';
import { MemoryJournal, SimulatedCrash } from '../testing/memory-journal.js';
import { scriptedModel } from '../testing/scripted-model.js';
import { createApproximateCounter } from '../tokens/token-counter.js';
import { DurableRunError, stepIds } from '../loop/durable/durable-runtime.js';
import { unknownOutcome } from '../loop/durable/durable-tools.js';
import { DURABLE_APPROVALS_KEY, type DurableApproval } from '../loop/durable/durable-approvals.js';

/** Two tool steps (`effect` then `pay`), then an answer; counts the model calls made. */
function setup(options: { approve?: boolean } = {}) {
  const store = new MemorySessionStore();
  const calls = { model: 0, effect: 0, pay: 0, appends: 0 };
  const append = store.append.bind(store);
  store.append = (...args) => {
    calls.appends += args[1].length;
    return append(...args);
  };
  const steps = (request: ModelRequest) => {
    calls.model += 1;
    const done = request.messages.filter((message) => message.role === 'tool').length;
    if (done === 0) return { text: 'first', toolCalls: [{ id: 'c1', name: 'effect', args: {} }] };
    if (done === 1) return { text: 'second', toolCalls: [{ id: 'c2', name: 'pay', args: {} }] };
    return { text: 'done' };
  };
  const effect: AgentTool = {
    spec: { name: 'effect', description: 'Idempotent.', inputSchema: { type: 'object' } },
    execute: async () => ({ content: `effect ${(calls.effect += 1)}` }),
  };
  const pay: AgentTool = {
    spec: { name: 'pay', description: 'Not idempotent.', inputSchema: { type: 'object' } },
    idempotent: false,
    ...(options.approve ? { needsApproval: true } : {}),
    execute: async () => ({ content: `paid ${(calls.pay += 1)}` }),
  };
  const tokenizer = createApproximateCounter();
  const agent = new Agent({ model: scriptedModel({ steps }), tools: [effect, pay], store, context: { budget: 100_000, tokenizer } });
  const journal = new MemoryJournal();
  const run = async () => (await agent.session({ id: 's' })).send('go', { durable: { runtime: journal, episode: 0 } });
  return { store, calls, journal, run };
}

const shape = (messages: readonly Message[]) =>
  messages.map((message) => (message.role === 'tool' ? `tool:${message.toolCallId}:${String(message.content)}` : message.role));

describe('durable runs', () => {
  it('without a crash: each step runs once and the transcript is what the plain loop writes', async () => {
    const { store, calls, journal, run } = setup();
    const result = await run();
    expect(result.reason).toBe('done');
    expect(calls).toEqual({ model: 3, effect: 1, pay: 1, appends: 6 });
    expect(shape((await store.load('s'))!.messages)).toEqual(['user', 'assistant', 'tool:c1:effect 1', 'assistant', 'tool:c2:paid 1', 'assistant']);
    expect(journal.ran).toEqual([
      stepIds.model('s', 0, 1),
      stepIds.tool('s', 0, 'c1'),
      stepIds.model('s', 0, 2),
      stepIds.toolBegan('s', 0, 'c2'),
      stepIds.tool('s', 0, 'c2'),
      stepIds.model('s', 0, 3),
    ]);
  });

  it('a model call recorded before the crash is not made (or billed) again, and its message is written once', async () => {
    const { store, calls, journal, run } = setup();
    journal.crashAt({ stepId: stepIds.model('s', 0, 2), when: 'after' });
    await expect(run()).rejects.toBeInstanceOf(SimulatedCrash);
    expect(calls.model).toBe(2);
    await run();
    expect(calls.model).toBe(3);
    expect(calls.appends).toBe(6);
    expect(shape((await store.load('s'))!.messages)).toHaveLength(6);
  });

  it('an idempotent tool recorded before the crash is not run again; one not recorded runs again', async () => {
    const { store, calls, journal, run } = setup();
    journal.crashAt({ stepId: stepIds.tool('s', 0, 'c1'), when: 'after' });
    await expect(run()).rejects.toBeInstanceOf(SimulatedCrash);
    await run();
    expect(calls.effect).toBe(1);
    expect(calls.appends).toBe(6);
    expect(shape((await store.load('s'))!.messages)[2]).toBe('tool:c1:effect 1');
  });

  it('a non-idempotent tool that may have begun is not run again: the model reads that its outcome is unknown', async () => {
    const { store, calls, journal, run } = setup();
    journal.crashAt({ stepId: stepIds.tool('s', 0, 'c2'), when: 'before' });
    await expect(run()).rejects.toBeInstanceOf(SimulatedCrash);
    const result = await run();
    expect(result.reason).toBe('done');
    expect(calls.pay).toBe(0);
    const messages = (await store.load('s'))!.messages;
    expect(messages[4]).toMatchObject({ role: 'tool', toolCallId: 'c2', isError: true, content: unknownOutcome('pay') });
    expect(calls.appends).toBe(6);
  });

  it('a crash before a non-idempotent tool began lets it run on the replay', async () => {
    const { calls, journal, run } = setup();
    journal.crashAt({ stepId: stepIds.toolBegan('s', 0, 'c2'), when: 'before' });
    await expect(run()).rejects.toBeInstanceOf(SimulatedCrash);
    await run();
    expect(calls.pay).toBe(1);
  });

  it('a finished episode replayed (the engine had not recorded its end) runs and writes nothing', async () => {
    const { store, calls, run } = setup();
    await run();
    const before = (await store.load('s'))!.messages;
    const again = await run();
    expect(again.reason).toBe('done');
    expect(calls).toMatchObject({ model: 3, effect: 1, pay: 1, appends: 6 });
    expect((await store.load('s'))!.messages).toEqual(before);
  });

  it('a replay that finds other messages stored than it produces stops with a typed error', async () => {
    const { store, run } = setup();
    await store.append('s', [{ role: 'user', content: 'something else' }]);
    await expect(run()).rejects.toMatchObject({ code: 'durable_replay_mismatch' });
    await expect(run()).rejects.toBeInstanceOf(DurableRunError);
  });

  it('an approval is a durable wait: the decision sent from outside is what the replay uses', async () => {
    const { store, calls, journal, run } = setup({ approve: true });
    const first = run();
    await vi_waitFor(() => journal.waitingFor.length > 0);
    const [waiting] = publishedApprovals(journal);
    expect(waiting).toMatchObject({ sessionId: 's', episode: 0, callId: 'c2', toolName: 'pay', args: {} });
    expect(journal.waitingFor).toEqual([waiting!.wait]);
    journal.send(waiting!.wait, { decision: 'approved', note: 'ok' });
    expect((await first).reason).toBe('done');
    expect(calls.pay).toBe(1);
    const messages = (await store.load('s'))!.messages;
    expect(messages[4]).toMatchObject({ role: 'tool', toolCallId: 'c2', content: expect.stringContaining('paid 1') });
    // Published as decided: a client can tell a retry of the same decision from another one.
    expect(publishedApprovals(journal)).toEqual([{ ...waiting, decision: { decision: 'approved', note: 'ok' } }]);
  });

  it('a decision sent before the call exists (a guessed call id) decides nothing: the call still waits', async () => {
    const { calls, journal, run } = setup({ approve: true });
    // What the old wait was named, and what any name without the episode's ticket looks like.
    journal.send('approval/s/c2', { decision: 'approved' });
    journal.send(stepIds.approval('s', 'c2', 'guessed'), { decision: 'approved' });
    const first = run();
    await vi_waitFor(() => journal.waitingFor.length > 0);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(calls.pay).toBe(0);
    const [waiting] = publishedApprovals(journal);
    expect(waiting?.wait).toMatch(/^approval\/s\/c2\/[0-9a-f-]{36}$/);
    expect(journal.waitingFor).toEqual([waiting!.wait]);
    journal.send(waiting!.wait, { decision: 'rejected', reason: 'no' });
    expect((await first).reason).toBe('done');
    expect(calls.pay).toBe(0);
  });

  it('a malformed decision (null) rejects the call once instead of waiting again and again', async () => {
    const { store, calls, journal, run } = setup({ approve: true });
    const first = run();
    await vi_waitFor(() => journal.waitingFor.length > 0);
    journal.send(publishedApprovals(journal)[0]!.wait, null);
    expect((await first).reason).toBe('done');
    expect(calls.pay).toBe(0);
    const messages = (await store.load('s'))!.messages;
    expect(messages[4]).toMatchObject({ role: 'tool', toolCallId: 'c2', isError: true, approval: { decision: 'rejected' } });
    expect(String(messages[4]?.role === 'tool' && messages[4].content)).toMatch(/not valid/);
    // One ticket, one wait: nothing was waited for twice.
    expect(journal.ran.filter((id) => id.includes('approval-ticket'))).toEqual(['s/0/approval-ticket/c2']);
  });
});

describe('durable runs with model fallback', () => {
  it('a replayed step that a fallback model answered is priced with that model\'s prices, as the live step was', async () => {
    const retry = { maxRetries: 0, sleep: async () => {} };
    const prices = (input: number) => ({ pricing: { input, cachedInput: input, output: input } });
    const priced = async (crash: boolean) => {
      const primary = scriptedModel({
        model: { provider: 'lab-a', id: 'a' },
        steps: [{ error: { kind: 'overloaded', status: 529, message: 'Overloaded' } }],
        profile: prices(1),
      });
      const secondary = scriptedModel({ model: { provider: 'lab-b', id: 'b' }, steps: [{ text: 'done' }], profile: prices(1000) });
      const store = new MemorySessionStore();
      const agent = new Agent({ model: primary, fallback: [secondary], retry, store, budget: 100_000 });
      const journal = new MemoryJournal();
      if (crash) journal.crashAt({ stepId: stepIds.model('s', 0, 1), when: 'after' });
      const run = async () => (await agent.session({ id: 's' })).send('go', { durable: { runtime: journal, episode: 0 } });
      if (crash) await expect(run()).rejects.toBeInstanceOf(SimulatedCrash);
      const result = await run();
      expect(secondary.requests).toHaveLength(1);
      const usage = result.message?.usage;
      // B's prices (1,000 USD per million tokens of each kind), not A's.
      expect(usage?.costUsd).toBeCloseTo(((usage?.inputTokens ?? 0) + (usage?.outputTokens ?? 0)) * 0.001, 9);
      return usage?.costUsd;
    };
    const live = await priced(false);
    expect(live).toBeGreaterThan(0);
    // The replay makes no call: the step's message comes from the journal, priced as B's.
    expect(await priced(true)).toBe(live);
  });
});

function publishedApprovals(journal: MemoryJournal): DurableApproval[] {
  return (journal.published.get(DURABLE_APPROVALS_KEY) ?? []) as DurableApproval[];
}

async function vi_waitFor(condition: () => boolean): Promise<void> {
  for (let tries = 0; tries < 200 && !condition(); tries += 1) await new Promise((resolve) => setTimeout(resolve, 5));
  expect(condition()).toBe(true);
}
