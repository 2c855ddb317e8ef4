import { describe, expect, it } from 'vitest';
import { currentEpisodeStart, splitEpisodes } from './episodes.js';
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

  it('does not start an episode at injected context, nor at later system or developer lines (v1.1)', () => {
    const notice: Message = { role: 'user', content: '<task-notification>build done</task-notification>', injected: true };
    const developer: Message = { role: 'developer', content: 'be brief' };
    const late: Message = { role: 'system', content: 'model switched' };
    const messages = [u('1'), a('a'), notice, a('b'), developer, late, a('c'), u('2'), a('d')];
    const episodes = splitEpisodes(messages);
    expect(episodes.map((episode) => [episode.start, episode.end, episode.preamble])).toEqual([
      [0, 7, false],
      [7, 9, false],
    ]);
    expect(currentEpisodeStart(messages)).toBe(7);
    expect(currentEpisodeStart(messages.slice(0, 7))).toBe(0);
  });

  it('puts injected context before the first typed message in the preamble', () => {
    const environment: Message = { role: 'user', content: '<environment_context/>', injected: true };
    const episodes = splitEpisodes([environment, u('1'), a('x')]);
    expect(episodes.map((episode) => [episode.start, episode.end, episode.preamble])).toEqual([
      [0, 1, true],
      [1, 3, false],
    ]);
  });
});
