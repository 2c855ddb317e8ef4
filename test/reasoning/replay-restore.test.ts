import {
  Agent,
  type AssistantMessage,
  createTokenCounter,
  MemorySessionStore,
  type Message,
  type ModelRef,
  type TokenCounter,
  TranscriptError,
} from '@episodic/core';
import { MemoryReplayCache } from '@episodic/core/reasoning';
import { createApproximateCounter, scriptedModel } from '@episodic/core/testing';
import { captureReasoning, restoreReasoning } from '../../packages/core/src/reasoning/replay-cache/replay-restore.js';
import { describe, expect, it } from 'vitest';

const counter = createApproximateCounter();
const target: ModelRef = { provider: 'deepseek', id: 'deepseek-v4' };
const other: ModelRef = { provider: 'openai', id: 'gpt-b' };

const call = (id: string, reasoning?: string, model: ModelRef | undefined = target): AssistantMessage => ({
  role: 'assistant',
  ...(model ? { model } : {}),
  content: [
    ...(reasoning ? [{ type: 'reasoning' as const, text: reasoning }] : []),
    { type: 'tool-call' as const, id, name: 'read', args: {} },
  ],
});
const answer = (text: string, reasoning?: string): AssistantMessage => ({
  role: 'assistant',
  model: target,
  content: [...(reasoning ? [{ type: 'reasoning' as const, text: reasoning }] : []), { type: 'text' as const, text }],
});
const result = (id: string): Message => ({ role: 'tool', toolCallId: id, toolName: 'read', content: 'ok' });
const user = (text: string): Message => ({ role: 'user', content: text });
const strip = (messages: Message[]): Message[] =>
  messages.map((message) =>
    message.role === 'assistant'
      ? { role: 'assistant', content: message.content.filter((part) => part.type !== 'reasoning') }
      : message,
  );

/** Captures every assistant message of `messages` as the loop does, then returns them without reasoning. */
async function captured(cache: MemoryReplayCache, messages: Message[], model = target): Promise<Message[]> {
  for (const [index, message] of messages.entries()) {
    if (message.role === 'assistant')
      await captureReasoning(cache, { message, previous: messages[index - 1], model }, counter);
  }
  return strip(messages);
}

describe('restoreReasoning', () => {
  const conversation = (): Message[] => [
    user('CI is red'),
    call('c1', 'need the log'),
    result('c1'),
    answer('Flaky.', 'it is flaky'),
    user('What now?'),
    call('c2', 'rerun it'),
    result('c2'),
  ];

  it('restores what tool-episodes retention sends: past tool calls and the unfinished episode', async () => {
    const cache = new MemoryReplayCache();
    const history = await captured(cache, conversation());
    const restored = await restoreReasoning(history, { cache, target, retention: 'tool-episodes' });
    expect(restored).toMatchObject({ restored: 2, missing: 0 });
    const texts = restored.messages.map((message) =>
      message.role === 'assistant' ? message.content.find((part) => part.type === 'reasoning')?.text : undefined,
    );
    expect(texts).toEqual([undefined, 'need the log', undefined, undefined, undefined, 'rerun it', undefined]);
    expect(restored.messages[1]).toMatchObject({ model: target });
    expect(restored.messages[3]).toBe(history[3]);
    expect(restored.tokens).toBe(counter.countText('need the log') + counter.countText('rerun it'));
  });

  it('restores only the unfinished episode for episode retention, and nothing for none', async () => {
    const cache = new MemoryReplayCache();
    const history = await captured(cache, conversation());
    expect((await restoreReasoning(history, { cache, target, retention: 'episode' })).restored).toBe(1);
    expect((await restoreReasoning(history, { cache, target, retention: 'none' })).restored).toBe(0);
    const all = await restoreReasoning(history, { cache, target, retention: 'all' });
    expect(all.restored).toBe(3);
  });

  it('keys answers without tool calls by their text and the message before them', async () => {
    const cache = new MemoryReplayCache();
    await captured(cache, [user('first question'), answer('Done.', 'trace one')]);
    const elsewhere = strip([user('another question'), answer('Done.', 'unrelated')]);
    expect((await restoreReasoning(elsewhere, { cache, target, retention: 'all' })).restored).toBe(0);
    const same = strip([user('first question'), answer('Done.')]);
    expect((await restoreReasoning(same, { cache, target, retention: 'all' })).restored).toBe(1);
  });

  it('never restores another model`s reasoning and counts what is still missing', async () => {
    const cache = new MemoryReplayCache();
    const history = await captured(cache, [user('go'), call('x1', 'other model trace', other), result('x1')], other);
    const tagged = history.map((message, index) => (index === 1 ? { ...message, model: other } : message));
    const restored = await restoreReasoning(tagged, { cache, target, retention: 'tool-episodes' });
    expect(restored).toMatchObject({ restored: 0, missing: 0 });
    // Untagged, it is looked up for the target, which has no such entry: still missing.
    expect(await restoreReasoning(history, { cache, target, retention: 'tool-episodes' })).toMatchObject({
      restored: 0,
      missing: 1,
    });
  });
});

describe('agent.session({ history })', () => {
  it('checks the history like a transcript and refuses it for a stored session', async () => {
    const store = new MemorySessionStore();
    const agent = new Agent({ model: scriptedModel({ steps: [{ text: 'ok' }] }), store, context: { budget: 10_000 } });
    const broken = [user('hi'), { role: 'assistant', content: [{ type: 'tool-call', id: 1 }] }] as unknown as Message[];
    await expect(agent.session({ history: broken })).rejects.toBeInstanceOf(TranscriptError);
    const history = [user('hi'), answer('Hello.')];
    const session = await agent.session({ id: 'kept', history });
    expect(session.messages).toEqual(history);
    expect((await store.load('kept'))?.messages).toEqual(history);
    await expect(agent.session({ id: 'kept', history })).rejects.toThrow(/already stored/);
  });
});

describe('capture through the agent loop', () => {
  it('stores each answer`s reasoning without tokenizing the trace again', async () => {
    const real = createTokenCounter();
    const trace = 'The failing test reads a fixture that the last commit renamed; read the fixture config next.';
    const tokenized: string[] = [];
    const tokenizer: TokenCounter = {
      encoding: real.encoding,
      calibration: real.calibration,
      countText: (text) => {
        tokenized.push(text);
        return real.countText(text);
      },
      countCached: (owner, text) => real.countCached(owner, text),
      countMessage: (message) => real.countMessage(message),
      countSystem: (system) => real.countSystem(system),
      countTools: (tools) => real.countTools(tools),
    };
    const replayCache = new MemoryReplayCache();
    const model = scriptedModel({ model: target, steps: [{ reasoning: trace, text: 'Renamed fixture.' }] });
    const session = await new Agent({ model, context: { budget: 10_000, tokenizer }, reasoning: { replayCache } }).session();
    await session.send('Why is CI red?');
    expect(replayCache.stats()).toMatchObject({ stored: 1 });
    expect(replayCache.live()[0]?.tokens).toBe(real.countText(trace));
    expect(tokenized.filter((text) => text.includes(trace))).toEqual([]);
  });
});
