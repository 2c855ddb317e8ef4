/**
 * OpenRouter ends a stream that hit the output limit with an error chunk after
 * `finish_reason: "length"` ("Token limit reached", code 400, as recorded). The
 * adapter treats it as the max-tokens finish it is: partial output kept, a warning.
 */
import type { ModelStreamEvent } from '@episodic/core';
import { afterEach, describe, expect, it } from 'vitest';
import { createOpenAICompatibleAdapter } from '../../packages/providers/src/openai-compatible/openai-compatible-adapter.js';
import { startOpenAIChatServer } from '../servers/openai-chat-server.js';
import type { OpenAIScriptedServer } from '../servers/openai-responses-server.js';

let server: OpenAIScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('openrouter error chunk after finish_reason length', () => {
  it('finishes as max-tokens with the partial output and a warning, not as a request error', async () => {
    server = await startOpenAIChatServer('openrouter');
    server.enqueue({ type: 'incomplete', reason: 'max_output_tokens', text: 'The log says' });
    const adapter = createOpenAICompatibleAdapter({
      provider: 'openrouter',
      model: 'minimax/minimax-m2:free',
      baseURL: server.url,
      apiKey: 'test-key',
    });
    const events: ModelStreamEvent[] = [];
    for await (const event of adapter.stream({ messages: [{ role: 'user', content: 'CI is red' }] })) events.push(event);
    const warning = events.find((event) => event.type === 'warning');
    expect(warning).toMatchObject({ code: 'error-after-max-tokens' });
    expect(warning?.type === 'warning' && warning.message).toContain('Token limit reached');
    const finish = events.at(-1);
    expect(finish).toMatchObject({ type: 'finish', stopReason: 'max-tokens' });
    expect(finish?.type === 'finish' && finish.message.content).toEqual([{ type: 'text', text: 'The log says' }]);
  });
});
