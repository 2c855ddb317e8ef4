/**
 * Anthropic on-demand compaction under a durable runtime (the in-memory journal; the
 * engines themselves in test/crash/on-demand-dbos.test.ts and
 * test/crash/on-demand-restate.test.ts): the compaction request is a step, so a
 * crash at any point of it resumes with the same transcript as a run without the crash,
 * and the model is asked again only when no answer was recorded.
 */
import { Agent, type AgentEvent, type Message, MemorySessionStore, type SessionStore } from '@episodic/core';
import { MemoryJournal, SimulatedCrash } from '@episodic/core/testing';
import { createAnthropicAdapter } from '@episodic/providers/anthropic';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type AnthropicServer, startAnthropicServer } from '../servers/anthropic-server.js';
import type { RecordedRequest } from '../servers/scripted-server.js';
import { type CapturedBody, capturedRequests, sdkParamErrors } from '../support/sdk-param-check.js';

type WireMessage = { role: string; content: string | { type: string; [key: string]: unknown }[] };
const messagesOf = (request: RecordedRequest | undefined) => ((request?.body as { messages?: WireMessage[] }).messages ?? []);
const compactionRequests = (server: AnthropicServer) =>
  server.requests.filter((request) => (request.body as { compaction?: unknown }).compaction !== undefined);
/** The transcript as compared across runs: roles, texts, and what each compaction stands for. */
const shape = (messages: readonly Message[]) =>
  messages.map((message) => {
    if (message.role !== 'assistant') return `${message.role}:${typeof message.content === 'string' ? message.content : ''}`;
    const part = message.content[0];
    if (part?.type === 'compaction') return `compaction:${part.summarizedMessages}:${part.failed === true ? 'failed' : part.text}`;
    return `assistant:${message.content.map((item) => (item.type === 'text' ? item.text : item.type)).join('')}`;
  });

const STEP = (episode: number, at: 'start' | 'end') => `od/${episode}/compaction/${at}`;

/** Every body an SDK client sent in this file, type-checked at the end. */
const captured: CapturedBody[] = [];

describe('on-demand compaction under a durable runtime (in-memory journal)', () => {
  let server: AnthropicServer;
  beforeEach(async () => {
    server = await startAnthropicServer();
  });
  afterEach(async () => {
    captured.push(...capturedRequests(server.requests, 'on-demand durable'));
    await server.close();
  });

  function setup(options: { background?: boolean; store?: SessionStore; journal?: MemoryJournal; compact?: 'crash-after-call' } = {}) {
    const model = createAnthropicAdapter({ model: 'claude-sonnet-4-6', baseURL: server.url, apiKey: 'test-key' });
    let crashAfterCall = options.compact === 'crash-after-call';
    const compact = model.compact!.bind(model);
    // The process dies after the server answered, before the engine recorded the step.
    model.compact = async (request) => {
      const answer = await compact(request);
      if (!crashAfterCall) return answer;
      crashAfterCall = false;
      throw new SimulatedCrash('during the compaction request');
    };
    const store = options.store ?? new MemorySessionStore();
    const compaction = { threshold: 1, keepTurns: 1, background: options.background ?? false };
    const agent = new Agent({ model, store, context: 'hybrid', nativeContext: { compaction } });
    const journal = options.journal ?? new MemoryJournal();
    const events: AgentEvent[] = [];
    const send = async (text: string, episode: number) =>
      (await agent.session({ id: 'od' })).send(text, { durable: { runtime: journal, episode }, onEvent: (event) => events.push(event) });
    return { journal, send, events, load: async () => (await store.load('od'))?.messages ?? [] };
  }

  const replies = (...texts: string[]) => server.enqueue(...texts.map((text) => ({ type: 'reply' as const, text })));
  const first = 'compaction:2:Summary of 2 messages: u1 | a1';
  // After episode 2 the block and the episode before the kept one are summarized again.
  const second = 'compaction:5:Summary of 3 messages: (Summary of 2 messages: u1 | a1) | u2 | a2';
  const expected = ['user:u1', 'assistant:a1', 'user:u2', 'assistant:a2', first, 'user:u3', 'assistant:a3', second];

  /** Three episodes; `crash` makes episode 1 die once somewhere; it is then run again. */
  async function threeEpisodes(run: ReturnType<typeof setup>, crash: () => void = () => {}): Promise<Message[]> {
    replies('a1', 'a2', 'a3');
    await run.send('u1', 0);
    crash();
    await run.send('u2', 1).catch((error: unknown) => {
      if (!(error instanceof SimulatedCrash)) throw error;
      return run.send('u2', 1);
    });
    await run.send('u3', 2);
    return run.load();
  }

  it('without a crash: the compaction is a step of the episode, asked once, swapped in after its last answer', async () => {
    const run = setup();
    const messages = await threeEpisodes(run);
    expect(shape(messages)).toEqual(expected);
    expect(compactionRequests(server)).toHaveLength(2);
    expect(run.journal.ran.filter((id) => id.includes('/compaction/'))).toEqual([STEP(0, 'end'), STEP(1, 'start'), STEP(1, 'end'), STEP(2, 'start'), STEP(2, 'end')]);
    // Episode 2's call sends the block first, in place of u1 and a1.
    const third = server.modelCalls()[2];
    expect(third?.status).toBe(200);
    expect(messagesOf(third)[0]?.content).toMatchObject([{ type: 'compaction' }]);
  });

  for (const [point, crash, calls] of [
    ['before the request', (journal: MemoryJournal) => journal.crashAt({ stepId: STEP(1, 'end'), when: 'before' }), 2],
    ['after the answer was recorded, before the swap', (journal: MemoryJournal) => journal.crashAt({ stepId: STEP(1, 'end'), when: 'after' }), 2],
  ] as const) {
    it(`a crash ${point} resumes with the transcript of a run without it; the model answered ${calls} compactions, as without it`, async () => {
      const run = setup();
      const messages = await threeEpisodes(run, () => crash(run.journal));
      expect(shape(messages)).toEqual(expected);
      expect(compactionRequests(server).filter((request) => request.status === 200)).toHaveLength(calls);
    });
  }

  it('a crash during the request (answered, not recorded) asks again on replay, and swaps in one answer', async () => {
    const run = setup({ compact: 'crash-after-call' });
    const messages = await threeEpisodes(run);
    expect(shape(messages)).toEqual(expected);
    // The one cut off by the crash, its replay, and episode 2's.
    expect(compactionRequests(server)).toHaveLength(3);
  });

  it('a crash after the swap was written replays the episode without writing it or asking again', async () => {
    const { store, armCrash } = crashAfterSwapStore();
    const run = setup({ store });
    const messages = await threeEpisodes(run, armCrash);
    expect(shape(messages)).toEqual(expected);
    expect(compactionRequests(server)).toHaveLength(2);
  });

  it('in the background the compaction runs beside the episode after which it was asked, and is swapped in at its end', async () => {
    const run = setup({ background: true });
    replies('a1', 'a2', 'a3', 'a4');
    for (const [index, text] of ['u1', 'u2', 'u3'].entries()) await run.send(text, index);
    // Asked at episode 2's start (two episodes done, one kept), swapped in after a3.
    expect(shape(await run.load())).toEqual(['user:u1', 'assistant:a1', 'user:u2', 'assistant:a2', 'user:u3', 'assistant:a3', first]);
    expect(run.journal.ran.filter((id) => id.includes('/compaction/'))).toEqual([STEP(1, 'start'), STEP(2, 'start')]);
    await run.send('u4', 3);
    expect(messagesOf(server.modelCalls().at(-1))[0]?.content).toMatchObject([{ type: 'compaction' }]);
    // The call after the swap sent what the summary replaced no more: nothing new to ask for at episode 3's start.
    expect(compactionRequests(server)).toHaveLength(1);
  });

  it('a step the engine runs after awaits of its own sees the transcript of its boundary, not what the episode appended since', async () => {
    // As DBOS does: the step's function runs only after the engine looked its id up.
    class AwaitingJournal extends MemoryJournal {
      override async step<T>(id: string, run: () => Promise<T>): Promise<T> {
        await new Promise((resolve) => setImmediate(resolve));
        return super.step(id, run);
      }
    }
    const run = setup({ background: true, journal: new AwaitingJournal() });
    replies('a1', 'a2', 'a3');
    for (const [index, text] of ['u1', 'u2', 'u3'].entries()) await run.send(text, index);
    expect(shape(await run.load())).toEqual(['user:u1', 'assistant:a1', 'user:u2', 'assistant:a2', 'user:u3', 'assistant:a3', first]);
  });

  it('a swap at an episode\'s start (after a transient failure at the last one\'s end) is written once across a crash after it', async () => {
    server.compactions.enqueue({ outcome: 'unavailable' });
    const { store, armCrash } = crashAfterSwapStore();
    const run = setup({ store });
    replies('a1', 'a2', 'a3');
    await run.send('u1', 0);
    await run.send('u2', 1);
    expect(compactionRequests(server).map((request) => request.status)).toEqual([529]);
    armCrash();
    await expect(run.send('u3', 2)).rejects.toBeInstanceOf(SimulatedCrash);
    expect(shape(await run.load())).toEqual(['user:u1', 'assistant:a1', 'user:u2', 'assistant:a2', first]);
    await run.send('u3', 2);
    expect(shape(await run.load())).toEqual(expected);
    expect(compactionRequests(server).map((request) => request.status)).toEqual([529, 200, 200]);
    expect(run.events.filter((event) => event.type === 'warning' && event.code === 'compaction-failed')).toHaveLength(1);
  });

  it('a failed compaction (no summary) is stored once for its cost, and its cut is not asked again', async () => {
    server.compactions.enqueue({ outcome: 'null-content' });
    const run = setup();
    const messages = await threeEpisodes(run);
    // Episode 2's start finds the failed cut in the transcript; its end asks with the cut moved on.
    expect(shape(messages)).toEqual([
      'user:u1', 'assistant:a1', 'user:u2', 'assistant:a2', 'compaction:2:failed', 'user:u3', 'assistant:a3',
      'compaction:5:Summary of 4 messages: u1 | a1 | u2 | a2',
    ]);
    expect(compactionRequests(server)).toHaveLength(2);
  });

  it('a runtime that runs one step at a time gets the foreground, and a typed warning says so', async () => {
    const run = setup({ background: true, journal: new MemoryJournal({ concurrentSteps: false }) });
    const messages = await threeEpisodes(run);
    expect(shape(messages)).toEqual(expected);
    expect(run.events.some((event) => event.type === 'warning' && event.code === 'compaction-in-foreground')).toBe(true);
  });
});

/** A store that throws once, right after it wrote a swapped-in compaction block, when armed. */
function crashAfterSwapStore(): { store: SessionStore; armCrash: () => void } {
  const inner = new MemorySessionStore();
  let armed = false;
  const store: SessionStore = Object.create(inner, {
    append: {
      value: async (...args: Parameters<SessionStore['append']>) => {
        await inner.append(...args);
        const swapped = args[1].some((message) => message.role === 'assistant' && message.content[0]?.type === 'compaction');
        if (swapped && armed) {
          armed = false;
          throw new SimulatedCrash('after the swap');
        }
      },
    },
  });
  return { store, armCrash: () => (armed = true) };
}

describe('the captured bodies', () => {
  it('type-check against the official SDK param types', () => {
    expect(captured.length).toBeGreaterThan(5);
    expect(sdkParamErrors(captured)).toEqual([]);
  }, 120_000);
});
