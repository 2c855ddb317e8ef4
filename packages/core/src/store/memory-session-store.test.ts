import { describe, expect, it } from 'vitest';
import type { AssistantMessage, Message, ToolMessage } from '../message/message.js';
import type { PackState } from '../packing/pack-types.js';
import type { ApprovalRecord } from './approval-record.js';
import { MemorySessionStore } from './memory-session-store.js';
import type { ReasoningSidecar } from './reasoning-sidecar.js';

const call = (): AssistantMessage => ({
  role: 'assistant',
  content: [{ type: 'tool-call', id: 'call_1', name: 'read_log', args: { run: 7, filters: ['error', { level: 2 }] } }],
  usage: { inputTokens: 10, outputTokens: 2 },
});
const result = (): ToolMessage => ({ role: 'tool', toolCallId: 'call_1', toolName: 'read_log', content: 'FAIL a' });
const state = (): PackState => ({ version: 1, evictedEpisodes: 0, previous: { prefixKey: 'p', messageKeys: ['a', 'b'] } });

describe('MemorySessionStore copies', () => {
  it('is not reached by edits, at any depth, to what it was given', async () => {
    const store = new MemorySessionStore();
    const [assistant, tool, packState] = [call(), result(), state()];
    const sidecar: ReasoningSidecar = {
      version: 1,
      episodeStart: 0,
      entries: [{ index: 1, fingerprint: 'f', parts: [{ position: 0, part: { type: 'reasoning', text: 'think' } }] }],
    };
    const approvals: ApprovalRecord = {
      version: 1,
      revision: 1,
      decisions: [{ callId: 'call_1', sessionId: 's', decision: 'approved', decidedAt: '2026-01-01T00:00:00.000Z' }],
    };
    await store.append('s', [assistant, tool]);
    await store.saveState('s', packState);
    await store.saveReasoningSidecar('s', sidecar);
    await store.saveApprovals('s', approvals, { expectedRevision: 0 });

    const args = (assistant.content[0] as { args: { run: number; filters: unknown[] } }).args;
    args.run = 8;
    (args.filters[1] as { level: number }).level = 9;
    args.filters.push('more');
    assistant.usage!.inputTokens = 0;
    tool.content = 'edited';
    packState.previous!.messageKeys.push('c');
    sidecar.entries[0]!.parts[0]!.part.text = 'edited';
    approvals.decisions[0]!.decision = 'rejected';

    const loaded = await store.load('s');
    expect(loaded?.messages).toEqual([call(), result()]);
    expect(loaded?.packState).toEqual(state());
    expect(loaded?.reasoningSidecar?.entries[0]?.parts[0]?.part.text).toBe('think');
    expect(loaded?.approvals?.decisions[0]?.decision).toBe('approved');
  });

  it('is not reached by edits, at any depth, to what it returned', async () => {
    const store = new MemorySessionStore();
    await store.append('s', [call(), result()]);
    await store.saveState('s', state());
    const loaded = (await store.load('s'))!;
    const assistant = loaded.messages[0] as AssistantMessage;
    (assistant.content[0] as { args: { filters: unknown[] } }).args.filters.length = 0;
    assistant.content.push({ type: 'text', text: 'added' });
    loaded.messages.push({ role: 'user', content: 'added' });
    loaded.packState!.previous!.messageKeys[0] = 'z';
    const again = (await store.load('s'))!;
    expect(again.messages).toEqual([call(), result()]);
    expect(again.packState).toEqual(state());
    expect(again.messages[0]).not.toBe(loaded.messages[0]);
  });

  it('keeps an own "__proto__" field as data, and copies what is not plain JSON as structuredClone does', async () => {
    const store = new MemorySessionStore();
    const message = JSON.parse('{"role":"user","content":"hi","__proto__":{"polluted":true}}') as Message;
    const when = new Date(0);
    await store.append('s', [message, { role: 'user', content: 'x', at: when } as Message]);
    const [first, second] = (await store.load('s'))!.messages as (Message & Record<string, unknown>)[];
    expect(Object.getPrototypeOf(first)).toBe(Object.prototype);
    expect(first!.polluted).toBeUndefined();
    expect(Object.keys(first!)).toEqual(['role', 'content', '__proto__']);
    expect(second!.at).toEqual(when);
    expect(second!.at).not.toBe(when);
    const withFunction = { role: 'user', content: 'x', callback: () => 1 } as unknown as Message;
    await expect(store.append('t', [withFunction])).rejects.toThrow(/could not be cloned/);
  });

  it('copies a message nested past any transcript limit, and one that refers to itself', async () => {
    const store = new MemorySessionStore();
    let deep: unknown = 'bottom';
    for (let level = 0; level < 1_000; level += 1) deep = [deep];
    const cyclic: Record<string, unknown> = { role: 'user', content: 'loop' };
    cyclic.self = cyclic;
    await store.append('s', [{ role: 'user', content: 'deep', deep } as Message, cyclic as unknown as Message]);
    const [first, second] = (await store.load('s'))!.messages as unknown as Record<string, unknown>[];
    expect(first!.deep).toEqual(deep);
    expect(first!.deep).not.toBe(deep);
    expect(second!.self).toBe(second);
  });
});
