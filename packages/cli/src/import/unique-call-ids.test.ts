import type { Message } from '@episodic/core';
import { checkConsistency } from '@episodic/core/transcript';
import { describe, expect, it } from 'vitest';
import { withUniqueCallIds } from './unique-call-ids.js';

const call = (id: string): Message => ({
  role: 'assistant',
  content: [{ type: 'tool-call', id, name: 'read', args: { path: 'a' } }],
});
const result = (id: string, content: string): Message => ({ role: 'tool', toolCallId: id, toolName: 'read', content });

describe('withUniqueCallIds', () => {
  it('renames a call id a provider reused per response, on the call and on the result that answers it', () => {
    // Kimi numbers calls per response: two responses both call `functions.read:0`.
    const messages: Message[] = [
      { role: 'user', content: 'read twice' },
      call('functions.read:0'),
      result('functions.read:0', 'first'),
      call('functions.read:0'),
      result('functions.read:0', 'second'),
      call('functions.read:0'),
      result('functions.read:0', 'third'),
    ];
    expect(() => checkConsistency(messages)).toThrow(/already used/);
    const unique = withUniqueCallIds(messages);
    expect(unique.renamed).toBe(2);
    expect(() => checkConsistency(unique.messages)).not.toThrow();
    const pairs = unique.messages.flatMap((message) =>
      message.role === 'tool' ? [[message.toolCallId, message.content]] : [],
    );
    expect(pairs).toEqual([
      ['functions.read:0', 'first'],
      ['functions.read:0-2', 'second'],
      ['functions.read:0-3', 'third'],
    ]);
  });

  it('returns the same messages when every id is unique', () => {
    const messages: Message[] = [call('a'), result('a', 'x'), call('b'), result('b', 'y')];
    const unique = withUniqueCallIds(messages);
    expect(unique.renamed).toBe(0);
    unique.messages.forEach((message, index) => expect(message).toBe(messages[index]));
  });
});
