import { describe, expect, it } from 'vitest';
import type { AssistantMessage, Message } from '../message/message.js';
import { messagesAfterCompaction } from './compaction-cut.js';

const own = { provider: 'anthropic', id: 'claude-opus-5' };
const other = { provider: 'openai', id: 'gpt-5.6' };
const onDemand = (covered: number, extra: Record<string, unknown> = {}): AssistantMessage => ({
  role: 'assistant',
  content: [
    {
      type: 'compaction',
      text: 'the summary',
      summarizedMessages: covered,
      providerData: { provider: 'anthropic', model: own.id, block: { type: 'compaction', content: 'the summary', signature: 's' } },
      ...extra,
    },
  ],
});
const answer = (text: string): AssistantMessage => ({ role: 'assistant', content: [{ type: 'text', text }] });
const base: Message[] = [
  { role: 'system', content: 'Be brief.' },
  { role: 'user', content: 'u1' },
  answer('a1'),
  { role: 'user', content: 'u2' },
  answer('a2'),
];

describe('an on-demand compaction in the transcript', () => {
  it('goes first for its model, in place of the messages it names; later turns follow word for word, the system prompt stays', () => {
    const block = onDemand(3);
    const messages = [...base, block, { role: 'user', content: 'u3' } as Message];
    const { messages: sent } = messagesAfterCompaction(messages, own);
    expect(sent).toEqual([base[0], block, base[3], base[4], messages[6]]);
  });

  it('reaches another model as its readable summary, in the same place', () => {
    const messages = [...base, onDemand(3), { role: 'user', content: 'u3' } as Message];
    const { messages: sent } = messagesAfterCompaction(messages, other);
    expect(sent.slice(2)).toEqual([base[3], base[4], messages[6]]);
    expect(JSON.stringify(sent[1])).toContain('the summary');
  });

  it('is never sent when it failed, and the history goes whole; only the newest usable one goes', () => {
    const failed = onDemand(3, { failed: true, text: undefined });
    expect(messagesAfterCompaction([...base, failed], own).messages).toEqual(base);
    const older = onDemand(3);
    const newer = onDemand(5);
    const messages = [...base, older, { role: 'user', content: 'u3' } as Message, answer('a3'), newer];
    expect(messagesAfterCompaction(messages, own).messages).toEqual([base[0], newer, messages[6], messages[7]]);
  });

  it('gives way to a later server-side compaction of the same model', () => {
    const threshold: AssistantMessage = {
      role: 'assistant',
      content: [{ type: 'compaction', text: 'later', providerData: { provider: 'anthropic', model: own.id, block: { type: 'compaction', content: 'later' } } }],
    };
    const messages = [...base, onDemand(3), { role: 'user', content: 'u3' } as Message, threshold];
    const { messages: sent } = messagesAfterCompaction(messages, own);
    expect(sent).toEqual([messages[6], threshold]);
  });
});
