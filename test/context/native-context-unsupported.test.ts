/** An adapter whose API has no native context management says so, sends nothing of it, and the call goes on. */
import { createOpenAIChatAdapter } from '@episodic/providers/openai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startOpenAIChatServer } from '../servers/openai-chat-server.js';
import type { ScriptedServer } from '../servers/scripted-server.js';

describe('native context options on an API without them', () => {
  let server: ScriptedServer;
  beforeEach(async () => {
    server = await startOpenAIChatServer('openai');
  });
  afterEach(() => server.close());

  it('warns with a code, sends no field for it, and answers', async () => {
    const adapter = createOpenAIChatAdapter({ model: 'gpt-4.1', baseURL: server.url, apiKey: 'test-key' });
    const codes: (string | undefined)[] = [];
    let text = '';
    const request = { messages: [{ role: 'user' as const, content: 'hi' }], nativeContext: { compaction: { threshold: 100_000 } } };
    for await (const event of adapter.stream(request)) {
      if (event.type === 'warning') codes.push(event.code);
      if (event.type === 'finish') text = event.message.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
    }
    expect(text).toBe('ok');
    expect(codes).toEqual(['native-context-unsupported']);
    expect(JSON.stringify(server.modelCalls()[0]?.body)).not.toContain('compact');
  });
});
