/**
 * Responses `phase`: gpt-5.3-codex and later label each assistant message
 * `commentary` or `final_answer` and want the label back on every assistant
 * message. The loopback server hands phases out on those models and refuses a
 * message of theirs that comes back without it (a strict rule: the real API takes
 * it, and answers worse).
 */
import { generate, type Message, type ToolSpec } from '@episodic/core';
import { packContext } from '@episodic/core/packing';
import { afterEach, describe, expect, it } from 'vitest';
import { createOpenAIResponsesAdapter } from '../../packages/providers/src/openai-responses/openai-responses-adapter.js';
import { type OpenAIScriptedServer, startOpenAIResponsesServer } from '../servers/openai-responses-server.js';
import { runConformance } from './conformance.js';

runConformance({
  name: 'openai responses (gpt-5.5, phase labels)',
  startServer: () => startOpenAIResponsesServer(),
  createAdapter: (url, { model }) => createOpenAIResponsesAdapter({ model, baseURL: url, apiKey: 'test-key' }),
  models: { primary: 'gpt-5.5', secondary: 'gpt-5.6' },
});

const tools: ToolSpec[] = [
  { name: 'get_ci_log', description: 'Reads a CI log', inputSchema: { type: 'object', properties: {} } },
];

let server: OpenAIScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('responses phase', () => {
  it('keeps the phase on the text part and sends it back, with the item id and in a later episode without it', async () => {
    server = await startOpenAIResponsesServer();
    server.enqueue(
      { type: 'reply', reasoning: ['look'], text: 'Checking the log.', toolCalls: [{ name: 'get_ci_log', args: {} }] },
      { type: 'reply', reasoning: ['flaky'], text: 'It is flaky.' },
      { type: 'reply', text: 'Re-run it.' },
    );
    const adapter = createOpenAIResponsesAdapter({ model: 'gpt-5.5', baseURL: server.url, apiKey: 'test-key' });
    const transcript: Message[] = [{ role: 'user', content: 'CI is red' }];
    const step = async () => {
      const packed = packContext({ messages: transcript, budget: 50_000 });
      const { message } = await generate(adapter, { messages: packed.messages, tools });
      transcript.push(message);
      return message;
    };
    const first = await step();
    expect(first.content.find((part) => part.type === 'text')?.providerData?.phase).toBe('commentary');
    const call = first.content.find((part) => part.type === 'tool-call');
    transcript.push({ role: 'tool', toolCallId: String(call?.id), toolName: 'get_ci_log', content: 'FAIL' });
    await step();
    transcript.push({ role: 'user', content: 'What now?' });
    await step();
    expect(server.requests.map((request) => request.error)).toEqual([undefined, undefined, undefined]);
    const input = (server.requests[2]?.body as { input: Record<string, unknown>[] }).input;
    const assistants = input.filter((item) => item.role === 'assistant');
    expect(assistants.map((item) => [item.id, item.phase])).toEqual([
      [undefined, 'commentary'],
      [undefined, 'final_answer'],
    ]);
  });
});
