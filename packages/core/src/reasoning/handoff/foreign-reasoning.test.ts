import { describe, expect, it } from 'vitest';
import type { AssistantMessage, Message, ModelRef } from '../../message/message.js';
import { stripForeignReasoning, withoutForeignReasoning } from './foreign-reasoning.js';

const target: ModelRef = { provider: 'openai', id: 'gpt-b' };
const other = { provider: 'anthropic', model: 'claude-a' };

const foreign: AssistantMessage = {
  role: 'assistant',
  model: { provider: 'anthropic', id: 'claude-a' },
  content: [
    { type: 'reasoning', text: 'claude thinks', signature: 'sig', providerData: other },
    { type: 'text', text: 'Looking.', providerData: { ...other, id: 'msg_1' } },
    { type: 'tool-call', id: 'c1', name: 'read', args: {}, providerData: { ...other, id: 'fc_1' } },
  ],
};
const own: AssistantMessage = {
  role: 'assistant',
  model: target,
  content: [
    { type: 'reasoning', text: 'mine', providerData: { provider: 'openai', model: 'gpt-b', encrypted_content: 'e' } },
    { type: 'text', text: 'ok' },
  ],
};
const untagged: AssistantMessage = { role: 'assistant', content: [{ type: 'reasoning', text: 'from the app' }] };

describe('withoutForeignReasoning', () => {
  it('removes another model`s reasoning and opaque data, keeping text and calls', () => {
    const messages: Message[] = [{ role: 'user', content: 'hi' }, foreign, own, untagged];
    const cleaned = withoutForeignReasoning(messages, target);
    expect(cleaned).toHaveLength(4);
    expect(cleaned[1]).toEqual({
      role: 'assistant',
      model: foreign.model,
      content: [
        { type: 'text', text: 'Looking.' },
        { type: 'tool-call', id: 'c1', name: 'read', args: {} },
      ],
    });
    expect(cleaned[2]).toBe(own);
    expect(cleaned[3]).toBe(untagged);
    expect(JSON.stringify(cleaned)).not.toMatch(/sig|fc_1|msg_1|claude thinks/);
  });

  it('returns the same array when nothing is foreign, and the same cleaned object on every call', () => {
    const mine: Message[] = [{ role: 'user', content: 'hi' }, own];
    expect(withoutForeignReasoning(mine, target)).toBe(mine);
    const messages: Message[] = [foreign];
    expect(withoutForeignReasoning(messages, target)[0]).toBe(withoutForeignReasoning([foreign], target)[0]);
    // For the model that produced it, nothing is foreign.
    expect(withoutForeignReasoning(messages, { provider: 'anthropic', id: 'claude-a' })).toBe(messages);
  });
});

describe('withoutForeignReasoning and opaque parts', () => {
  it('keeps another model`s provider-tool parts with their producer`s tag only: nothing opaque goes on, and adapters leave them out', () => {
    const searched: AssistantMessage = {
      role: 'assistant',
      model: { provider: 'anthropic', id: 'claude-a' },
      content: [
        { type: 'provider-tool', name: 'web_search', kind: 'call', id: 'srv_1', providerData: { ...other, block: { type: 'server_tool_use' } } },
        { type: 'text', text: 'Found it.' },
      ],
    };
    const cleaned = withoutForeignReasoning([{ role: 'user', content: 'search' }, searched], target);
    expect(cleaned[1]).toEqual({
      role: 'assistant',
      model: searched.model,
      content: [
        { type: 'provider-tool', name: 'web_search', kind: 'call', id: 'srv_1', providerData: { provider: 'anthropic', model: 'claude-a' } },
        { type: 'text', text: 'Found it.' },
      ],
    });
  });
});

describe('stripForeignReasoning', () => {
  it('warns about the other model`s reasoning of the current episode, also after an injected user message', () => {
    const plain: Message[] = [{ role: 'user', content: 'hi' }, foreign, { role: 'tool', toolCallId: 'c1', toolName: 'read', content: 'x' }];
    expect(stripForeignReasoning(plain, target).warning?.code).toBe('foreign-reasoning-dropped');
    // Injected context (structured-output feedback, a notice) does not start an episode.
    const injected: Message[] = [...plain, { role: 'user', content: 'Your answer did not match the schema.', injected: true }];
    expect(stripForeignReasoning(injected, target).warning?.message).toMatch(/^1 reasoning part\(s\) of another model/);
    // A message a person typed does: the reasoning is from a past episode, no warning.
    const typed: Message[] = [...plain, { role: 'user', content: 'next question' }];
    expect(stripForeignReasoning(typed, target).warning).toBeUndefined();
  });
});
