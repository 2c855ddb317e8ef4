/**
 * Portable compaction checkpoints through the real adapters on loopback servers: an
 * OpenAI Responses model compacts (an opaque `compaction` item, `encrypted_content`),
 * Episodic's summarizer writes the text summary of the same range beside it, and a
 * model that cannot read the item (a fallback to Anthropic during the primary's outage,
 * or a session reopened on another provider) gets that text in its place; with no
 * summary yet, the messages it replaced (within budget) or a summary made before the
 * call, with a typed warning. Every captured body is type-checked against the SDK
 * param types, and the stored transcript is frozen while the requests are built.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, type AgentEvent, type Message, type SummaryMessage } from '@episodic/core';
import { FileSessionStore } from '@episodic/core/node';
import { isCheckpointWarning } from '@episodic/core/packing';
import { createAnthropicAdapter } from '@episodic/providers/anthropic';
import { createGoogleAdapter } from '@episodic/providers/google';
import { createOpenAIResponsesAdapter } from '@episodic/providers/openai';
import { afterEach, describe, expect, it } from 'vitest';
import { type CapturedBody, sdkParamErrors } from '../support/sdk-param-check.js';
import { startAnthropicServer } from '../servers/anthropic-server.js';
import { startGeminiServer } from '../servers/gemini-server.js';
import { type OpenAIScriptedServer, startOpenAIResponsesServer } from '../servers/openai-responses-server.js';
import type { ScriptedServer } from '../servers/scripted-server.js';
import { ciLog, readLogTool } from './native-context-harness.js';

const servers: ScriptedServer[] = [];
const directories: string[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
  for (const directory of directories.splice(0)) await rm(directory, { recursive: true, force: true });
});
async function openaiServer(): Promise<OpenAIScriptedServer> {
  const server = await startOpenAIResponsesServer();
  servers.push(server);
  return server;
}
async function anthropicServer(): Promise<ScriptedServer> {
  const server = await startAnthropicServer();
  servers.push(server);
  return server;
}
async function directory(): Promise<string> {
  const made = await mkdtemp(join(tmpdir(), 'episodic-checkpoints-'));
  directories.push(made);
  return made;
}

const gpt = (server: ScriptedServer, model = 'gpt-5.6') =>
  createOpenAIResponsesAdapter({ model, baseURL: server.url, apiKey: 'test-key', maxRetries: 0 });
const claude = (server: ScriptedServer) =>
  createAnthropicAdapter({ model: 'claude-sonnet-4-6', baseURL: server.url, apiKey: 'test-key', thinking: { type: 'disabled' }, maxRetries: 0 });
const retry = { maxRetries: 0, sleep: async () => {} };
/** Distinct lines, so a test can tell whether the replaced history was sent. */
const LOG = ciLog(3_000);
const SUMMARY = 'Checkpoint: the user asked whether CI is green; read_log showed every step passed.';

function deepFreeze<T>(value: T): T {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return value;
  for (const child of Object.values(value)) deepFreeze(child);
  return Object.freeze(value);
}

/** An OpenAI session that compacted: a tool call, then an answer whose response carried the compaction item. */
async function compactedSession(primary: OpenAIScriptedServer, options: { summarizer?: ScriptedServer; fallback?: ScriptedServer }) {
  const store = new FileSessionStore({ directory: await directory() });
  const agent = new Agent({
    model: gpt(primary),
    tools: [readLogTool(LOG)],
    context: 'hybrid',
    budget: 60_000,
    nativeContext: { compaction: { threshold: 2_000 } },
    retry,
    store,
    ...(options.summarizer ? { summarizer: { model: gpt(options.summarizer, 'gpt-5-mini') } } : {}),
    ...(options.fallback ? { fallback: [claude(options.fallback)] } : {}),
  });
  primary.enqueue(
    { type: 'reply', toolCalls: [{ name: 'read_log', args: {} }] },
    { type: 'reply', text: 'CI is green.' },
  );
  const session = await agent.session({ id: 'compacted' });
  await session.send('Is CI green?');
  const at = session.messages.findIndex(
    (message) => message.role === 'assistant' && message.content.some((part) => part.type === 'compaction'),
  );
  expect(at, 'the second call compacted').toBeGreaterThan(0);
  return { agent, session, store, at };
}

const checkpointLines = (messages: readonly Message[]) =>
  messages.filter((message): message is SummaryMessage => message.role === 'summary' && message.checkpoint !== undefined);

describe('portable compaction checkpoints', () => {
  it('a fallback to Anthropic during the primary\'s outage continues from the text summary, not the item or the history', async () => {
    const primary = await openaiServer();
    const summarizer = await openaiServer();
    const fallback = await anthropicServer();
    summarizer.enqueue({ type: 'reply', text: SUMMARY });
    const { session, store, at } = await compactedSession(primary, { summarizer, fallback });
    // Written in the background after the episode, appended at the next safe point.
    await session.settleSummaries();
    const summaryCall = summarizer.modelCalls()[0];
    expect(summaryCall?.status).toBe(200);
    expect(JSON.stringify(summaryCall?.body)).toContain('line 0: step passed');

    const item = session.messages[at]?.role === 'assistant' ? session.messages[at].content[0] : undefined;
    const stored = JSON.stringify(item);
    for (const message of session.messages) deepFreeze(message);
    primary.enqueue({ type: 'error', status: 503 });
    fallback.enqueue({ type: 'reply', text: 'Deploy is next.' });
    const events: AgentEvent[] = [];
    const result = await session.send('And the deploy?', { onEvent: (event) => events.push(event) });
    expect(result.text).toBe('Deploy is next.');
    expect(events.some((event) => event.type === 'model-fallback')).toBe(true);
    expect(events.filter((event) => isCheckpointWarning(event))).toEqual([]);

    const call = fallback.modelCalls()[0];
    expect(call?.status).toBe(200);
    const body = JSON.stringify(call?.body);
    expect(body).toContain(SUMMARY);
    expect(body).not.toContain('line 0: step passed');
    expect(body).not.toContain('encrypted_content');
    // The summary line is in the transcript, names the item, and survives a reload; the item is unchanged.
    const [line] = checkpointLines(session.messages);
    const id = (item?.providerData as { item?: { id?: string } } | undefined)?.item?.id;
    expect(line).toMatchObject({ content: SUMMARY, checkpoint: { message: at, id }, model: { provider: 'openai', id: 'gpt-5-mini' } });
    expect(line?.usage?.inputTokens).toBeGreaterThan(0);
    expect(JSON.stringify(session.messages[at]?.role === 'assistant' ? session.messages[at].content[0] : undefined)).toBe(stored);
    const reloaded = await store.load('compacted');
    expect(checkpointLines(reloaded?.messages ?? [])).toEqual([line]);

    const bodies: CapturedBody[] = [
      ...fallback.modelCalls().map((entry) => ({ kind: 'anthropic-beta' as const, body: entry.body, label: 'fallback with checkpoint' })),
      ...[...primary.modelCalls(), ...summarizer.modelCalls()]
        .filter((entry) => entry.status === 200)
        .map((entry) => ({ kind: 'openai-responses' as const, body: entry.body, label: 'openai call' })),
    ];
    expect(sdkParamErrors(bodies)).toEqual([]);
  });

  it('the model that made the item still gets the item, not the summary', async () => {
    const primary = await openaiServer();
    const summarizer = await openaiServer();
    summarizer.enqueue({ type: 'reply', text: SUMMARY });
    const { session } = await compactedSession(primary, { summarizer });
    await session.settleSummaries();
    primary.enqueue({ type: 'reply', text: 'Deploy is next.' });
    await session.send('And the deploy?');
    const last = primary.modelCalls().at(-1);
    expect(last?.status).toBe(200);
    expect(last?.context?.compactionsSent).toHaveLength(1);
    expect(JSON.stringify(last?.body)).not.toContain(SUMMARY);
    expect(checkpointLines(session.messages)).toHaveLength(1);
  });

  it('reopened on Gemini with a hand-off: the summary written beside the item is what Gemini reads', async () => {
    const primary = await openaiServer();
    const summarizer = await openaiServer();
    summarizer.enqueue({ type: 'reply', text: SUMMARY });
    const { session: first, store } = await compactedSession(primary, { summarizer });
    await first.settleSummaries();
    // The line joins the transcript at the next safe point: the start of the next call.
    primary.enqueue({ type: 'reply', text: 'Deploy is next.' });
    await first.send('And the deploy?');
    expect(checkpointLines(first.messages)).toHaveLength(1);

    const gemini = await startGeminiServer();
    servers.push(gemini);
    const agent = new Agent({
      model: createGoogleAdapter({ model: 'gemini-2.5-flash', baseURL: gemini.url, apiKey: 'test-key' }),
      tools: [readLogTool(LOG)],
      store,
      retry,
    });
    const session = await agent.session({ id: 'compacted', handoff: true });
    gemini.enqueue({ type: 'reply', text: 'Rollback is ready.' });
    const events: AgentEvent[] = [];
    const result = await session.send('Is a rollback ready?', { onEvent: (event) => events.push(event) });
    expect(result.text).toBe('Rollback is ready.');
    expect(events.filter((event) => isCheckpointWarning(event))).toEqual([]);
    const call = gemini.modelCalls()[0];
    expect(call?.status).toBe(200);
    const body = call?.body as { contents: unknown[] };
    expect(JSON.stringify(body)).toContain(SUMMARY);
    expect(JSON.stringify(body)).not.toContain('line 0: step passed');
    expect(JSON.stringify(body)).not.toContain('encrypted_content');
    expect(sdkParamErrors([{ kind: 'google-contents', body: body.contents, label: 'gemini after checkpoint' }])).toEqual([]);
  });

  it('reopened on another provider with no summary yet: the replaced messages when they fit, a typed warning says so', async () => {
    const primary = await openaiServer();
    const { store } = await compactedSession(primary, {});
    const other = await anthropicServer();
    const agent = new Agent({ model: claude(other), tools: [readLogTool(LOG)], budget: 150_000, store, retry });
    const session = await agent.session({ id: 'compacted' });
    other.enqueue({ type: 'reply', text: 'Deploy is next.' });
    const events: AgentEvent[] = [];
    await session.send('And the deploy?', { onEvent: (event) => events.push(event) });
    const warnings = events.filter((event) => isCheckpointWarning(event));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ checkpoint: { sent: 'originals', producer: { provider: 'openai', id: 'gpt-5.6' } } });
    const call = other.modelCalls()[0];
    expect(call?.status).toBe(200);
    expect(JSON.stringify(call?.body)).toContain('line 0: step passed');
    expect(sdkParamErrors([{ kind: 'anthropic-beta', body: call?.body, label: 'originals' }])).toEqual([]);
    // Said once: the next call sends the same and does not warn again.
    other.enqueue({ type: 'reply', text: 'Yes.' });
    const later: AgentEvent[] = [];
    await session.send('Sure?', { onEvent: (event) => later.push(event) });
    expect(JSON.stringify(other.modelCalls()[1]?.body)).toContain('line 0: step passed');
    expect(later.filter((event) => isCheckpointWarning(event))).toEqual([]);
  });

  it('reopened on another provider with no summary and a budget the replaced messages do not fit: a summary made first, then kept', async () => {
    const primary = await openaiServer();
    const { store, at } = await compactedSession(primary, {});
    const other = await anthropicServer();
    const agent = new Agent({ model: claude(other), tools: [readLogTool(LOG)], budget: 2_500, store, retry });
    const session = await agent.session({ id: 'compacted' });
    // The agent's own model writes it (no summarizer configured), before the call that needs it.
    other.enqueue({ type: 'reply', text: SUMMARY }, { type: 'reply', text: 'Deploy is next.' });
    const events: AgentEvent[] = [];
    const result = await session.send('And the deploy?', { onEvent: (event) => events.push(event) });
    expect(result.text).toBe('Deploy is next.');
    const warnings = events.filter((event) => isCheckpointWarning(event));
    expect(warnings.map((event) => event.checkpoint.sent)).toEqual(['summary-made']);
    const [summaryCall, answerCall] = other.modelCalls();
    expect(JSON.stringify(summaryCall?.body)).toContain('line 0: step passed');
    expect(JSON.stringify(answerCall?.body)).toContain(SUMMARY);
    expect(JSON.stringify(answerCall?.body)).not.toContain('line 0: step passed');
    expect(checkpointLines((await store.load('compacted'))?.messages ?? [])).toMatchObject([{ content: SUMMARY, checkpoint: { message: at } }]);
    expect(
      sdkParamErrors(other.modelCalls().map((entry) => ({ kind: 'anthropic-beta' as const, body: entry.body, label: 'made' }))),
    ).toEqual([]);
  });
  it('when the summary cannot be made either, the replaced messages go packed to the budget, and the warning says why', async () => {
    const primary = await openaiServer();
    const { store } = await compactedSession(primary, {});
    const other = await anthropicServer();
    const agent = new Agent({ model: claude(other), tools: [readLogTool(LOG)], budget: 2_500, store, retry });
    const session = await agent.session({ id: 'compacted' });
    other.enqueue({ type: 'error', status: 500 }, { type: 'reply', text: 'Deploy is next.' });
    const events: AgentEvent[] = [];
    const result = await session.send('And the deploy?', { onEvent: (event) => events.push(event) });
    expect(result.text).toBe('Deploy is next.');
    const [warning] = events.filter((event) => isCheckpointWarning(event));
    expect(warning?.checkpoint.sent).toBe('originals-over-budget');
    expect(warning?.message).toMatch(/failed \(.+\).*packed to the budget/);
    // No summary line was kept, and the answer went without one.
    expect(checkpointLines(session.messages)).toEqual([]);
    const answer = other.modelCalls().at(-1);
    expect(answer?.status).toBe(200);
    expect(JSON.stringify(answer?.body)).not.toContain(SUMMARY);
  });
  it('a run aborted while the summary is made ends as aborted, without a fallback or its warning', async () => {
    const primary = await openaiServer();
    const { store } = await compactedSession(primary, {});
    const other = await anthropicServer();
    const agent = new Agent({ model: claude(other), tools: [readLogTool(LOG)], budget: 2_500, store, retry });
    const session = await agent.session({ id: 'compacted' });
    other.enqueue({ type: 'stall', text: 'Checkpoint: ' });
    const controller = new AbortController();
    const events: AgentEvent[] = [];
    const run = session.send('And the deploy?', { signal: controller.signal, onEvent: (event) => events.push(event) });
    await expect.poll(() => other.modelCalls().length).toBe(1);
    controller.abort(new Error('user stopped'));
    await expect(run).rejects.toMatchObject({ code: 'run_aborted' });
    expect(events.filter((event) => isCheckpointWarning(event))).toEqual([]);
    expect(other.modelCalls()).toHaveLength(1);
  });
});
