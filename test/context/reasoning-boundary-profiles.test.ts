/**
 * The rule the boundary pricing must keep on every built-in profile: no stale reasoning
 * reaches the model. What the model reads is what the packer sends, less what the
 * provider strips itself (profile `pastReasoning: 'stripped'`: reasoning from before
 * the last user message). Every reasoning part the model reads must be one the packer
 * sends without any boundary pricing (the retention rule alone).
 */
import { createTokenCounter, type Message } from '@episodic/core';
import { packContext, packingForProfile, type PackResult } from '@episodic/core/packing';
import { describe, expect, it } from 'vitest';
import { builtinProfiles } from '../../packages/providers/src/profiles/index.js';
import { episode, step, user, words } from '../support/transcripts.js';

const session = (): Message[] => [
  ...episode('first question', 3, 80, 1),
  ...episode('second question', 3, 80, 2),
  ...episode('third question', 2, 80, 3),
  user('fourth question'),
  ...step('current thought', [{ name: 'grep', result: words(40, 9) }]),
];

function reasoningOf(messages: readonly Message[], from = 0, to = messages.length): string[] {
  return messages
    .slice(from, to)
    .flatMap((message) => (message.role === 'assistant' ? message.content : []))
    .flatMap((part) => (part.type === 'reasoning' ? [part.text] : []));
}

/** Packs before every assistant message and at the end, carrying the state. */
function replay(messages: readonly Message[], options: Record<string, unknown>): PackResult[] {
  const tokenizer = createTokenCounter();
  let state: PackResult['state'] | undefined;
  const ends = messages.flatMap((message, index) => (message.role === 'assistant' ? [index] : [])).concat(messages.length);
  return ends.map((end) => {
    const packed = packContext({ ...options, messages: messages.slice(0, end), budget: 100_000, tokenizer, state });
    state = packed.state;
    return packed;
  });
}

describe('no stale reasoning reaches the model, on every profile', () => {
  const messages = session();
  for (const profile of builtinProfiles) {
    it(`${profile.provider} ${profile.pattern}`, () => {
      const retention = profile.retention;
      const priced = replay(messages, { retention, ...packingForProfile(profile) });
      const plain = replay(messages, { retention });
      let hidden = 0;
      priced.forEach((pack, call) => {
        const allowed = new Set(reasoningOf((plain[call] as PackResult).messages));
        const lastUser = pack.messages.findLastIndex((message) => message.role === 'user');
        const strips = profile.pastReasoning === 'stripped';
        // What the model reads: the provider strips reasoning from before the last user message itself.
        const read = strips
          ? [...reasoningOf(pack.messages, lastUser)]
          : reasoningOf(pack.messages);
        for (const text of read) expect(allowed.has(text), `call ${call} shows stale reasoning: ${text.slice(0, 40)}`).toBe(true);
        if (!strips) expect(pack.stats.hiddenReasoningParts).toBe(0);
        hidden += pack.stats.hiddenReasoningParts;
      });
      // Where the provider strips and caches, the bytes were kept (the prefix survived the boundaries).
      if (profile.pastReasoning === 'stripped' && profile.cacheStyle !== 'none' && retention === 'episode') {
        expect(hidden).toBeGreaterThan(0);
      }
    });
  }
});
