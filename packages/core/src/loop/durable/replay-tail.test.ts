/** The replay tail: stored messages are matched in order, summary lines pass through, anything else is a mismatch. */
import { describe, expect, it } from 'vitest';
import type { Message } from '../../message/message.js';
import { ReplayTail } from './replay-tail.js';

const user = (text: string): Message => ({ role: 'user', content: text });
const answer = (text: string): Message => ({ role: 'assistant', content: [{ type: 'text', text }] });
const summary = { role: 'summary', content: 'earlier' } as unknown as Message;

describe('ReplayTail', () => {
  it('rewinds to the episode, matches what is stored, and writes only the rest', () => {
    const messages = [user('a'), answer('1'), user('b'), answer('2')];
    const tail = ReplayTail.rewind(messages, 1, { role: 'user', content: 'b' });
    expect(messages).toEqual([user('a'), answer('1')]);
    expect(tail.match([user('b')])).toEqual({ stored: [user('b')], fresh: [] });
    expect(tail.match([answer('2'), answer('3')])).toEqual({ stored: [answer('2')], fresh: [answer('3')] });
  });

  it('keeps stored summary lines in place and leaves out new ones the store cannot take there', () => {
    const messages = [user('a'), summary, answer('1')];
    const tail = ReplayTail.rewind(messages, 0, { role: 'user', content: 'a' });
    expect(tail.match([user('a'), summary, answer('1')]).fresh).toEqual([]);
    const again = ReplayTail.rewind([user('a'), answer('1')], 0, { role: 'user', content: 'a' });
    expect(again.match([user('a'), summary, answer('1')])).toEqual({ stored: [user('a'), answer('1')], fresh: [] });
  });

  it('refuses another input for a stored episode, an episode out of order, and a replay that differs', () => {
    expect(() => ReplayTail.rewind([user('a')], 0, { role: 'user', content: 'x' })).toThrow(/another input/);
    expect(() => ReplayTail.rewind([user('a')], 2, { role: 'user', content: 'c' })).toThrow(/next is episode 1/);
    const tail = ReplayTail.rewind([user('a'), answer('1')], 0, { role: 'user', content: 'a' });
    expect(() => tail.match([user('a'), answer('other')])).toThrow(/not deterministic/);
    const short = ReplayTail.rewind([user('a'), answer('1')], 0, { role: 'user', content: 'a' });
    short.match([user('a')]);
    expect(() => short.finish([])).toThrow(/ended early/);
  });
});
