import { describe, expect, it } from 'vitest';
import { SessionConflictError } from '../errors/session-errors.js';
import type { AssistantMessage, Message } from '../message/message.js';
import type { PackState } from '../packing/pack-types.js';
import { MemorySessionStore } from '../store/memory-session-store.js';
import { createApproximateCounter, type TokenCounter } from '../tokens/token-counter.js';
import { type Transcript, TranscriptWriter } from './transcript-writer.js';

/** A counter that logs every message it counts into `log`. */
function loggingCounter(log: string[]): TokenCounter {
  const counter = createApproximateCounter();
  const countMessage = counter.countMessage.bind(counter);
  counter.countMessage = (message) => {
    log.push(`count ${message.role}`);
    return countMessage(message);
  };
  return counter;
}

/** A memory store that logs its appends into `log`, and refuses them while `refuse` is set. */
class LoggingStore extends MemorySessionStore {
  refuse = false;
  constructor(private readonly log: string[]) {
    super();
  }

  override async append(...args: Parameters<MemorySessionStore['append']>): Promise<void> {
    this.log.push(`append ${args[1].map((message) => message.role).join(',')}`);
    if (this.refuse) throw new Error('disk full');
    return super.append(...args);
  }
}

const call = (id: string): AssistantMessage => ({
  role: 'assistant',
  content: [{ type: 'tool-call', id, name: 'read', args: {} }],
});

async function writerFor(log: string[] = []) {
  const store = new LoggingStore(log);
  const lease = await store.acquire('s');
  const transcript: Transcript = { messages: [], packState: undefined };
  const counting = { budget: 10_000, tokenizer: loggingCounter(log) };
  return { store, lease, transcript, writer: new TranscriptWriter({ store, id: 's', lease }, transcript, counting) };
}

describe('TranscriptWriter', () => {
  it('counts, then persists, then takes into memory; a failed write leaves memory as stored', async () => {
    const log: string[] = [];
    const { store, transcript, writer } = await writerFor(log);
    await writer.append([{ role: 'user', content: 'hi' }, call('c1')]);
    expect(log.at(-1)).toBe('append user,assistant');
    expect(new Set(log.slice(0, -1))).toEqual(new Set(['count user', 'count assistant']));
    expect(transcript.messages.map((message) => message.role)).toEqual(['user', 'assistant']);
    store.refuse = true;
    await expect(writer.append([{ role: 'tool', toolCallId: 'c1', toolName: 'read', content: 'x' }])).rejects.toThrow(
      'disk full',
    );
    expect(log.at(-2)).toBe('count tool');
    expect(writer.messages).toHaveLength(2);
    expect((await store.load('s'))?.messages).toEqual(writer.messages);
  });

  it('appends with the length it holds, so a store another writer changed refuses it', async () => {
    const { store, lease, writer } = await writerFor();
    await writer.append([{ role: 'user', content: 'one' }]);
    // Another writer with the same lease (a stale copy of this session) appended behind its back.
    await store.append('s', [{ role: 'user', content: 'two' }], { lease, expectedLength: 1 });
    await expect(writer.append([{ role: 'user', content: 'three' }])).rejects.toBeInstanceOf(SessionConflictError);
    expect(writer.messages.map((message) => message.content)).toEqual(['one']);
  });

  it('commits the pack state to memory and to the store under its lease', async () => {
    const { store, transcript, writer } = await writerFor();
    const state: PackState = { version: 1, evictedEpisodes: 0 };
    await writer.commit(state);
    expect(transcript.packState).toBe(state);
    expect(writer.packState).toBe(state);
    expect((await store.load('s'))?.packState).toEqual(state);
  });

  it('takes stored messages into memory without writing them again', async () => {
    const log: string[] = [];
    const { writer } = await writerFor(log);
    writer.take([{ role: 'user', content: 'replayed' }]);
    expect(log).toEqual(['count user']);
    expect(writer.messages).toHaveLength(1);
  });

  it("knows the transcript's tool-call ids as it grows, and after a rewind", async () => {
    const { writer } = await writerFor();
    await writer.append([{ role: 'user', content: 'go' }, call('a')]);
    expect([...writer.toolCallIds()]).toEqual(['a']);
    await writer.append([{ role: 'tool', toolCallId: 'a', toolName: 'read', content: '1' }, call('b')]);
    expect([...writer.toolCallIds()].sort()).toEqual(['a', 'b']);
    // A durable replay rewinds the transcript to its episode's start.
    writer.messages.splice(1);
    expect([...writer.toolCallIds()]).toEqual([]);
    writer.take([call('a')] as Message[]);
    expect([...writer.toolCallIds()]).toEqual(['a']);
  });
});
