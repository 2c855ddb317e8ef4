import { describe, expect, it } from 'vitest';
import { splitEpisodes } from './episodes.js';
import type { Message } from './message.js';

const u = (content: string): Message => ({ role: 'user', content });
const a = (text: string): Message => ({ role: 'assistant', content: [{ type: 'text', text }] });
const t = (id: string): Message => ({ role: 'tool', toolCallId: id, toolName: 'x', content: 'r' });

describe('splitEpisodes', () => {
  it('starts an episode at each user message; tool messages never start one', () => {
    const messages = [u('1'), a('a'), t('c1'), a('b'), u('2'), t('c2'), a('c')];
    const episodes = splitEpisodes(messages);
    expect(episodes.map((episode) => [episode.start, episode.end, episode.preamble])).toEqual([
      [0, 4, false],
      [4, 7, false],
    ]);
    expect(episodes[1]?.messages).toEqual(messages.slice(4));
  });

  it('puts messages before the first user message in a preamble and skips system lines', () => {
    const messages: Message[] = [{ role: 'system', content: 's' }, a('hello'), u('1'), a('x')];
    const episodes = splitEpisodes(messages);
    expect(episodes).toHaveLength(2);
    expect(episodes[0]).toMatchObject({ index: 0, start: 1, end: 2, preamble: true });
    expect(episodes[1]).toMatchObject({ index: 1, start: 2, end: 4, preamble: false });
  });

  it('handles a transcript with no user message and an empty one', () => {
    expect(splitEpisodes([a('x'), t('c')])).toMatchObject([{ start: 0, end: 2, preamble: true }]);
    expect(splitEpisodes([])).toEqual([]);
  });

  it('covers every message exactly once', () => {
    const messages = [a('p'), u('1'), u('2'), a('x'), t('c'), u('3')];
    const episodes = splitEpisodes(messages);
    expect(episodes.flatMap((episode) => episode.messages)).toEqual(messages);
    expect(episodes.map((episode) => episode.messages.length)).toEqual([1, 1, 3, 1]);
  });
});
