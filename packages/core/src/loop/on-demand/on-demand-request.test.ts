import { describe, expect, it } from 'vitest';
import type { AssistantMessage, Message } from '../../message/message.js';
import type { ModelAdapter } from '../../model/model-adapter.js';
import { packContext } from '../../packing/pack-context.js';
import { createTokenCounter } from '../../tokens/token-counter.js';
import type { ModelCallSettings } from '../model-call.js';
import { chooseCut, compactionRequest } from './on-demand-request.js';

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

describe('compactionRequest', () => {
  const claude = { provider: 'anthropic', id: 'claude-sonnet-4-6' };
  const step = (episode: number): AssistantMessage => ({
    role: 'assistant',
    content: [{ type: 'reasoning', text: `thinking about ${episode}` }, { type: 'text', text: `a${episode}` }],
    model: claude,
  });
  const transcript: Message[] = [1, 2, 3, 4].flatMap((episode) => [{ role: 'user', content: `u${episode}` } as Message, step(episode)]);
  const settings: ModelCallSettings = {
    model: { model: claude } as ModelAdapter,
    system: 'You help.',
    toolSpecs: [],
    budget: 100_000,
    retention: 'episode',
    tokenizer: createTokenCounter(),
    pack: undefined,
    maxOutputTokens: undefined,
    providerOptions: undefined,
    retry: undefined,
  };

  it('sends the summarized messages as the conversation last sent them: past episodes without the thinking it dropped', () => {
    const cut = chooseCut(transcript, 2, claude) as number;
    expect(cut).toBe(4);
    const request = compactionRequest(settings, transcript, cut, 8192);
    // The last call of the conversation (episode 4 current) sent episodes 1 and 2 without their thinking.
    const conversation = packContext({ messages: transcript, system: settings.system, budget: settings.budget, retention: 'episode', tokenizer: settings.tokenizer });
    expect(request.messages).toEqual(conversation.messages.slice(0, cut));
    expect(request.messages.flatMap((message) => (message.role === 'assistant' ? message.content : [])).some((part) => part.type === 'reasoning')).toBe(false);
    // The last breakpoint sits at the end of what is sent, as on every request.
    expect(request.cacheBreakpoints?.messages.at(-1)).toBe(request.messages.length - 1);
    expect(Math.max(...(request.cacheBreakpoints?.messages ?? []))).toBeLessThan(request.messages.length);
  });

  it('keeps the last episode\'s thinking when nothing is kept: the conversation\'s last call sent it too', () => {
    const request = compactionRequest(settings, transcript, transcript.length, 8192);
    const last = request.messages.at(-1) as AssistantMessage;
    expect(last.content.some((part) => part.type === 'reasoning')).toBe(true);
  });
});
