/**
 * The native-context round trip as the real APIs check it: what a provider's compaction
 * returned goes back the way its SDK types say (Anthropic `encrypted_content` verbatim, a
 * failed compaction as `content: null` and a no-op, no output-only `created_by` on an
 * OpenAI item), request builders never write into the stored transcript, OpenAI's
 * standalone compaction window keeps every user message, and `hybrid` sends compaction
 * or says it cannot. Anthropic streams are played by a loopback server in the recorded
 * shape (vercel/ai `anthropic-compaction.1.chunks.txt`: the block starts with
 * `content: null`, one `compaction_delta` carries the final values) with the
 * `encrypted_content` the SDK's `BetaCompactionContentBlockDelta` names; every body a
 * test captures is type-checked against the official SDK param types at the end.
 */
import { Agent, type AgentEvent, type Message, MemorySessionStore, type ModelRequest } from '@episodic/core';
import { createAnthropicAdapter } from '@episodic/providers/anthropic';
import { createOpenAIChatAdapter, createOpenAIResponsesAdapter } from '@episodic/providers/openai';
import { afterAll, describe, expect, it } from 'vitest';
import { type CapturedBody, sdkParamErrors } from '../support/sdk-param-check.js';
import { startOpenAIResponsesServer } from '../servers/openai-responses-server.js';
import { headerRecord, readJsonBody, startLoopbackServer, startSse, writeSseEvent } from '../servers/sse.js';

/** Every body the tests captured, type-checked in the last test. */
const captured: CapturedBody[] = [];
const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const close of closers.splice(0)) await close();
});

type SseEvent = Record<string, unknown> & { type: string };

/** A loopback Messages API that streams the given event lists in turn and keeps each request. */
async function anthropicReplay(streams: SseEvent[][]) {
  const bodies: Record<string, unknown>[] = [];
  const server = await startLoopbackServer(async (request, response) => {
    headerRecord(request);
    bodies.push((await readJsonBody(request)) as Record<string, unknown>);
    const events = streams.shift();
    if (!events) throw new Error('no stream left for this request');
    startSse(response);
    for (const event of events) writeSseEvent(response, event, { event: event.type });
    response.end();
  });
  closers.push(() => server.close());
  return { url: server.url, bodies };
}

const usage = { input_tokens: 30, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 1 };
const start = (): SseEvent => ({
  type: 'message_start',
  message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-sonnet-4-6', content: [], stop_reason: null, stop_sequence: null, usage },
});
const finish = (stop: string): SseEvent[] => [
  { type: 'message_delta', delta: { stop_reason: stop, stop_sequence: null }, usage: { ...usage, output_tokens: 20 } },
  { type: 'message_stop' },
];
const compaction = (index: number, content: string | null, encrypted: string | null): SseEvent[] => [
  { type: 'content_block_start', index, content_block: { type: 'compaction', content: null } },
  { type: 'content_block_delta', index, delta: { type: 'compaction_delta', content, encrypted_content: encrypted } },
  { type: 'content_block_stop', index },
];
const text = (index: number, value: string): SseEvent[] => [
  { type: 'content_block_start', index, content_block: { type: 'text', text: '' } },
  { type: 'content_block_delta', index, delta: { type: 'text_delta', text: value } },
  { type: 'content_block_stop', index },
];
const answer = (value: string): SseEvent[] => [start(), ...text(0, value), ...finish('end_turn')];

type WireMessage = { role: string; content: string | Record<string, unknown>[] };
const messagesOf = (body: Record<string, unknown> | undefined) => (body?.messages ?? []) as WireMessage[];
const blocksOf = (body: Record<string, unknown> | undefined) =>
  messagesOf(body).flatMap((message) => (Array.isArray(message.content) ? message.content : []));
const breakpoints = (body: Record<string, unknown> | undefined) =>
  JSON.stringify(body).split('"cache_control"').length - 1;

const claude = (url: string) =>
  createAnthropicAdapter({ model: 'claude-sonnet-4-6', baseURL: url, apiKey: 'test-key', thinking: { type: 'disabled' } });

describe('anthropic compaction blocks go back as the SDK types say', () => {
  it('a streamed compaction block goes back with its encrypted_content verbatim', async () => {
    const server = await anthropicReplay([
      [start(), ...compaction(0, 'Summary: the user asked about CI.', 'opaque-Zm9v=='), ...text(1, 'Green.'), ...finish('end_turn')],
      answer('Still green.'),
    ]);
    const agent = new Agent({ model: claude(server.url), context: { policy: 'hybrid', native: { compaction: { threshold: 60_000 } } } });
    const session = await agent.session();
    await session.send('Is CI green?');
    await session.send('And now?');
    const sent = blocksOf(server.bodies[1]).find((block) => block.type === 'compaction');
    expect(sent).toEqual({ type: 'compaction', content: 'Summary: the user asked about CI.', encrypted_content: 'opaque-Zm9v==' });
    for (const body of server.bodies) captured.push({ kind: 'anthropic-beta', body, label: 'anthropic encrypted_content' });
  });

  it('a block that comes whole (as a non-streamed message has it) goes back verbatim: encrypted_content, signature, tool_changes', async () => {
    const whole = {
      type: 'compaction',
      content: 'Summary: the user asked about CI.',
      encrypted_content: 'opaque-d2hvbGU=',
      signature: 'sig-whole',
      tool_changes: [{ type: 'tool_addition', tool: { type: 'tool_reference', name: 'read_log' } }],
    };
    const server = await anthropicReplay([
      [
        start(),
        { type: 'content_block_start', index: 0, content_block: whole },
        { type: 'content_block_stop', index: 0 },
        ...text(1, 'Green.'),
        ...finish('end_turn'),
      ],
      answer('Still green.'),
    ]);
    const agent = new Agent({ model: claude(server.url), context: { policy: 'hybrid', native: { compaction: { threshold: 60_000 } } } });
    const session = await agent.session();
    await session.send('Is CI green?');
    await session.send('And now?');
    expect(blocksOf(server.bodies[1]).find((block) => block.type === 'compaction')).toEqual(whole);
    for (const body of server.bodies) captured.push({ kind: 'anthropic-beta', body, label: 'anthropic whole compaction block' });
  });

  it('a failed compaction (null content) goes back as null, and the history before it is still sent', async () => {
    const server = await anthropicReplay([
      answer('First answer.'),
      [start(), ...compaction(0, null, null), ...text(1, 'Second answer.'), ...finish('end_turn')],
      answer('Third answer.'),
    ]);
    const agent = new Agent({ model: claude(server.url), context: { policy: 'hybrid', native: { compaction: { threshold: 60_000 } } } });
    const session = await agent.session();
    await session.send('first question');
    await session.send('second question');
    const failed = session.messages.flatMap((message) => (message.role === 'assistant' ? message.content : [])).find((part) => part.type === 'compaction');
    expect(failed).toMatchObject({ type: 'compaction', failed: true });
    expect(failed?.text).toBeUndefined();
    await session.send('third question');
    const third = server.bodies[2];
    expect(blocksOf(third).find((block) => block.type === 'compaction')).toEqual({ type: 'compaction', content: null, encrypted_content: null });
    // Not cut: the server treats the block as a no-op, so the history before it must still be there.
    expect(JSON.stringify(messagesOf(third)[0])).toContain('first question');
    expect(JSON.stringify(third)).toContain('First answer.');
    for (const body of server.bodies) captured.push({ kind: 'anthropic-beta', body, label: 'anthropic failed compaction' });
  });

  it('a breakpoint placed on a stored compaction block stays out of the transcript: no request carries more than 4', async () => {
    // pause_after_compaction: the compaction alone is the newest turn of the continuation call, so it takes a breakpoint.
    const server = await anthropicReplay([
      [start(), ...compaction(0, 'Summary: reading the log.', 'opaque-YmFy'), ...finish('compaction')],
      answer('Read it.'),
      answer('Second.'),
      answer('Third.'),
    ]);
    const agent = new Agent({
      model: claude(server.url),
      system: 'You are terse.',
      context: { policy: 'hybrid', native: { compaction: { threshold: 60_000, pauseAfter: true } } },
    });
    const session = await agent.session();
    await session.send('read the log');
    await session.send('second');
    await session.send('third');
    expect(JSON.stringify(session.messages)).not.toContain('cache_control');
    for (const body of server.bodies) expect(breakpoints(body)).toBeLessThanOrEqual(4);
    for (const body of server.bodies) captured.push({ kind: 'anthropic-beta', body, label: 'anthropic breakpoints' });
  });
});

/** Freezes `value` and everything it holds, so a write anywhere throws (modules run in strict mode). */
function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  for (const child of Object.values(value)) deepFreeze(child);
  return Object.freeze(value);
}

const anthropicTag = { provider: 'anthropic', model: 'claude-sonnet-4-6' };
const openaiTag = { provider: 'openai', model: 'gpt-5.6' };

/** A transcript with a stored compaction, reasoning, kept provider blocks and tool pairs, for `tag`'s provider. */
function storedTranscript(provider: 'anthropic' | 'openai' | 'google'): Message[] {
  const tag = provider === 'anthropic' ? anthropicTag : provider === 'openai' ? openaiTag : { provider: 'google', model: 'gemini-3-pro-preview' };
  const compactionData =
    provider === 'anthropic'
      ? { ...tag, block: { type: 'compaction', content: 'Summary.', encrypted_content: 'enc' } }
      : { ...tag, item: { type: 'compaction', id: 'cmp_1', encrypted_content: 'enc', created_by: 'system' } };
  const reasoningData =
    provider === 'anthropic'
      ? { ...tag, prefix: 'stale' }
      : provider === 'openai'
        ? { ...tag, id: 'rs_1', encrypted_content: 'enc-rs', summary: [] }
        : { ...tag, thoughtSignature: 'sig' };
  const kept =
    provider === 'anthropic'
      ? { ...tag, block: { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'ci' } } }
      : provider === 'openai'
        ? { ...tag, item: { type: 'web_search_call', id: 'ws_1', status: 'completed', action: { type: 'search', query: 'ci' }, created_by: 'system' } }
        : { ...tag, part: { codeExecutionResult: { output: '1' } } };
  return [
    { role: 'user', content: 'Is CI green?' },
    { role: 'assistant', model: { provider: tag.provider, id: tag.model }, content: [{ type: 'compaction', text: 'Summary.', providerData: compactionData }] },
    { role: 'user', content: 'Look again.' },
    {
      role: 'assistant',
      model: { provider: tag.provider, id: tag.model },
      content: [
        { type: 'reasoning', text: 'Check the log.', signature: 'sig', providerData: reasoningData },
        { type: 'provider-tool', name: 'web_search', kind: 'call', providerData: kept },
        { type: 'tool-call', id: 'call_1', name: 'read_log', args: { lines: 10 }, providerData: { ...tag, id: 'fc_1' } },
      ],
    },
    { role: 'tool', toolCallId: 'call_1', toolName: 'read_log', content: 'all passed' },
  ];
}

const tools = [{ name: 'read_log', description: 'Reads the log.', inputSchema: { type: 'object', properties: { lines: { type: 'number' } } } }];

describe('request builders never write into the stored transcript', () => {
  it('builds every adapter\'s request from a deep-frozen transcript, leaves it unchanged, and the bodies type-check', async () => {
    const { createGoogleAdapter } = await import('@episodic/providers/google');
    const cases = [
      { kind: 'anthropic-beta' as const, provider: 'anthropic' as const, adapter: claude('http://127.0.0.1:9') },
      {
        kind: 'openai-responses' as const,
        provider: 'openai' as const,
        adapter: createOpenAIResponsesAdapter({ model: 'gpt-5.6', apiKey: 'k', baseURL: 'http://127.0.0.1:9' }),
      },
      { kind: 'openai-chat' as const, provider: 'openai' as const, adapter: createOpenAIChatAdapter({ model: 'gpt-4.1', apiKey: 'k', baseURL: 'http://127.0.0.1:9' }) },
      {
        kind: 'google-contents' as const,
        provider: 'google' as const,
        adapter: createGoogleAdapter({ model: 'gemini-3-pro-preview', apiKey: 'k', baseURL: 'http://127.0.0.1:9' }),
      },
    ];
    // The first Anthropic case ends on the stored compaction (a paused compaction's continuation): its block takes the newest breakpoint.
    const anthropicPaused = { kind: 'anthropic-beta' as const, provider: 'anthropic' as const, adapter: cases[0]!.adapter, slice: 2 };
    for (const { kind, provider, adapter, slice } of [anthropicPaused, ...cases.map((entry) => ({ ...entry, slice: undefined }))]) {
      const messages = storedTranscript(provider).slice(0, slice);
      const before = JSON.stringify(messages);
      const request: ModelRequest = deepFreeze({
        system: 'You are terse.',
        messages,
        tools,
        cacheBreakpoints: { prefix: true, messages: [0, 1, 2, 3] },
        nativeContext: { compaction: { threshold: 60_000 } },
      });
      const { body } = adapter.prepare(request);
      expect(JSON.stringify(messages), kind).toBe(before);
      captured.push({ kind, body: kind === 'google-contents' ? (body as { contents: unknown }).contents : body, label: `frozen ${kind}` });
    }
  });

  it('OpenAI-compatible hosts and the AI SDK path build from a deep-frozen transcript and leave it unchanged', async () => {
    const { createOpenAICompatibleAdapter } = await import('@episodic/providers/openai-compatible');
    const { callOptionsFor } = await import('../../packages/ai-sdk/src/from-ai-sdk.js');
    const { resolveAnthropicProfile } = await import('../../packages/providers/src/profiles/anthropic-resolver.js');
    /** Reasoning as each host's stream reader keeps it, host fields kept on a `message-fields` part, a tool pair. */
    const hostTranscript = (provider: string, model: string, reasoning: Record<string, unknown>): Message[] => {
      const tag = { provider, model };
      return [
        { role: 'user', content: 'Is CI green?' },
        {
          role: 'assistant',
          model: { provider, id: model },
          content: [
            { type: 'reasoning', text: 'Check the log.', providerData: { ...tag, ...reasoning } },
            { type: 'provider-tool', name: 'message-fields', kind: 'result', providerData: { ...tag, fields: { audio: { id: 'a_1' } } } },
            { type: 'tool-call', id: 'call_1', name: 'read_log', args: { lines: 10 } },
          ],
        },
        { role: 'tool', toolCallId: 'call_1', toolName: 'read_log', content: 'all passed' },
      ];
    };
    const hosts = [
      { provider: 'deepseek', model: 'deepseek-reasoner', reasoning: { field: 'reasoning_content' } },
      { provider: 'openrouter', model: 'anthropic/claude-sonnet-4.6', reasoning: { reasoning_details: [{ type: 'reasoning.text', text: 'Check the log.', signature: 's', format: 'anthropic-claude-v1', index: 0 }] } },
      { provider: 'minimax', model: 'MiniMax-M2', reasoning: {} },
    ];
    for (const host of hosts) {
      const adapter = createOpenAICompatibleAdapter({ provider: host.provider, model: host.model, apiKey: 'k', baseURL: 'http://127.0.0.1:9' });
      const messages = hostTranscript(host.provider, host.model, host.reasoning);
      const before = JSON.stringify(messages);
      const { body } = adapter.prepare(deepFreeze({ system: 'You are terse.', messages, tools, cacheBreakpoints: { prefix: true, messages: [0, 1, 2] } }));
      expect(JSON.stringify(messages), host.provider).toBe(before);
      expect(JSON.stringify(body), host.provider).toContain('Check the log.');
    }
    // The AI SDK path: its prompt, with Anthropic breakpoints placed and the thinking guard run.
    const profile = resolveAnthropicProfile('claude-sonnet-4-6');
    const messages = storedTranscript('anthropic');
    const before = JSON.stringify(messages);
    const options = deepFreeze({ anthropic: { thinking: { type: 'enabled', budgetTokens: 2048 } } });
    const request: ModelRequest = deepFreeze({ system: 'You are terse.', messages, tools, cacheBreakpoints: { prefix: true, messages: [0, 1, 2, 3] } });
    const warnings: string[] = [];
    const call = callOptionsFor(request, { version: 'v3', profile, providerOptions: options }, warnings);
    expect(JSON.stringify(messages)).toBe(before);
    const marks = (prompt: unknown) => JSON.stringify(prompt).split('"cacheControl"').length - 1;
    expect(marks(call.prompt)).toBe(4);
    // The call's own cacheControl (automatic caching, a top-level cache_control) takes one of the four.
    const automatic = { anthropic: { ...options.anthropic, cacheControl: { type: 'ephemeral' } } };
    expect(marks(callOptionsFor(request, { version: 'v3', profile, providerOptions: automatic }, warnings).prompt)).toBe(3);
  });

  it('OpenAI session.compact() from a frozen transcript, and the stored item goes back without created_by', async () => {
    const server = await startOpenAIResponsesServer();
    closers.push(() => server.close());
    const adapter = createOpenAIResponsesAdapter({ model: 'gpt-5.6', apiKey: 'k', baseURL: server.url });
    const messages = deepFreeze(storedTranscript('openai').slice(0, 1));
    const { message } = await adapter.compact!({ system: 'You are terse.', messages });
    expect(JSON.stringify(messages)).toBe(JSON.stringify(storedTranscript('openai').slice(0, 1)));
    const compactBody = server.requests.find((entry) => entry.path.endsWith('/responses/compact'))?.body;
    captured.push({ kind: 'openai-compact', body: compactBody, label: 'openai compact' });
    const { body } = adapter.prepare(deepFreeze({ messages: storedTranscript('openai') }));
    const items = body.input as unknown as Record<string, unknown>[];
    expect(items.find((item) => item.type === 'compaction')).toEqual({ type: 'compaction', id: 'cmp_1', encrypted_content: 'enc' });
    expect(JSON.stringify(items)).not.toContain('created_by');
    expect(message.content[0]).toMatchObject({ type: 'compaction', userMessagesKept: 1 });
  });
});

describe('openai output items go back as input items', () => {
  it('without created_by on any kept item, nor on a shell_call_output\'s output chunks', () => {
    const adapter = createOpenAIResponsesAdapter({ model: 'gpt-5.6', apiKey: 'k', baseURL: 'http://127.0.0.1:9' });
    const kept = (item: Record<string, unknown>) => ({
      type: 'provider-tool' as const,
      name: String(item.type),
      kind: 'call' as const,
      providerData: { ...openaiTag, item },
    });
    const shellCall = { type: 'shell_call', id: 'sh_1', call_id: 'call_sh', action: { commands: ['ls'], timeout_ms: null, max_output_length: null }, status: 'completed', created_by: 'system' };
    const chunk = { stdout: 'README.md', stderr: '', outcome: { type: 'exit', exit_code: 0 }, created_by: 'system' };
    const shellOutput = { type: 'shell_call_output', id: 'sho_1', call_id: 'call_sh', max_output_length: null, output: [chunk], status: 'completed', created_by: 'system' };
    const patchCall = { type: 'apply_patch_call', id: 'ap_1', call_id: 'call_ap', status: 'completed', operation: { type: 'delete_file', path: 'old.txt' }, created_by: 'system' };
    const messages: Message[] = deepFreeze([
      { role: 'user', content: 'List the files.' },
      { role: 'assistant', model: { provider: 'openai', id: 'gpt-5.6' }, content: [kept(shellCall), kept(shellOutput), kept(patchCall), { type: 'text', text: 'Done.' }] },
      { role: 'user', content: 'Thanks.' },
    ]);
    const { body } = adapter.prepare({ messages });
    const items = body.input as unknown as Record<string, unknown>[];
    expect(items.map((item) => item.type ?? item.role)).toEqual(['user', 'shell_call', 'shell_call_output', 'apply_patch_call', 'assistant', 'user']);
    expect(JSON.stringify(items)).not.toContain('created_by');
    const { created_by: _chunkCreatedBy, ...sentChunk } = chunk;
    expect(items[2]).toMatchObject({ id: 'sho_1', output: [sentChunk] });
    captured.push({ kind: 'openai-responses', body, label: 'openai kept items without created_by' });
  });
});

describe('openai compaction windows and hybrid', () => {
  it('session.compact(): later calls send every user message of the compacted window, then the item', async () => {
    const server = await startOpenAIResponsesServer();
    closers.push(() => server.close());
    const agent = new Agent({ model: createOpenAIResponsesAdapter({ model: 'gpt-5.6', apiKey: 'k', baseURL: server.url }) });
    server.enqueue({ type: 'reply', text: 'One.' }, { type: 'reply', text: 'Two.' }, { type: 'reply', text: 'Three.' });
    const session = await agent.session();
    await session.send('first question');
    await session.send('second question');
    await session.compact();
    await session.send('third question');
    const last = server.modelCalls().at(-1);
    expect(last?.status).toBe(200);
    const input = (last?.body as { input: Record<string, unknown>[] }).input;
    const shape = input.map((item) => (item.type === 'compaction' ? 'compaction' : `${String(item.role)}: ${JSON.stringify(item.content)}`));
    expect(shape).toEqual(['user: "first question"', 'user: "second question"', 'compaction', 'user: "third question"']);
    for (const request of server.requests)
      captured.push({ kind: request.path.endsWith('/compact') ? 'openai-compact' : 'openai-responses', body: request.body, label: 'openai window' });
  });

  it("context 'hybrid' on the Responses API sends server-side compaction at 80% of the budget, with store: false", async () => {
    const server = await startOpenAIResponsesServer();
    closers.push(() => server.close());
    const agent = new Agent({ model: createOpenAIResponsesAdapter({ model: 'gpt-5.6', apiKey: 'k', baseURL: server.url }), context: { policy: 'hybrid', budget: 100_000 } });
    expect(agent.warnings).toEqual([]);
    server.enqueue({ type: 'reply', text: 'Hi.' });
    const session = await agent.session();
    await session.send('hello');
    const body = server.modelCalls()[0]?.body;
    expect(body).toMatchObject({ store: false, context_management: [{ type: 'compaction', compact_threshold: 80_000 }] });
    captured.push({ kind: 'openai-responses', body, label: 'openai hybrid' });
  });

  it('gpt-5.6 by default: the episode rule drops the last episode\'s reasoning items and sends no reasoning.context', async () => {
    const server = await startOpenAIResponsesServer();
    closers.push(() => server.close());
    const agent = new Agent({ model: createOpenAIResponsesAdapter({ model: 'gpt-5.6', apiKey: 'k', baseURL: server.url }) });
    server.enqueue({ type: 'reply', reasoning: ['Read the log.'], text: 'Red.' }, { type: 'reply', reasoning: ['Pin it.'], text: 'Pin the test.' });
    const session = await agent.session();
    await session.send('Why is CI red?');
    await session.send('How do I fix it?');
    type Body = { input: Record<string, unknown>[]; reasoning?: Record<string, unknown> };
    const [first, second] = server.modelCalls().map((call) => call.body as Body);
    expect(first?.reasoning).not.toHaveProperty('context');
    expect(second?.reasoning).not.toHaveProperty('context');
    // The first episode's answer goes back, its reasoning item does not.
    expect(JSON.stringify(second?.input)).toContain('Red.');
    expect(second?.input.some((item) => item.type === 'reasoning')).toBe(false);
    for (const body of [first, second]) captured.push({ kind: 'openai-responses', body, label: 'gpt-5.6 default reasoning' });
  });

  it("reasoningContext: sent as reasoning.context under 'native'; under 'hybrid', which sends only compaction, a native-option-not-sent warning says so", async () => {
    const server = await startOpenAIResponsesServer();
    closers.push(() => server.close());
    const model = createOpenAIResponsesAdapter({ model: 'gpt-5.6', apiKey: 'k', baseURL: server.url });
    const hybrid = new Agent({ model, context: { native: { reasoningContext: 'current-turn' } } });
    expect(hybrid.context).toBe('hybrid');
    expect(hybrid.warnings).toEqual([expect.stringContaining("context.native.reasoningContext is not sent: context 'hybrid' sends only compaction")]);
    const events: AgentEvent[] = [];
    server.enqueue({ type: 'reply', text: 'Hi.' }, { type: 'reply', text: 'Hi.' });
    await (await hybrid.session()).send('hello', { onEvent: (event) => events.push(event) });
    expect(events.filter((event) => event.type === 'warning')).toMatchObject([{ code: 'native-option-not-sent' }]);
    const native = new Agent({ model, context: { policy: 'native', native: { reasoningContext: 'current-turn' } } });
    expect(native.warnings).toEqual([]);
    await (await native.session()).send('hello');
    const [unsent, sent] = server.modelCalls().map((call) => call.body as { reasoning?: Record<string, unknown> });
    expect(unsent?.reasoning).not.toHaveProperty('context');
    expect(sent?.reasoning).toMatchObject({ context: 'current_turn' });
    captured.push({ kind: 'openai-responses', body: sent, label: 'gpt-5.6 current_turn' });
  });

  it("context 'hybrid' where nothing native can be sent warns, with a typed warning event", async () => {
    const agent = new Agent({ model: createOpenAIChatAdapter({ model: 'gpt-4.1', apiKey: 'k', baseURL: 'http://127.0.0.1:9' }), context: { policy: 'hybrid' } });
    expect(agent.warnings).toEqual([expect.stringContaining("context 'hybrid'")]);
    const session = await agent.session();
    expect(session.warnings).toEqual(agent.warnings);
  });
});

describe('portable compaction checkpoints', () => {
  it("another model continues from Anthropic's readable summary in place of the history it replaced", async () => {
    const anthropic = await anthropicReplay([
      answer('The log has 10,000 lines.'),
      [start(), ...compaction(0, 'Summary: the user asked about the CI log; it passed.', 'opaque-cXV4'), ...text(1, 'It passed.'), ...finish('end_turn')],
    ]);
    const store = new MemorySessionStore();
    const first = new Agent({ model: claude(anthropic.url), context: { policy: 'hybrid', native: { compaction: { threshold: 60_000 } } } });
    const session = await first.session({ id: 'hop', store });
    await session.send('How long is the CI log?');
    await session.send('Did it pass?');
    const openai = await startOpenAIResponsesServer();
    closers.push(() => openai.close());
    openai.enqueue({ type: 'reply', text: 'Yes.' });
    const second = new Agent({ model: createOpenAIResponsesAdapter({ model: 'gpt-5.6', apiKey: 'k', baseURL: openai.url }) });
    const switched = await second.session({ id: 'hop', store });
    await switched.send('Still passing?');
    const call = openai.modelCalls()[0];
    expect(call?.status).toBe(200);
    const input = JSON.stringify(call?.body);
    expect(input).toContain('Summary: the user asked about the CI log; it passed.');
    expect(input).not.toContain('How long is the CI log?');
    expect(input).not.toContain('opaque-cXV4');
    captured.push({ kind: 'openai-responses', body: call?.body, label: 'portable checkpoint' });
  });
});

describe('an Anthropic compaction continued through the AI SDK', () => {
  it('fromAISDK on the same model reads the summary in place of the block: core cut the history it replaced, so leaving it out lost both', async () => {
    const { createAnthropic } = await import('@ai-sdk/anthropic');
    const { fromAISDK } = await import('@episodic/ai-sdk');
    const summary = 'Summary: the CI log has 10,000 lines and passed.';
    const server = await anthropicReplay([
      answer('The log has 10,000 lines.'),
      [start(), ...compaction(0, summary, 'opaque-YWlzZGs='), ...text(1, 'It passed.'), ...finish('end_turn')],
      answer('Still passing.'),
    ]);
    const store = new MemorySessionStore();
    const native = new Agent({ model: claude(server.url), context: { policy: 'hybrid', native: { compaction: { threshold: 60_000 } } } });
    const session = await native.session({ id: 'via-ai-sdk', store });
    await session.send('How long is the CI log?');
    await session.send('Did it pass?');
    const model = fromAISDK(createAnthropic({ baseURL: `${server.url}/v1`, apiKey: 'test-key' })('claude-sonnet-4-6'));
    const events: AgentEvent[] = [];
    const switched = await new Agent({ model }).session({ id: 'via-ai-sdk', store });
    expect((await switched.send('Still passing?', { onEvent: (event) => events.push(event) })).text).toBe('Still passing.');
    const body = server.bodies[2];
    // What the compaction replaced is not sent (core's cut); the summary is, as text.
    expect(JSON.stringify(body)).not.toContain('The log has 10,000 lines.');
    expect(blocksOf(body)).toContainEqual(expect.objectContaining({ type: 'text', text: summary }));
    const warnings = events.flatMap((event) => (event.type === 'warning' ? [event.message] : []));
    expect(warnings).toEqual([expect.stringContaining('its summary went as text in its place')]);
    captured.push({ kind: 'anthropic-beta', body, label: 'compaction through the AI SDK' });
  });
});

describe('an opaque compaction and another model', () => {
  it("OpenAI's opaque item gives another model nothing to read: it gets the full history, and the call does not fail", async () => {
    const openai = await startOpenAIResponsesServer();
    closers.push(() => openai.close());
    openai.enqueue({ type: 'reply', text: 'It passed.' });
    const store = new MemorySessionStore();
    const first = new Agent({ model: createOpenAIResponsesAdapter({ model: 'gpt-5.6', apiKey: 'k', baseURL: openai.url }) });
    const session = await first.session({ id: 'opaque', store });
    await session.send('Did the CI log pass?');
    await session.compact();
    const anthropic = await anthropicReplay([answer('Still passing.')]);
    const second = new Agent({ model: claude(anthropic.url) });
    const switched = await second.session({ id: 'opaque', store });
    const result = await switched.send('Still passing?');
    expect(result.text).toBe('Still passing.');
    const body = anthropic.bodies[0];
    expect(JSON.stringify(body)).toContain('Did the CI log pass?');
    expect(blocksOf(body).some((block) => block.type === 'compaction')).toBe(false);
    captured.push({ kind: 'anthropic-beta', body, label: 'opaque compaction, other model' });
  });
});

describe('the captured bodies', () => {
  it('type-check against the official SDK param types', () => {
    expect(captured.length).toBeGreaterThan(10);
    expect(sdkParamErrors(captured)).toEqual([]);
  }, 120_000);
});
