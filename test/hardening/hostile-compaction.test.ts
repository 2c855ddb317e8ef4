/**
 * A hostile compaction block, from the attacker's side: a short summary beside a 2 MB
 * field (a tampered transcript, or a proxy in front of the API). The block goes to the
 * provider whole, so the packer must count it whole: counted by its summary alone, a
 * 2 MB request passed for a few hundred tokens, the overflow retry kept the block and
 * every later send failed. Counted whole, it is evicted with its episode when the
 * budget needs the room, and refused with a typed error where it cannot go.
 */
import { randomBytes } from 'node:crypto';
import {
  Agent,
  type AssistantMessage,
  ContextOverflowError,
  createTokenCounter,
  type Message,
} from '@episodic/core';
import { packContext, type PackStats } from '@episodic/core/packing';
import { createAnthropicAdapter } from '@episodic/providers/anthropic';
import { afterEach, describe, expect, it } from 'vitest';
import { startAnthropicServer } from '../servers/anthropic-server.js';
import type { ScriptedServer } from '../servers/scripted-server.js';

const model = 'claude-sonnet-4-6';
const padding = randomBytes(1_500_000).toString('base64');
const hostile: AssistantMessage = {
  role: 'assistant',
  model: { provider: 'anthropic', id: model },
  content: [
    {
      type: 'compaction',
      text: 'The user asked about CI; it is green.',
      providerData: { provider: 'anthropic', model, block: { type: 'compaction', content: 'The user asked about CI; it is green.', padding } },
    },
    { type: 'text', text: 'CI is green.' },
  ],
};

/** One counter for the unit checks: the hostile message is counted once (it takes seconds). */
const counter = createTokenCounter();
let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('a compaction block with a 2 MB field beside a short summary', () => {
  it('is counted as what is sent, not as its summary', () => {
    // base64 counts at well under 4 characters a token: at least a quarter of its length.
    expect(counter.countMessage(hostile)).toBeGreaterThan(padding.length / 4);
  });

  it('in the current episode: refused before anything is sent, with a typed overflow', () => {
    const messages: Message[] = [{ role: 'user', content: 'Is CI green?' }, hostile];
    expect(() => packContext({ messages, budget: 100_000, tokenizer: counter })).toThrow(ContextOverflowError);
  });

  it('in an earlier episode: evicted with it, so the next request fits the budget and goes out without it', async () => {
    server = await startAnthropicServer();
    server.enqueue({ type: 'reply', text: 'Still green.' });
    const adapter = createAnthropicAdapter({ model, baseURL: server.url, apiKey: 'test-key', thinking: { type: 'disabled' } });
    const agent = new Agent({ model: adapter, context: { policy: 'native', budget: 100_000 } });
    const session = await agent.session({ history: [{ role: 'user', content: 'Is CI green?' }, hostile] });
    const packed: PackStats[] = [];
    const result = await session.send('And now?', {
      onEvent: (event) => (event.type === 'context-packed' ? packed.push(event.stats) : undefined),
    });
    expect(result.text).toBe('Still green.');
    const [call] = server.modelCalls();
    expect(call?.status).toBe(200);
    const sent = JSON.stringify(call?.body);
    expect(sent).not.toContain(padding.slice(0, 100));
    expect(sent.length).toBeLessThan(100_000);
    expect(packed[0]?.tokens.total).toBeLessThanOrEqual(100_000);
  });
});
