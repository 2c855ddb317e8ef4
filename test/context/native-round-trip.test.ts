/**
 * The native-context round trip as the real APIs check it: what a provider's compaction
 * returned goes back the way its SDK types say (Anthropic `encrypted_content` verbatim, a
 * failed compaction as `content: null` and a no-op, no output-only `created_by` on an
 * OpenAI item), request builders never write into the stored transcript, OpenAI's
 * standalone compaction window keeps every user message, and `hybrid` sends compaction
 * or says it cannot. Anthropic streams are played by a loopback server in the recorded
 * shape (round-trip-harness.ts) with the `encrypted_content` the SDK's
 * `BetaCompactionContentBlockDelta` names; every body a test captures is type-checked
 * against the official SDK param types at the end. More adapters and paths:
 * native-round-trip-paths.test.ts.
 */
import { Agent, MemorySessionStore, type ModelRequest } from '@episodic/core';
import { createOpenAIChatAdapter, createOpenAIResponsesAdapter } from '@episodic/providers/openai';
import { describe, expect, it } from 'vitest';
import { sdkParamErrors } from '../support/sdk-param-check.js';
import { startOpenAIResponsesServer } from '../servers/openai-responses-server.js';
import {
  answer,
  blocksOf,
  breakpoints,
  claude,
  compaction,
  deepFreeze,
  finish,
  messagesOf,
  start,
  storedTranscript,
  text,
  tools,
  roundTripFile,
} from './round-trip-harness.js';

/** Every body the tests captured (type-checked in the last test) and the servers to close. */
const { captured, closers, anthropicReplay } = roundTripFile();

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
