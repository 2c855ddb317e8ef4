/**
 * Gemini thought signatures ride on function-call and text parts, not on
 * reasoning parts; they must still leave with their episode. The strict loopback
 * server refuses any signature before the current turn, and two episodes run
 * through the real agent loop.
 */
import { Agent, MemorySessionStore } from '@episodic/core';
import { createGoogleAdapter } from '@episodic/providers/google';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startGeminiServer } from '../servers/gemini-server.js';
import type { ScriptedServer } from '../servers/scripted-server.js';
import { testAgentTools } from './conformance-tools.js';

describe('gemini signatures follow reasoning retention', () => {
  let server: ScriptedServer;
  beforeEach(async () => {
    server = await startGeminiServer({ rejectPastSignatures: true });
  });
  afterEach(() => server.close());

  it("sends no past episode's signature, on calls or on text, and keeps the current episode's", async () => {
    const adapter = createGoogleAdapter({ model: 'gemini-3-pro-preview', baseURL: server.url, apiKey: 'test-key' });
    const agent = new Agent({ model: adapter, tools: testAgentTools, store: new MemorySessionStore() });
    const session = await agent.session({ id: 'signatures' });
    const episode = () =>
      server.enqueue(
        { type: 'reply', reasoning: ['look at the log'], toolCalls: [{ name: 'get_ci_log', args: { run: 1 } }] },
        { type: 'reply', reasoning: ['answer'], text: 'the test expects 2' },
      );
    episode();
    await session.send('CI is red');
    episode();
    await session.send('and now?');
    const calls = server.modelCalls();
    expect(calls.map((call) => call.error)).toEqual([undefined, undefined, undefined, undefined]);
    // The second episode's tool step carried its own call's signature back.
    const last = calls[3]?.body as { contents: { parts: { thoughtSignature?: string }[] }[] };
    const signed = last.contents.flatMap((content, index) =>
      content.parts.some((part) => part.thoughtSignature) ? [index] : [],
    );
    expect(signed).toEqual([last.contents.length - 2]);
  });
});
