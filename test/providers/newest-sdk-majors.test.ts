/**
 * The adapters on the newest majors of the two SDKs the project does not install:
 * `openai` 7 and `@google/genai` 3 declare `engines: node >=22`, while the project
 * supports Node 20 and installs `openai` 6 and `@google/genai` 2 (the peer ranges of
 * @episodic/providers take both majors). Here `openai` and `@google/genai` resolve to
 * the newer majors (the `openai7` and `genai3` aliases), for the adapters' lazy SDK
 * import as for this file, and the conformance suite runs each adapter against its
 * strict loopback server: the wire, the streams and the error mapping (429 and
 * context-length scenarios). It runs them on the CI's Node 20, outside their declared
 * engines, to catch their wire and type changes early; an application on them needs
 * Node 22.
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

vi.mock('openai', () => import('openai7'));
vi.mock('@google/genai', () => import('genai3'));

describe('the SDK majors this file runs on', () => {
  it('are openai 7 and @google/genai 3, as the adapters load them', async () => {
    expect((await openAISdk.load()).OpenAI).toBe((await import('openai7')).OpenAI);
    expect((await googleSdk.load()).GoogleGenAI).toBe((await import('genai3')).GoogleGenAI);
    expect(OpenAI).toBe((await import('openai7')).OpenAI);
  });
});

runConformance({
  name: 'openai responses on openai 7',
  startServer: () => startOpenAIResponsesServer(),
  createAdapter: (url, { model }) => createOpenAIResponsesAdapter({ model, baseURL: url, apiKey: 'test-key' }),
  models: { primary: 'gpt-5', secondary: 'gpt-5-mini' },
});

runConformance({
  name: 'openai chat completions on openai 7',
  startServer: () => startOpenAIChatServer('openai'),
  createAdapter: (url, { model }) => createOpenAIChatAdapter({ model, baseURL: url, apiKey: 'test-key' }),
  models: { primary: 'gpt-5', secondary: 'gpt-4.1' },
  echoesReasoning: false,
});

runConformance({
  name: 'google (gemini 3) on @google/genai 3',
  startServer: () => startGeminiServer(),
  createAdapter: (url, { model }) => createGoogleAdapter({ model, baseURL: url, apiKey: 'test-key' }),
  models: { primary: 'gemini-3-pro-preview', secondary: 'gemini-3-flash-preview' },
});

const tools: ToolSpec[] = [{ name: 'get_ci_log', description: 'Reads the CI log', inputSchema: { type: 'object', properties: {} } }];

describe('an error body without the `error` wrapper (Cerebras) on openai 7', () => {
  let server: OpenAIScriptedServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  // openai 7 wraps such a body itself; the adapter's fetch wrapper (for openai 6) must not get in its way.
  it('reaches the user with its reason through the adapter, as through the bare SDK', async () => {
    server = await startOpenAIChatServer('cerebras');
    const messages = [{ role: 'user' as const, content: 'a' }, { role: 'assistant' as const, content: 'b', reasoning_content: 'r' }];
    const bare = new OpenAI({ apiKey: 'k', baseURL: server.url, maxRetries: 0 }).chat.completions.create({
      model: 'qwen-3-32b',
      messages: messages as never,
    });
    await expect(bare).rejects.toThrow("400 messages.1.assistant.reasoning_content: property 'reasoning_content' is unsupported");
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
