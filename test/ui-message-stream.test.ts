/**
 * `toUIMessageStream` against the AI SDK itself (the `ai` package, v6): every chunk
 * passes its `uiMessageChunkSchema`, `readUIMessageStream` builds the message a chat
 * UI renders, and the `ai` package's own chat client (`AbstractChat` with the default
 * HTTP transport, as `useChat` uses it) reads our server-sent events, a follow-up
 * turn and a failed turn included.
 */
import { Agent, type AgentTool, type Session } from '@episodic/core';
import {
  createUIMessageStreamResponse,
  type EpisodicMessageMetadata,
  toUIMessageStream,
  UI_MESSAGE_STREAM_HEADERS,
  type UIMessageChunk,
} from '@episodic/core/ui-stream';
import { type ScriptStep, scriptedModel } from '@episodic/core/testing';
import {
  AbstractChat,
  type ChatInit,
  type ChatState,
  type ChatStatus,
  DefaultChatTransport,
  UI_MESSAGE_STREAM_HEADERS as AI_HEADERS,
  readUIMessageStream,
  type UIMessage,
  uiMessageChunkSchema,
} from 'ai';
import { describe, expect, it } from 'vitest';

const lookup: AgentTool = {
  spec: { name: 'get_ci_log', description: 'Reads a CI log.', inputSchema: { type: 'object' } },
  async execute(args) {
    const run = (args as { run: number }).run;
    if (run === 0) throw new Error('no run 0');
    return { content: `run ${run}: test "drains" failed` };
  },
};

const steps: ScriptStep[] = [
  {
    reasoning: 'Two runs to compare; read both logs.',
    toolCalls: [{ name: 'get_ci_log', args: { run: 42 } }, { name: 'get_ci_log', args: { run: 0 } }],
  },
  { reasoning: 'A rate limit will hit this call.', error: { kind: 'rate-limit', retryAfter: 0 } },
  { reasoning: 'Run 42 failed in "drains".', text: 'The **drains** test is flaky.', usage: { cachedInputTokens: 100 } },
  { text: 'Yes, the same test.' },
  { error: { kind: 'invalid-request', message: 'provider said: bad request id=abc' } },
];

function agent(): Agent {
  return new Agent({
    model: scriptedModel({ steps, chunkSize: 8 }),
    tools: [lookup],
    context: { budget: 20_000 },
    modelCalls: { retry: { sleep: async () => {} } },
  });
}

function arrayStream(chunks: readonly UIMessageChunk[]): ReadableStream<UIMessageChunk> {
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
}

async function collect(stream: ReadableStream<UIMessageChunk>): Promise<UIMessageChunk[]> {
  const chunks: UIMessageChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

describe('toUIMessageStream', () => {
  it('produces chunks the AI SDK accepts, in protocol order', async () => {
    const session = await agent().session();
    const chunks = await collect(toUIMessageStream(session.stream('Why is CI red?'), { messageId: 'm1' }));
    const schema = uiMessageChunkSchema();
    for (const chunk of chunks) {
      const checked = await schema.validate!(chunk);
      expect(checked.success, JSON.stringify(chunk)).toBe(true);
    }
    const kinds = chunks.map((chunk) => chunk.type).filter((type, index, all) => !type.endsWith('-delta') || all[index - 1] !== type);
    expect(kinds).toEqual([
      'start',
      'start-step',
      'message-metadata',
      'reasoning-start',
      'reasoning-delta',
      'reasoning-end',
      'tool-input-available',
      'tool-input-available',
      'tool-output-available',
      'tool-output-error',
      'finish-step',
      // The rate-limited attempt: its reasoning stays visible as a step of its own.
      'start-step',
      'message-metadata',
      'reasoning-start',
      'reasoning-delta',
      'reasoning-end',
      'finish-step',
      'message-metadata',
      'start-step',
      'message-metadata',
      'reasoning-start',
      'reasoning-delta',
      'reasoning-end',
      'text-start',
      'text-delta',
      'text-end',
      'finish-step',
      'finish',
    ]);
    expect(chunks[0]).toEqual({
      type: 'start',
      messageId: 'm1',
      messageMetadata: { sessionId: session.id, model: { provider: 'scripted', id: 'scripted-model' } },
    });
    expect(chunks.at(-1)).toMatchObject({ type: 'finish', finishReason: 'stop' });
  });

  it('builds the message a chat UI renders: steps, collapsed reasoning, tool parts, text, metadata', async () => {
    const session = await agent().session();
    let message: UIMessage | undefined;
    for await (const update of readUIMessageStream({ stream: toUIMessageStream(session.stream('Why is CI red?')) })) {
      message = update;
    }
    const parts = message!.parts.map((part) => {
      if (part.type === 'tool-get_ci_log') return [part.type, part.state, part.input, part.output ?? part.errorText];
      if (part.type === 'reasoning' || part.type === 'text') return [part.type, part.state, part.text];
      return [part.type];
    });
    expect(parts).toEqual([
      ['step-start'],
      ['reasoning', 'done', 'Two runs to compare; read both logs.'],
      ['tool-get_ci_log', 'output-available', { run: 42 }, 'run 42: test "drains" failed'],
      ['tool-get_ci_log', 'output-error', { run: 0 }, 'Tool "get_ci_log" failed: no run 0'],
      ['step-start'],
      ['reasoning', 'done', 'A rate limit will hit this call.'],
      ['step-start'],
      ['reasoning', 'done', 'Run 42 failed in "drains".'],
      ['text', 'done', 'The **drains** test is flaky.'],
    ]);
    const metadata = message!.metadata as EpisodicMessageMetadata;
    expect(metadata).toMatchObject({
      sessionId: session.id,
      retries: 1,
      finishReason: 'done',
      pack: { step: 2, budget: 20_000, evictedEpisodes: 0 },
      usage: { modelCalls: 2, cachedInputTokens: 100 },
    });
    expect(metadata.pack!.tokens.total).toBeGreaterThan(0);
  });

  it('frames the stream as the server-sent events the AI SDK chat transport reads', async () => {
    expect(UI_MESSAGE_STREAM_HEADERS).toEqual(AI_HEADERS);
    const session = await agent().session();
    const response = createUIMessageStreamResponse(toUIMessageStream(session.stream('Why is CI red?')));
    expect(Object.fromEntries(response.headers)).toMatchObject(AI_HEADERS);
    const text = await response.text();
    const events = text.split('\n\n').filter(Boolean);
    expect(events.every((event) => event.startsWith('data: '))).toBe(true);
    expect(events.at(-1)).toBe('data: [DONE]');
    expect(JSON.parse(events[0]!.slice('data: '.length))).toMatchObject({ type: 'start' });
  });

  it("drives the ai package's chat client over HTTP: a turn, a follow-up, a failed turn", async () => {
    const sessions = new Map<string, Session>();
    const served = agent();
    // The server side of a chat route: one Episodic session per chat id, fed only the new user message.
    const route = async (body: { id: string; messages: UIMessage[] }) => {
      const session = sessions.get(body.id) ?? (await served.session({ id: body.id }));
      sessions.set(body.id, session);
      const last = body.messages.at(-1)!;
      const text = last.parts.map((part) => (part.type === 'text' ? part.text : '')).join('');
      return createUIMessageStreamResponse(toUIMessageStream(session.stream(text)));
    };
    const chat = new TestChat({
      id: 'chat-1',
      transport: new DefaultChatTransport({
        api: 'http://episodic.test/api/chat',
        fetch: async (_url, init) => route(JSON.parse(String(init!.body))),
      }),
    });
    await chat.sendMessage({ text: 'Why is CI red?' });
    expect(chat.status).toBe('ready');
    await chat.sendMessage({ text: 'Is #43 the same?' });
    const answer = chat.messages.at(-1)!;
    expect(answer.parts.filter((part) => part.type === 'text').map((part) => part.text)).toEqual(['Yes, the same test.']);
    expect(sessions.get('chat-1')!.messages.filter((message) => message.role === 'user')).toHaveLength(2);

    await chat.sendMessage({ text: 'And now?' });
    expect(chat.status).toBe('error');
    // The provider's wording (and its request id) stays on the server.
    expect(chat.error?.message).toBe('The agent stopped with an error (model_invalid_request).');
  });

  it('asks for approval the way the AI SDK does: an approval request on the tool part, the step ends with tool calls', async () => {
    const deploy: AgentTool = {
      spec: { name: 'deploy', description: 'Deploys.', inputSchema: { type: 'object' } },
      needsApproval: true,
      execute: async () => ({ content: 'deployed' }),
    };
    const model = scriptedModel({ steps: [{ toolCalls: [{ id: 'd1', name: 'deploy', args: {} }] }, { text: 'Shipped.' }] });
    const session = await new Agent({ model, tools: [deploy], context: { budget: 20_000 } }).session();
    const chunks = await collect(toUIMessageStream(session.stream('Ship it')));
    const schema = uiMessageChunkSchema();
    for (const chunk of chunks) expect((await schema.validate!(chunk)).success, JSON.stringify(chunk)).toBe(true);
    expect(chunks).toContainEqual({ type: 'tool-approval-request', approvalId: 'd1', toolCallId: 'd1' });
    expect(chunks.at(-1)).toMatchObject({ type: 'finish', finishReason: 'tool-calls', messageMetadata: { finishReason: 'paused' } });
    let rendered: UIMessage | undefined;
    for await (const update of readUIMessageStream({ stream: arrayStream(chunks) })) rendered = update;
    const part = rendered!.parts.find((candidate) => candidate.type === 'tool-deploy');
    expect(part).toMatchObject({ state: 'approval-requested', approval: { id: 'd1' } });
    await session.approve('d1');
    const resumed = await collect(toUIMessageStream(session.resumeStream()));
    expect(resumed).toContainEqual({ type: 'tool-output-available', toolCallId: 'd1', output: 'deployed' });
    expect(resumed.at(-1)).toMatchObject({ type: 'finish', finishReason: 'stop' });
  });

  it('turns a failure to start (a busy session) into an error chunk', async () => {
    const session = await agent().session();
    const first = session.send('Why is CI red?');
    const chunks = await collect(toUIMessageStream(session.stream('again'), { onError: (error) => error.message }));
    await first;
    expect(chunks).toEqual([{ type: 'error', errorText: expect.stringMatching(/already running/) }]);
  });
});

/** The smallest framework binding of the ai package's chat client (what useChat does with React state). */
class TestChat extends AbstractChat<UIMessage> {
  constructor(init: Omit<ChatInit<UIMessage>, 'messages'>) {
    const state: ChatState<UIMessage> = {
      status: 'ready' as ChatStatus,
      error: undefined,
      messages: [],
      pushMessage: (message) => void state.messages.push(message),
      popMessage: () => void state.messages.pop(),
      replaceMessage: (index, message) => {
        state.messages[index] = message;
      },
      snapshot: (thing) => structuredClone(thing),
    };
    super({ ...init, state });
  }
}
