/**
 * Anthropic on-demand compaction (beta `compact-2026-09-04`) end to end: the agent loop's
 * compaction loop (OnDemandCompactor) through the official SDK client against the strict
 * loopback server (test/servers/anthropic-on-demand.ts). The compaction request's body and
 * a later request carrying the block are type-checked against the SDK's beta param types;
 * the swap happens at a user boundary, keeps the recent turns word for word, never inside
 * a bound-thinking step; a crash before the swap loses nothing; a failed compaction is a
 * no-op whose cost is still counted.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, type AgentEvent, type AgentTool, type AssistantMessage, type Message, type SessionStore } from '@episodic/core';
import { FileSessionStore } from '@episodic/core/node';
import { createAnthropicAdapter } from '@episodic/providers/anthropic';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type AnthropicServer, startAnthropicServer } from '../servers/anthropic-server.js';
import type { RecordedRequest } from '../servers/scripted-server.js';
import { type CapturedBody, capturedRequests, sdkParamErrors } from '../support/sdk-param-check.js';

type WireMessage = { role: string; content: string | { type: string; [key: string]: unknown }[] };
const messagesOf = (request: RecordedRequest | undefined) => ((request?.body as { messages?: WireMessage[] }).messages ?? []);
const textsOf = (request: RecordedRequest | undefined) =>
  messagesOf(request).flatMap((message) =>
    typeof message.content === 'string' ? [message.content] : message.content.flatMap((block) => (block.type === 'text' ? [String(block.text)] : [])),
  );
const compactionRequests = (server: AnthropicServer) =>
  server.requests.filter((request) => (request.body as { compaction?: unknown }).compaction !== undefined);
const onDemandMessages = (messages: readonly Message[]) =>
  messages.filter(
    (message): message is AssistantMessage =>
      message.role === 'assistant' && message.content.some((part) => part.type === 'compaction' && part.summarizedMessages !== undefined),
  );
/** Resolves once `condition` holds (a background request reaches the server a little after the step that started it). */
async function until(condition: () => boolean): Promise<void> {
  for (let tries = 0; !condition(); tries += 1) {
    if (tries > 200) throw new Error('timed out waiting for the condition');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A gate the test opens: the compaction answer waits for it. */
function gate(): { open: () => void; until: Promise<void> } {
  let open = () => {};
  const until = new Promise<void>((resolve) => (open = resolve));
  return { open, until };
}

/** Every body an SDK client sent in the loop tests, type-checked at the end. */
const everyBody: CapturedBody[] = [];

describe('anthropic on-demand compaction through the agent loop', () => {
  let server: AnthropicServer;
  const directories: string[] = [];
  beforeEach(async () => {
    server = await startAnthropicServer();
  });
  afterEach(async () => {
    everyBody.push(...capturedRequests(server.requests, 'on-demand loop'));
    await server.close();
    for (const directory of directories.splice(0)) await rm(directory, { recursive: true, force: true });
  });
  const adapter = (model = 'claude-sonnet-4-6', extra: { prefixMismatch?: 'error' } = {}) =>
    createAnthropicAdapter({ model, baseURL: server.url, apiKey: 'test-key', ...extra });
  const agentOn = (model: ReturnType<typeof adapter>, compaction: Record<string, unknown> = {}, tools: AgentTool[] = []) =>
    new Agent({ model, tools, context: 'hybrid', nativeContext: { compaction: { threshold: 1, ...compaction } } });
  const replies = (...texts: string[]) => server.enqueue(...texts.map((text) => ({ type: 'reply' as const, text })));

  it('compacts in the background, swaps the block in at the next user boundary, and keeps the recent turns verbatim', async () => {
    const held = gate();
    server.compactions.enqueue({ until: held.until });
    replies('a1', 'a2', 'a3', 'a4', 'a5');
    const session = await agentOn(adapter()).session();
    for (const text of ['u1', 'u2', 'u3']) await session.send(text);
    // After the third episode the first one is summarized (two episodes kept); the answer is held.
    await until(() => compactionRequests(server).length === 1);
    const [request] = compactionRequests(server);
    expect(textsOf(request)).toEqual(['u1', 'a1']);
    expect(request?.body).toMatchObject({ compaction: { type: 'summarize' }, stream: true });
    expect(request?.body).not.toHaveProperty('context_management');
    expect(request?.headers['anthropic-beta']).toContain('compact-2026-09-04');
    // The conversation goes on on its full history while the summary is written.
    await session.send('u4');
    expect(onDemandMessages(session.messages)).toEqual([]);
    expect(textsOf(server.modelCalls()[3])).toEqual(['u1', 'a1', 'u2', 'a2', 'u3', 'a3', 'u4']);
    held.open();
    await session.settleSummaries();
    await session.send('u5');
    // Swapped in before u5 was saved: the stored block names the two messages it stands for.
    const [swapped] = onDemandMessages(session.messages);
    expect(swapped?.content[0]).toMatchObject({ type: 'compaction', summarizedMessages: 2, text: expect.stringContaining('u1') });
    expect(session.messages.indexOf(swapped as Message)).toBe(8);
    expect(session.messages[9]).toMatchObject({ role: 'user', content: 'u5' });
    // u1 and a1 stay stored but are not sent; the block goes first, every later turn word for word.
    expect(session.messages.slice(0, 2)).toMatchObject([{ content: 'u1' }, { role: 'assistant' }]);
    const fifth = server.modelCalls()[4];
    expect(fifth?.status).toBe(200);
    expect(messagesOf(fifth)[0]).toEqual({ role: 'assistant', content: [swapped?.content[0]?.providerData?.block] });
    expect(textsOf(fifth)).toEqual(['u2', 'a2', 'u3', 'a3', 'u4', 'a4', 'u5']);
    expect(fifth?.context?.compactionsSent).toEqual([swapped?.content[0]?.text]);
    expect(fifth?.headers['anthropic-beta']).toContain('compact-2026-09-04');
    // Counted: the compaction pass is billed, and the session's totals have it.
    expect(swapped?.usage?.compactionInputTokens).toBeGreaterThan(0);
    expect(swapped?.usage?.costUsd).toBeGreaterThan(0);
    const calls = session.messages.filter((message) => message.role === 'assistant');
    expect(session.totals.calls).toBe(calls.length);
  });

  it('sends bodies the SDK beta param types accept: the compaction request and a request carrying the block', async () => {
    replies('a1', 'a2', 'a3', 'a4');
    const session = await agentOn(adapter(), { background: false }).session();
    for (const text of ['u1', 'u2', 'u3', 'u4']) await session.send(text);
    const captured: CapturedBody[] = server.requests
      .filter((request) => request.status === 200)
      .map((request, index) => ({ kind: 'anthropic-beta' as const, body: request.body, label: `request ${index}` }));
    expect(captured.some((entry) => (entry.body as { compaction?: unknown }).compaction)).toBe(true);
    expect(captured.some((entry) => JSON.stringify(entry.body).includes('"signature"'))).toBe(true);
    expect(sdkParamErrors(captured)).toEqual([]);
  });

  it('never swaps inside a bound-thinking step: the tool loop keeps its thinking, the block comes after the episode', async () => {
    const held = gate();
    server.compactions.enqueue({ until: held.until });
    const check: AgentTool = {
      spec: { name: 'check', description: 'Checks.', inputSchema: { type: 'object', properties: {} } },
      execute: async () => {
        // The summary arrives while a step's thinking waits for this result.
        held.open();
        await new Promise((resolve) => setTimeout(resolve, 50));
        return { content: 'ok' };
      },
    };
    const model = adapter('claude-fable-5-1', { prefixMismatch: 'error' });
    const session = await agentOn(model, {}, [check]).session();
    server.enqueue(
      ...['a1', 'a2', 'a3'].map((text) => ({ type: 'reply' as const, reasoning: [`thinking ${text}`], text })),
      { type: 'reply', reasoning: ['plan'], toolCalls: [{ name: 'check', args: {} }] },
      { type: 'reply', reasoning: ['done'], text: 'a4' },
      { type: 'reply', reasoning: ['next'], text: 'a5' },
    );
    for (const text of ['u1', 'u2', 'u3', 'u4', 'u5']) await session.send(text);
    const calls = server.modelCalls();
    expect(calls.map((call) => call.status)).toEqual([200, 200, 200, 200, 200, 200]);
    // The continuation of the tool step went out unchanged, with its thinking.
    expect(calls[4]?.binding).toMatchObject({ failedBlocks: 0, dropped: 0, lostLastThinking: false });
    expect(messagesOf(calls[4]).some((message) => Array.isArray(message.content) && message.content[0]?.type === 'compaction')).toBe(false);
    // The block joined at the user boundary after the tool episode, and the next episode starts with it.
    const [swapped] = onDemandMessages(session.messages);
    const at = session.messages.indexOf(swapped as Message);
    expect(session.messages[at - 1]).toMatchObject({ role: 'assistant', content: expect.arrayContaining([{ type: 'text', text: 'a4' }]) });
    expect(session.messages[at + 1]).toMatchObject({ role: 'user', content: 'u5' });
    expect(messagesOf(calls[5])[0]?.content).toMatchObject([{ type: 'compaction' }]);
  });

  it('a crash between the compaction answer and its swap loses nothing; the reopened session compacts once and goes on from the block', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'episodic-on-demand-'));
    directories.push(directory);
    const store = new FileSessionStore({ directory });
    // The process dies while the swap is written: the compaction line never reaches the store.
    const crashing: SessionStore = Object.create(store, {
      append: {
        value: async (id: string, messages: readonly Message[], options: unknown) => {
          if (onDemandMessages(messages).length > 0) throw new Error('crash before the swap');
          return store.append(id, messages, options as Parameters<SessionStore['append']>[2]);
        },
      },
    });
    replies('a1', 'a2', 'a3', 'a4');
    const agent = agentOn(adapter(), { background: false });
    const first = await agent.session({ id: 'od', store: crashing });
    for (const text of ['u1', 'u2']) await first.send(text);
    await expect(first.send('u3')).rejects.toThrow();
    expect(compactionRequests(server)).toHaveLength(1);

    const reopened = await agent.session({ id: 'od', store });
    expect(reopened.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user', 'assistant']);
    await reopened.send('u4');
    // Asked again at the reopened session's first user boundary (harmless: the same messages), swapped once.
    const [, again, next] = compactionRequests(server);
    expect(textsOf(again)).toEqual(['u1', 'a1']);
    expect(textsOf(server.modelCalls().at(-1))).toEqual(['u2', 'a2', 'u3', 'a3', 'u4']);
    expect(messagesOf(server.modelCalls().at(-1))[0]?.content).toMatchObject([{ type: 'compaction' }]);
    // The next compaction (after u4, two episodes kept) summarizes the block and what follows it, not u1 and a1 again.
    expect(messagesOf(next)[0]?.content).toMatchObject([{ type: 'compaction' }]);
    expect(textsOf(next)).toEqual(['u2', 'a2']);
    expect(onDemandMessages(reopened.messages).map((message) => message.content[0]?.summarizedMessages)).toEqual([2, 4]);

    // Reopened after the swaps: the stored blocks are used, the newest alone, and nothing is compacted twice.
    const last = await agent.session({ id: 'od', store });
    server.compactions.enqueue({ outcome: 'max_tokens' });
    replies('a5');
    await last.send('u5');
    const u5 = server.modelCalls().at(-1);
    expect(u5?.status).toBe(200);
    expect(textsOf(u5)).toEqual(['u3', 'a3', 'u4', 'a4', 'u5']);
    expect(JSON.stringify(u5?.body).split('"type":"compaction"')).toHaveLength(2);
    expect(compactionRequests(server)).toHaveLength(4);
    expect(textsOf(compactionRequests(server)[3])).toEqual(['u3', 'a3']);
  });

  it('waits for the compaction in flight only when the last call filled the budget', async () => {
    const held = gate();
    server.compactions.enqueue({ until: held.until });
    server.enqueue({ type: 'reply', text: 'a1' }, { type: 'reply', text: 'a2' }, { type: 'reply', text: 'a3', usage: { output: 5_000 } }, { type: 'reply', text: 'a4' });
    const session = await new Agent({
      model: adapter(),
      budget: 4_000,
      context: 'hybrid',
      nativeContext: { compaction: { threshold: 1 } },
    }).session();
    for (const text of ['u1', 'u2', 'u3']) await session.send(text);
    // a3's call (input and 5,000 output tokens) filled the 4,000-token budget: u4 waits for the summary.
    setTimeout(held.open, 100);
    await session.send('u4');
    const u4 = server.modelCalls().at(-1);
    expect(messagesOf(u4)[0]?.content).toMatchObject([{ type: 'compaction' }]);
    expect(textsOf(u4)).toEqual(['u2', 'a2', 'u3', 'a3', 'u4']);
  });

  it('a transient failure (529 compaction_unavailable) is asked again at the next boundary', async () => {
    server.compactions.enqueue({ outcome: 'unavailable' });
    replies('a1', 'a2', 'a3', 'a4');
    const events: AgentEvent[] = [];
    const session = await agentOn(adapter(), { background: false }).session();
    for (const text of ['u1', 'u2', 'u3', 'u4']) await session.send(text, { onEvent: (event) => events.push(event) });
    const [first, second] = compactionRequests(server);
    expect([first?.status, second?.status]).toEqual([529, 200]);
    expect(textsOf(second)).toEqual(textsOf(first));
    expect(events.some((event) => event.type === 'warning' && event.code === 'compaction-failed')).toBe(true);
    expect(messagesOf(server.modelCalls().at(-1))[0]?.content).toMatchObject([{ type: 'compaction' }]);
  });

  it('a failed compaction is a no-op: stored for its cost, never sent, the history goes whole, and a later episode asks again', async () => {
    server.compactions.enqueue({ outcome: 'null-content' }, { outcome: 'max_tokens' }, { outcome: 'max_tokens' });
    replies('a1', 'a2', 'a3', 'a4', 'a5');
    const events: AgentEvent[] = [];
    const session = await agentOn(adapter(), { background: false }).session();
    for (const text of ['u1', 'u2', 'u3', 'u4', 'u5']) await session.send(text, { onEvent: (event) => events.push(event) });
    const failed = onDemandMessages(session.messages);
    expect(failed.map((message) => message.content[0]?.failed)).toEqual([true, true, true]);
    expect(failed[1]?.content[0]?.providerData).toMatchObject({ stopReason: 'max-tokens' });
    expect(failed[0]?.usage?.compactionInputTokens).toBeGreaterThan(0);
    expect(failed[0]?.usage?.costUsd).toBeGreaterThan(0);
    for (const call of server.modelCalls()) {
      expect(call.status).toBe(200);
      expect(JSON.stringify(call.body)).not.toContain('"compaction"');
    }
    expect(textsOf(server.modelCalls().at(-1))).toEqual(['u1', 'a1', 'u2', 'a2', 'u3', 'a3', 'u4', 'a4', 'u5']);
    // Each attempt summarized more than the one before (the cut moved on; a failed cut is not asked again).
    expect(compactionRequests(server).map((request) => textsOf(request).length)).toEqual([2, 4, 6]);
    expect(events.filter((event) => event.type === 'warning' && event.code === 'compaction-failed')).toHaveLength(3);
  });
});

describe('session.compact() on a model with on-demand compaction', () => {
  it('saves a block that stands for the whole transcript; the next call sends it first and nothing it replaced', async () => {
    const server = await startAnthropicServer();
    try {
      const model = createAnthropicAdapter({ model: 'claude-opus-5', baseURL: server.url, apiKey: 'test-key' });
      server.enqueue({ type: 'reply', text: 'a1' }, { type: 'reply', text: 'a2' });
      const session = await new Agent({ model }).session();
      await session.send('u1');
      const saved = await session.compact();
      expect(saved.content[0]).toMatchObject({ type: 'compaction', summarizedMessages: 2 });
      await session.send('u2');
      const last = server.modelCalls().at(-1);
      expect(last?.status).toBe(200);
      expect(messagesOf(last)[0]?.content).toMatchObject([{ type: 'compaction', signature: expect.any(String) }]);
      expect(textsOf(last)).toEqual(['u2']);
    } finally {
      await server.close();
    }
  });
});

describe('the loop tests\' bodies', () => {
  it('type-check against the SDK beta param types (crash, failure and whole-transcript cases too)', () => {
    expect(everyBody.length).toBeGreaterThan(30);
    expect(sdkParamErrors(everyBody)).toEqual([]);
  }, 120_000);
});

describe('the strict server refuses what the API refuses around on-demand compaction', () => {
  let server: AnthropicServer;
  beforeEach(async () => {
    server = await startAnthropicServer();
  });
  afterEach(async () => server.close());
  const post = async (body: unknown, beta = 'compact-2026-09-04') => {
    const response = await fetch(`${server.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'k', ...(beta ? { 'anthropic-beta': beta } : {}) },
      body: JSON.stringify(body),
    });
    // A conversation request is answered with a stream; a refusal with JSON.
    const text = await response.text();
    type Refusal = { error: { message: string; details?: { error_code?: string } } };
    const error = response.status === 200 ? undefined : (JSON.parse(text) as Refusal).error;
    return { status: response.status, error };
  };
  const base = { model: 'claude-sonnet-4-6', max_tokens: 4096, messages: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: 'hello' }] };

  it('checks the compaction request and the blocks later requests carry', async () => {
    expect((await post({ ...base, compaction: { type: 'summarize' } }, '')).error?.message).toContain('requires anthropic-beta');
    const withEdits = await post({ ...base, compaction: { type: 'summarize' }, context_management: { edits: [] } });
    expect(withEdits.error?.message).toContain('context_management');
    const open = { ...base, messages: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'x', input: {} }] }] };
    expect((await post({ ...open, compaction: { type: 'summarize' } })).error?.details?.error_code).toBe('compaction_incomplete_turn');
    const ok = await fetch(`${server.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'k', 'anthropic-beta': 'compact-2026-09-04' },
      body: JSON.stringify({ ...base, compaction: { type: 'summarize' } }),
    });
    const { content, stop_reason: stop } = (await ok.json()) as { content: Record<string, unknown>[]; stop_reason: string };
    expect(stop).toBe('compaction');
    const block = content[0] as Record<string, unknown>;
    const next = (blocks: unknown[], extra: WireMessage[] = []) => ({ ...base, messages: [...extra, { role: 'assistant', content: blocks }, { role: 'user', content: 'go on' }] });
    expect((await post(next([block]))).status).toBe(200);
    expect((await post(next([block]), '')).error?.message).toContain("'compaction'");
    expect((await post(next([{ ...block, content: 'edited' }]))).error?.details?.error_code).toBe('compaction_content_mismatch');
    expect((await post(next([{ ...block, signature: 'forged' }]))).error?.details?.error_code).toBe('compaction_signature_invalid');
    expect((await post(next([{ ...block, citations: null }]))).error?.message).toContain('Extra inputs');
    expect((await post(next([block], [{ role: 'user', content: 'old' }]))).error?.details?.error_code).toBe('compaction_block_misplaced');
  });
});
