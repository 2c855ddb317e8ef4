/**
 * Reasoning that a host puts in `content` without anyone configuring a splitter:
 * over the loopback chat server, a leading `<think>` block becomes a reasoning
 * part, an answer that merely mentions a tag stays as it is, and raw Harmony
 * `commentary to=functions.NAME` messages become tool calls.
 */
import { generate, type ToolSpec } from '@episodic/core';
import { afterEach, describe, expect, it } from 'vitest';
import { createOpenAICompatibleAdapter } from '../../packages/providers/src/openai-compatible/openai-compatible-adapter.js';
import { startOpenAIChatServer } from '../servers/openai-chat-server.js';
import type { OpenAIScriptedServer } from '../servers/openai-responses-server.js';

const tools: ToolSpec[] = [
  { name: 'get_ci_log', description: 'Reads a CI log', inputSchema: { type: 'object', properties: { run: { type: 'number' } } } },
];

let server: OpenAIScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function vllmWith(stream: 'think-tags' | 'none') {
  server = await startOpenAIChatServer({ stream });
  // A vLLM-style host with no profile row for the model and no splitter configured.
  return createOpenAICompatibleAdapter({ provider: 'acme-vllm', model: 'my-org/my-reasoner', baseURL: server.url, apiKey: 'k' });
}

describe('reasoning in content on a host without a configured splitter', () => {
  it('splits a leading <think> block into a reasoning part; nothing of it is visible', async () => {
    const adapter = await vllmWith('think-tags');
    server!.enqueue({ type: 'reply', reasoning: ['the log says timeout'], text: 'A flaky timeout.' });
    const result = await generate(adapter, { messages: [{ role: 'user', content: 'why red?' }] });
    expect(result.message.content).toMatchObject([
      { type: 'reasoning', text: 'the log says timeout' },
      { type: 'text', text: 'A flaky timeout.' },
    ]);
  });

  it('leaves an answer that mentions a tag later untouched', async () => {
    const adapter = await vllmWith('none');
    const text = 'Wrap it in <think> and </think> tags, as the docs say.';
    server!.enqueue({ type: 'reply', text });
    const result = await generate(adapter, { messages: [{ role: 'user', content: 'how?' }] });
    expect(result.message.content).toEqual([{ type: 'text', text }]);
  });

  it('turns raw Harmony commentary to=functions.NAME into a tool call', async () => {
    const adapter = await vllmWith('none');
    const raw =
      '<|channel|>analysis<|message|>need run 42<|end|><|start|>assistant<|channel|>commentary to=functions.get_ci_log ' +
      '<|constrain|>json<|message|>{"run":42}<|call|>';
    server!.enqueue({ type: 'reply', text: raw });
    const result = await generate(adapter, { messages: [{ role: 'user', content: 'why red?' }], tools });
    expect(result.message.content).toMatchObject([
      { type: 'reasoning', text: 'need run 42' },
      { type: 'tool-call', name: 'get_ci_log', args: { run: 42 } },
    ]);
    expect(JSON.stringify(result.message.content)).not.toContain('<|');
  });
});
