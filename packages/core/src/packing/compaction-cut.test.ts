import { describe, expect, it } from 'vitest';
import type { Message } from '../message/message.js';
import { nativeOptionsFor } from '../model/native-context.js';
import { messagesAfterCompaction } from './compaction-cut.js';

const own = { provider: 'anthropic', id: 'claude-sonnet-4-6' };
const compaction = (model: string) => ({
  type: 'compaction' as const,
  text: 'summary',
  providerData: { provider: 'anthropic', model, block: { type: 'compaction', content: 'summary' } },
});
const transcript = (producer: string): Message[] => [
  { role: 'user', content: 'first question' },
  { role: 'assistant', content: [{ type: 'tool-call', id: 'a', name: 'read', args: {} }] },
  { role: 'tool', toolCallId: 'a', toolName: 'read', content: 'big log' },
  { role: 'user', content: 'second question' },
  { role: 'assistant', content: [{ type: 'tool-call', id: 'b', name: 'read', args: {} }] },
  { role: 'tool', toolCallId: 'b', toolName: 'read', content: 'another log' },
  { role: 'assistant', content: [compaction(producer), { type: 'tool-call', id: 'c', name: 'read', args: {} }] },
  { role: 'tool', toolCallId: 'c', toolName: 'read', content: 'after' },
];

describe('messagesAfterCompaction', () => {
  it('sends the opening question, then the compacting message on, for the model that compacted', () => {
    const messages = transcript(own.id);
    const cut = messagesAfterCompaction(messages, own);
    expect(cut.messages).toEqual([messages[3], messages[6], messages[7]]);
    expect(cut).toMatchObject({ compacted: 5, at: 6 });
  });

  it("another model's readable summary is a portable checkpoint: it goes as a user message in place of the history", () => {
    const messages = transcript('claude-opus-4-6');
    const cut = messagesAfterCompaction(messages, own);
    expect(cut.messages[0]).toMatchObject({ role: 'user', content: expect.stringContaining('summary') });
    expect(cut.messages.slice(1)).toEqual([messages[6], messages[7]]);
    expect(cut).toMatchObject({ compacted: 6, at: 6 });
    // As the call sees it: the foreign part's opaque data already stripped.
    const stripped = messages.map((message, index) =>
      index === 6 && message.role === 'assistant'
        ? { ...message, content: message.content.map((part) => (part.type === 'compaction' ? { type: part.type, text: part.text } : part)) }
        : message,
    ) as Message[];
    expect(messagesAfterCompaction(stripped, own).messages.slice(1)).toEqual([stripped[6], stripped[7]]);
  });

  it("leaves another model's opaque compaction (no summary text) alone, and a failed one, so the history goes", () => {
    const opaque = transcript('claude-opus-4-6').map((message) =>
      message.role === 'assistant'
        ? { ...message, content: message.content.map((part) => (part.type === 'compaction' ? { ...part, text: undefined } : part)) }
        : message,
    ) as Message[];
    // Nothing stands for it yet: the history goes, and the cut names it for the loop (checkpoint-call.ts).
    expect(messagesAfterCompaction(opaque, own)).toEqual({ messages: opaque, compacted: 0, uncovered: 6 });
    const failed = transcript(own.id).map((message) =>
      message.role === 'assistant'
        ? { ...message, content: message.content.map((part) => (part.type === 'compaction' ? { ...part, failed: true } : part)) }
        : message,
    ) as Message[];
    expect(messagesAfterCompaction(failed, own)).toEqual({ messages: failed, compacted: 0 });
  });
});

describe('nativeOptionsFor', () => {
  const options = { clearToolUses: { keep: 2 }, compaction: { minThreshold: 50_000 } };
  it('episodic sends nothing; hybrid only compaction; native all, with the threshold from the budget', () => {
    expect(nativeOptionsFor('packer', options, 100_000)).toBeUndefined();
    expect(nativeOptionsFor('hybrid', options, 100_000)).toEqual({ compaction: { threshold: 80_000 } });
    expect(nativeOptionsFor('native', options, 100_000)).toEqual({ clearToolUses: { keep: 2 }, compaction: { threshold: 80_000 } });
  });

  it("sends no compaction when the default threshold would be below the provider's floor", () => {
    expect(nativeOptionsFor('hybrid', options, 40_000)).toBeUndefined();
    expect(nativeOptionsFor('hybrid', { compaction: { threshold: 60_000, minThreshold: 50_000 } }, 40_000)).toEqual({
      compaction: { threshold: 60_000 },
    });
  });

  describe('checkpoint summaries of an opaque compaction (OpenAI)', () => {
    const openai = { provider: 'openai', id: 'gpt-5.6' };
    const item = { type: 'compaction', id: 'cmp_1', encrypted_content: 'gAAAA' };
    const opaque = (): Message[] =>
      transcript(own.id).map((message) =>
        message.role === 'assistant' && message.content[0]?.type === 'compaction'
          ? { ...message, content: [{ type: 'compaction', providerData: { provider: 'openai', model: 'gpt-5.6', item } }, ...message.content.slice(1)] }
          : message,
      ) as Message[];
    const line = (checkpoint: { message: number; id?: string }): Message => ({
      role: 'summary',
      content: 'The user asked about two logs; both were read.',
      episodes: { from: 0, to: 2 },
      checkpoint,
    });

    it('another model gets the checkpoint text in place of the history; the model that made the item gets the item', () => {
      const messages = [...opaque(), line({ message: 6, id: 'cmp_1' })];
      const cut = messagesAfterCompaction(messages, own);
      expect(cut.messages[0]).toMatchObject({ role: 'user', content: expect.stringContaining('both were read'), summary: true });
      expect(cut.messages.slice(1)).toEqual(messages.slice(6));
      expect(cut).toMatchObject({ compacted: 6, at: 6 });
      expect(cut.uncovered).toBeUndefined();
      // The producer reads its own item: the text is not sent to it.
      const mine = messagesAfterCompaction(messages, openai);
      expect(mine.messages).toEqual([messages[3], ...messages.slice(6)]);
    });

    it('a line naming another item, or a message without a compaction, stands for nothing', () => {
      expect(messagesAfterCompaction([...opaque(), line({ message: 6, id: 'cmp_other' })], own).uncovered).toBe(6);
      expect(messagesAfterCompaction([...opaque(), line({ message: 4 })], own).uncovered).toBe(6);
      // A line before the compaction it names was not written for it.
      const early = opaque();
      early.splice(5, 0, line({ message: 7 }));
      expect(messagesAfterCompaction(early, own).uncovered).toBe(7);
      // The stripped view (its id gone) still finds its line by the message.
      const stripped = opaque().map((message, index) =>
        index === 6 && message.role === 'assistant'
          ? { ...message, content: message.content.map((part) => (part.type === 'compaction' ? { ...part, providerData: { provider: 'openai', model: 'gpt-5.6' } } : part)) }
          : message,
      ) as Message[];
      expect(messagesAfterCompaction([...stripped, line({ message: 6, id: 'cmp_1' })], own).at).toBe(6);
    });
  });
});
