/**
 * Anthropic's own context management end to end through the agent loop, against the
 * loopback server that models it (test/servers/anthropic-context-rules.ts): server-side
 * compaction, with a crash between the compaction response and the next call, and
 * context editing (cleared tool results recorded on the step).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, type AssistantMessage, type Message } from '@episodic/core';
import { FileSessionStore } from '@episodic/core/node';
import { createAnthropicAdapter } from '@episodic/providers/anthropic';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startAnthropicServer } from '../servers/anthropic-server.js';
import { type CapturedBody, capturedRequests, sdkParamErrors } from '../support/sdk-param-check.js';
import type { ScriptedServer } from '../servers/scripted-server.js';
import { BIG_LOG, ciLog, crashingNote, readLogTool } from './native-context-harness.js';

const model = 'claude-sonnet-4-6';
/** Every body an SDK client sent in this file, type-checked at the end. */
const captured: CapturedBody[] = [];

describe('anthropic native context management through the agent loop', () => {
  let server: ScriptedServer;
  const directories: string[] = [];
  beforeEach(async () => {
    server = await startAnthropicServer();
  });
  afterEach(async () => {
    captured.push(...capturedRequests(server.requests, 'anthropic native context'));
    await server.close();
    for (const directory of directories.splice(0)) await rm(directory, { recursive: true, force: true });
  });
  const adapter = () =>
    createAnthropicAdapter({ model, baseURL: server.url, apiKey: 'test-key', thinking: { type: 'disabled' } });

  it('compacts past the threshold, and a session resumed after a crash sends the compaction block, not the history', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'episodic-compaction-'));
    directories.push(directory);
    const note = crashingNote(directory);
    const agent = new Agent({
      model: adapter(),
      tools: [readLogTool(), note.tool],
      // Sonnet 4.6 compacts on demand by default; this is the server-side threshold compaction.
      context: { policy: 'native', native: { compaction: { threshold: 50_000, onDemand: false } } },
    });
    server.enqueue(
      { type: 'reply', toolCalls: [{ name: 'read_log', args: {} }] },
      { type: 'reply', text: 'Noting.', toolCalls: [{ name: 'note', args: {} }] },
      { type: 'reply', text: 'The build is green.' },
    );
    const session = await agent.session({ id: 'compacted', store: new FileSessionStore({ directory }) });
    const controller = new AbortController();
    const run = session.send({ role: 'user', content: 'Is CI green?' }, { signal: controller.signal }).catch(() => undefined);
    const copy = await note.snapshot;
    directories.push(copy);
    controller.abort(new Error('crash'));
    await run;

    const [first, second] = server.modelCalls();
    expect(first?.body).toMatchObject({ context_management: { edits: [{ type: 'compact_20260112', trigger: { value: 50_000 } }] } });
    expect(first?.headers['anthropic-beta']).toContain('compact-2026-01-12');
    expect(second?.context?.compacted).toBe(true);

    const resumed = await agent.session({ id: 'compacted', store: new FileSessionStore({ directory: copy }) });
    const compacting = resumed.messages.find(
      (message): message is AssistantMessage => message.role === 'assistant' && message.content[0]?.type === 'compaction',
    );
    expect(compacting?.content[0]).toMatchObject({ type: 'compaction', text: expect.stringContaining('Summary of') });
    expect(compacting?.usage?.compactionInputTokens).toBeGreaterThan(50_000);
    expect(compacting?.usage?.inputTokens).toBeLessThan(1_000);

    const result = await resumed.resume();
    expect(result.text).toBe('The build is green.');
    const third = server.modelCalls()[2];
    expect(third?.status).toBe(200);
    expect(third?.context?.compactionsSent).toEqual([compacting?.content[0]?.text]);
    expect(JSON.stringify(third?.body)).not.toContain(BIG_LOG.slice(0, 200));
    expect(third?.context?.seenTexts).not.toContain('Is CI green?');
  });

  it('a session compacted on the server, reopened where the model compacts on demand, sends its block with the edit it needs', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'episodic-compaction-'));
    directories.push(directory);
    const store = new FileSessionStore({ directory });
    // An earlier release (or `onDemand: false`) compacted this session with compact_20260112.
    const before = new Agent({
      model: adapter(),
      tools: [readLogTool()],
      context: { policy: 'native', native: { compaction: { threshold: 50_000, onDemand: false } } },
    });
    server.enqueue({ type: 'reply', toolCalls: [{ name: 'read_log', args: {} }] }, { type: 'reply', text: 'The build is red.' });
    await (await before.session({ id: 'reopened', store })).send('Is CI green?');
    expect(server.modelCalls()[1]?.context?.compacted).toBe(true);

    // The same model under its default (on-demand compaction, no threshold edit of its own).
    const after = new Agent({ model: adapter(), tools: [readLogTool()] });
    server.enqueue({ type: 'reply', text: 'Still red.' });
    const reopened = await after.session({ id: 'reopened', store });
    const result = await reopened.send('And now?');
    expect(result.text).toBe('Still red.');
    const third = server.modelCalls()[2];
    expect(third?.status).toBe(200);
    expect(third?.context?.compactionsSent).toHaveLength(1);
    expect(JSON.stringify(third?.body)).not.toContain(BIG_LOG.slice(0, 200));
    // The edit is there only so the block is read; its trigger is the model's whole window, so it never compacts again.
    expect(third?.body).toMatchObject({ context_management: { edits: [{ type: 'compact_20260112', trigger: { value: 200_000 } }] } });
    expect(third?.headers['anthropic-beta']).toContain('compact-2026-01-12');
  });

  it('pause_after_compaction: the loop records the paused compaction, then continues the step sending it back', async () => {
    const agent = new Agent({
      model: adapter(),
      tools: [readLogTool()],
      context: { policy: 'native', native: { compaction: { threshold: 50_000, pauseAfter: true, onDemand: false } } },
    });
    // The second call compacts and pauses (no scripted reply used); the third answers.
    server.enqueue({ type: 'reply', toolCalls: [{ name: 'read_log', args: {} }] }, { type: 'reply', text: 'The build is green.' });
    const session = await agent.session();
    const steps: number[] = [];
    const result = await session.send(
      { role: 'user', content: 'Is CI green?' },
      { onEvent: (event) => (event.type === 'step-finish' ? steps.push(event.step) : undefined) },
    );
    // The paused response is no step of its own: the tool step, then the answer.
    expect(steps).toEqual([1, 2]);
    expect(result.text).toBe('The build is green.');
    const [, paused, continued] = server.modelCalls();
    expect(paused?.body).toMatchObject({
      context_management: { edits: [{ type: 'compact_20260112', pause_after_compaction: true }] },
    });
    expect(paused?.context?.compacted).toBe(true);
    const assistants = session.messages.filter((message): message is AssistantMessage => message.role === 'assistant');
    expect(assistants.map((message) => message.content.map((part) => part.type))).toEqual([['tool-call'], ['compaction'], ['text']]);
    const summary = assistants[1]?.content[0]?.text;
    expect(summary).toContain('Summary of');
    // The continuing call sends the compaction back verbatim, last, and not the log it replaced.
    expect(continued?.status).toBe(200);
    expect(continued?.context?.compactionsSent).toEqual([summary]);
    const sent = continued?.body as { messages: { role: string; content: { type: string }[] }[] };
    expect(sent.messages.at(-1)).toMatchObject({ role: 'assistant', content: [{ type: 'compaction' }] });
    expect(JSON.stringify(sent)).not.toContain(BIG_LOG.slice(0, 200));
  });

  it('records on the step which tool results clear_tool_uses cleared, while the transcript keeps them', async () => {
    const agent = new Agent({
      model: adapter(),
      tools: [readLogTool(ciLog(5_000))],
      context: { policy: 'native', native: { clearToolUses: { trigger: 30_000, keep: 1, excludeTools: ['note'] } } },
    });
    server.enqueue(
      { type: 'reply', toolCalls: [{ name: 'read_log', args: {} }] },
      { type: 'reply', toolCalls: [{ name: 'read_log', args: {} }] },
      { type: 'reply', text: 'Both logs read.' },
    );
    const session = await agent.session();
    await session.send({ role: 'user', content: 'Read the log twice.' });
    const calls = server.modelCalls();
    expect(calls[2]?.headers['anthropic-beta']).toContain('context-management-2025-06-27');
    expect(calls[2]?.context?.appliedEdits).toEqual([
      { type: 'clear_tool_uses_20250919', cleared_tool_uses: 1, cleared_input_tokens: expect.any(Number) },
    ]);
    const messages: readonly Message[] = session.messages;
    const firstCall = messages.find((message) => message.role === 'tool')?.toolCallId;
    const last = messages.findLast((message): message is AssistantMessage => message.role === 'assistant');
    expect(last?.contextEdits).toEqual([
      { type: 'clear_tool_uses_20250919', clearedToolUses: 1, clearedInputTokens: expect.any(Number), toolCallIds: [firstCall] },
    ]);
    // The transcript keeps the full history: the provider cleared the result, Episodic did not.
    expect(messages.filter((message) => message.role === 'tool' && message.content === ciLog(5_000))).toHaveLength(2);
  });

  it('the server refuses context edits without their beta header and clear_thinking after another edit', async () => {
    const raw = async (body: unknown, beta?: string) =>
      fetch(`${server.url}/v1/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': 'k', ...(beta ? { 'anthropic-beta': beta } : {}) },
        body: JSON.stringify(body),
      });
    const base = { model, max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] };
    const noBeta = await raw({ ...base, context_management: { edits: [{ type: 'clear_tool_uses_20250919' }] } });
    expect(noBeta.status).toBe(400);
    const order = await raw(
      { ...base, context_management: { edits: [{ type: 'clear_tool_uses_20250919' }, { type: 'clear_thinking_20251015' }] } },
      'context-management-2025-06-27',
    );
    expect(((await order.json()) as { error: { message: string } }).error.message).toContain('must be the first edit');
    const low = await raw({ ...base, context_management: { edits: [{ type: 'compact_20260112', trigger: { type: 'input_tokens', value: 1000 } }] } }, 'compact-2026-01-12');
    expect(low.status).toBe(400);
  });
});

describe('anthropic context policy defaults', () => {
  it('Opus 4.9 packs hybrid by default: compaction at 80% of the budget, none below the 50,000 floor, nothing else', async () => {
    const server = await startAnthropicServer();
    try {
      // Opus 4.9 has the server-side threshold compaction and no on-demand compaction (docs/providers.md).
      const adapter = createAnthropicAdapter({ model: 'claude-opus-4-9', apiKey: 'k', baseURL: server.url });
      const agent = new Agent({ model: adapter });
      expect(agent.context).toBe('hybrid');
      await (await agent.session()).send({ role: 'user', content: 'hi' });
      await (await new Agent({ model: adapter, context: { budget: 30_000 } }).session()).send({ role: 'user', content: 'hi' });
      const [large, small] = server.modelCalls();
      expect((large?.body as { context_management?: unknown }).context_management).toEqual({
        edits: [{ type: 'compact_20260112', trigger: { type: 'input_tokens', value: Math.floor(agent.budget * 0.8) } }],
      });
      expect(small?.body).not.toHaveProperty('context_management');
      expect(small?.headers['anthropic-beta'] ?? '').not.toContain('compact');
      const haiku = new Agent({ model: createAnthropicAdapter({ model: 'claude-haiku-4-5', apiKey: 'k' }) });
      expect(haiku.context).toBe('packer');
      // Sonnet 4.6 has on-demand compaction: under its default `hybrid` it sends no threshold compaction.
      const sonnet = new Agent({ model: createAnthropicAdapter({ model, apiKey: 'k', baseURL: server.url }) });
      expect(sonnet.context).toBe('hybrid');
      await (await sonnet.session()).send({ role: 'user', content: 'hi' });
      expect(server.modelCalls()[2]?.body).not.toHaveProperty('context_management');
    } finally {
      captured.push(...capturedRequests(server.requests, 'anthropic defaults'));
      await server.close();
    }
  });
});

describe('the captured bodies', () => {
  it('type-check against the official SDK param types', () => {
    expect(captured.length).toBeGreaterThan(5);
    expect(sdkParamErrors(captured)).toEqual([]);
  }, 120_000);
});
