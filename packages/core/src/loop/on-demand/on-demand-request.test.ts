import { describe, expect, it } from 'vitest';
import type { AssistantMessage, Message } from '../../message/message.js';
import { chooseCut } from './on-demand-request.js';

const model = { provider: 'anthropic', id: 'claude-opus-5' };
const answer = (text: string): AssistantMessage => ({ role: 'assistant', content: [{ type: 'text', text }] });
const episodes = (count: number): Message[] =>
  Array.from({ length: count }, (_, index) => [{ role: 'user', content: `u${index + 1}` } as Message, answer(`a${index + 1}`)]).flat();

describe('chooseCut', () => {
  it('keeps the last episodes and summarizes the ones before, once there is one to summarize', () => {
    expect(chooseCut(episodes(2), 2, model)).toBeUndefined();
    expect(chooseCut(episodes(3), 2, model)).toBe(2);
    expect(chooseCut(episodes(5), 2, model)).toBe(6);
    expect(chooseCut(episodes(3), 0, model)).toBe(6);
  });

  it('cuts only after a finished answer: where the boundary follows a tool result, more is kept', () => {
    const messages: Message[] = [
      ...episodes(2),
      { role: 'user', content: 'u3' },
      { role: 'assistant', content: [{ type: 'tool-call', id: 't', name: 'read', args: {} }] },
      { role: 'tool', toolCallId: 't', toolName: 'read', content: 'interrupted' },
      { role: 'user', content: 'u4' },
      answer('a4'),
      { role: 'user', content: 'u5' },
      answer('a5'),
    ];
    // Keeping two episodes would cut at u4, after a tool result: the cut moves to u3.
    expect(chooseCut(messages, 2, model)).toBe(4);
  });

  it('summarizes more than the latest compaction did, or nothing', () => {
    const block: AssistantMessage = {
      role: 'assistant',
      content: [{ type: 'compaction', text: 's', summarizedMessages: 4, providerData: { provider: 'anthropic', model: model.id } }],
    };
    const messages = [...episodes(3), block];
    expect(chooseCut(messages, 2, model)).toBeUndefined();
    const later = [...messages, { role: 'user', content: 'u4' } as Message, answer('a4'), { role: 'user', content: 'u5' } as Message, answer('a5')];
    // u4 starts the first kept episode; the block stored before it is not sent there, so a3 is the message before the cut.
    expect(chooseCut(later, 2, model)).toBe(7);
  });
});
