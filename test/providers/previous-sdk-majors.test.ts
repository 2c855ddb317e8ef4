/**
 * The adapters on the previous major of the two SDKs whose new major needs Node 22
 * (`openai` 7, `@google/genai` 3): an application on Node 20 installs `openai` 6 and
 * `@google/genai` 2, which the peer ranges of @episodic/providers still take. Here
 * `openai` and `@google/genai` resolve to those majors (the `openai6` and `genai2`
 * aliases), for the adapters' lazy SDK import as for this file, and the conformance
 * suite runs each adapter against its strict loopback server: the wire, the streams
 * and the error mapping (429 and context-length scenarios) on the older SDK.
 */
import { generate, type Message, type ToolSpec } from '@episodic/core';
import OpenAI from 'openai';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createGoogleAdapter } from '../../packages/providers/src/google/google-adapter.js';
import { googleSdk } from '../../packages/providers/src/google/google-sdk.js';
import { createOpenAIChatAdapter } from '../../packages/providers/src/openai-chat/openai-chat-adapter.js';
import { createOpenAICompatibleAdapter } from '../../packages/providers/src/openai-compatible/openai-compatible-adapter.js';
import { createOpenAIResponsesAdapter } from '../../packages/providers/src/openai-responses/openai-responses-adapter.js';
import { openAISdk } from '../../packages/providers/src/openai-shared/openai-sdk.js';
import { startGeminiServer } from '../servers/gemini-server.js';
import { startOpenAIChatServer } from '../servers/openai-chat-server.js';
import { startOpenAIResponsesServer, type OpenAIScriptedServer } from '../servers/openai-responses-server.js';
import { runConformance } from './conformance.js';

vi.mock('openai', () => import('openai6'));
vi.mock('@google/genai', () => import('genai2'));

describe('the SDK majors this file runs on', () => {
  it('are openai 6 and @google/genai 2, as the adapters load them', async () => {
    expect((await openAISdk.load()).OpenAI).toBe((await import('openai6')).OpenAI);
    expect((await googleSdk.load()).GoogleGenAI).toBe((await import('genai2')).GoogleGenAI);
    expect(OpenAI).toBe((await import('openai6')).OpenAI);
  });
});

runConformance({
  name: 'openai responses on openai 6',
  startServer: () => startOpenAIResponsesServer(),
  createAdapter: (url, { model }) => createOpenAIResponsesAdapter({ model, baseURL: url, apiKey: 'test-key' }),
  models: { primary: 'gpt-5', secondary: 'gpt-5-mini' },
});

runConformance({
  name: 'openai chat completions on openai 6',
  startServer: () => startOpenAIChatServer('openai'),
  createAdapter: (url, { model }) => createOpenAIChatAdapter({ model, baseURL: url, apiKey: 'test-key' }),
  models: { primary: 'gpt-5', secondary: 'gpt-4.1' },
  echoesReasoning: false,
});

runConformance({
  name: 'google (gemini 3) on @google/genai 2',
  startServer: () => startGeminiServer(),
  createAdapter: (url, { model }) => createGoogleAdapter({ model, baseURL: url, apiKey: 'test-key' }),
  models: { primary: 'gemini-3-pro-preview', secondary: 'gemini-3-flash-preview' },
});

const tools: ToolSpec[] = [{ name: 'get_ci_log', description: 'Reads the CI log', inputSchema: { type: 'object', properties: {} } }];

describe('an error body without the `error` wrapper (Cerebras) on openai 6', () => {
  let server: OpenAIScriptedServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('reaches the user with its reason through the adapter, where the bare SDK says "no body"', async () => {
    server = await startOpenAIChatServer('cerebras');
    const messages = [{ role: 'user' as const, content: 'a' }, { role: 'assistant' as const, content: 'b', reasoning_content: 'r' }];
    const bare = new OpenAI({ apiKey: 'k', baseURL: server.url, maxRetries: 0 }).chat.completions.create({
      model: 'qwen-3-32b',
      messages: messages as never,
    });
    await expect(bare).rejects.toThrow('400 status code (no body)');
    // `reasoning_content` is the field Cerebras refuses (it takes `reasoning`); its server answers with a bare body.
    const adapter = createOpenAICompatibleAdapter({
      provider: 'cerebras',
      model: 'qwen-3-32b',
      baseURL: server.url,
      apiKey: 'k',
      profile: { sendReasoningAs: 'reasoning_content' },
    });
    const turn: Message[] = [
      { role: 'user', content: 'a' },
      {
        role: 'assistant',
        model: { provider: 'cerebras', id: 'qwen-3-32b' },
        content: [
          { type: 'reasoning', text: 'need the log' },
          { type: 'tool-call', id: 'call_1', name: 'get_ci_log', args: {} },
        ],
      },
      { role: 'tool', toolCallId: 'call_1', toolName: 'get_ci_log', content: 'log' },
    ];
    const failed = await generate(adapter, { messages: turn, tools }).catch((error: unknown) => error);
    expect(failed).toMatchObject({ kind: 'invalid-request', status: 400 });
    expect((failed as Error).message).toContain("reasoning_content: property 'reasoning_content' is unsupported");
    expect((failed as Error).message).not.toContain('no body');
  });
});
