/**
 * OpenAI's own context management end to end through the agent loop, against the
 * loopback Responses server that models it (test/servers/openai-responses-compaction.ts):
 * `reasoning.context`, and server-side compaction with a crash between the compaction
 * response and the next call.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, type AssistantMessage } from '@episodic/core';
import { FileSessionStore } from '@episodic/core/node';
import { createOpenAIResponsesAdapter } from '@episodic/providers/openai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type OpenAIScriptedServer, startOpenAIResponsesServer } from '../servers/openai-responses-server.js';
import { type CapturedBody, capturedRequests, sdkParamErrors } from '../support/sdk-param-check.js';
import { BIG_LOG, crashingNote, readLogTool } from './native-context-harness.js';

/** Every body an SDK client sent in this file, type-checked at the end. */
const captured: CapturedBody[] = [];

describe('openai native context management through the agent loop', () => {
  let server: OpenAIScriptedServer;
  const directories: string[] = [];
  beforeEach(async () => {
    server = await startOpenAIResponsesServer();
  });
  afterEach(async () => {
    captured.push(...capturedRequests(server.requests, 'openai native context'));
    await server.close();
    for (const directory of directories.splice(0)) await rm(directory, { recursive: true, force: true });
  });
  const adapter = (model = 'gpt-5.6') => createOpenAIResponsesAdapter({ model, baseURL: server.url, apiKey: 'test-key' });

  it('compacts past the threshold; resumed after a crash, the session sends the compaction item verbatim and not what it replaced', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'episodic-openai-compaction-'));
    directories.push(directory);
    const note = crashingNote(directory);
    const agent = new Agent({
      model: adapter(),
      tools: [readLogTool(), note.tool],
      context: { policy: 'native', native: { compaction: { threshold: 40_000 }, reasoningContext: 'all-turns' } },
    });
    server.enqueue(
      { type: 'reply', reasoning: ['Read the log.'], toolCalls: [{ name: 'read_log', args: {} }] },
      { type: 'reply', reasoning: ['Note it.'], toolCalls: [{ name: 'note', args: {} }] },
      { type: 'reply', reasoning: ['Done.'], text: 'The build is green.' },
    );
    const session = await agent.session({ id: 'compacted', store: new FileSessionStore({ directory }) });
    const controller = new AbortController();
    const run = session.send({ role: 'user', content: 'Is CI green?' }, { signal: controller.signal }).catch(() => undefined);
    const copy = await note.snapshot;
    directories.push(copy);
    controller.abort(new Error('crash'));
    await run;

    const [first, second] = server.modelCalls();
    expect(first?.body).toMatchObject({
      context_management: [{ type: 'compaction', compact_threshold: 40_000 }],
      reasoning: { context: 'all_turns' },
    });
    expect(second?.context?.compacted).toBe(true);

    const resumed = await agent.session({ id: 'compacted', store: new FileSessionStore({ directory: copy }) });
    const compacting = resumed.messages.find(
      (message): message is AssistantMessage =>
        message.role === 'assistant' && message.content.some((part) => part.type === 'compaction'),
    );
    const part = compacting?.content.find((candidate) => candidate.type === 'compaction');
    const item = part?.providerData.item as { encrypted_content?: string; id?: string } | undefined;
    expect(item?.id).toMatch(/^cmp_/);

    const result = await resumed.resume();
    expect(result.text).toBe('The build is green.');
    const third = server.modelCalls()[2];
    expect(third?.status).toBe(200);
    expect(third?.context?.compactionsSent).toEqual([item?.encrypted_content]);
    expect(JSON.stringify(third?.body)).not.toContain(BIG_LOG.slice(0, 200));
    // store: false: the items before the compaction item are left out (the opening question aside), the
    // item goes back whole with its id, and each reasoning item after it with its id and encrypted_content.
    const input = (third?.body as { input: Record<string, unknown>[] }).input;
    const at = input.findIndex((entry) => entry.type === 'compaction');
    expect(third?.body).toMatchObject({ store: false });
    expect(input.slice(0, at)).toEqual([{ role: 'user', content: 'Is CI green?' }]);
    expect(input[at]).toEqual(item);
    const reasoning = input.slice(at).filter((entry) => entry.type === 'reasoning');
    expect(reasoning.length).toBeGreaterThan(0);
    for (const entry of reasoning) expect(entry).toMatchObject({ id: expect.stringMatching(/^rs_/), encrypted_content: expect.any(String) });
  });

  it('session.compact() calls /responses/compact; the item is saved opaque and sent back verbatim, in place of the history', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'episodic-openai-compact-'));
    directories.push(directory);
    const agent = new Agent({ model: adapter(), tools: [readLogTool()] });
    server.enqueue(
      { type: 'reply', reasoning: ['Read the log.'], toolCalls: [{ name: 'read_log', args: {} }] },
      { type: 'reply', text: 'The build is green.' },
      { type: 'reply', text: 'Yes, still green.' },
    );
    const session = await agent.session({ id: 'explicit', store: new FileSessionStore({ directory }) });
    await session.send({ role: 'user', content: 'Is CI green?' });
    const compacting = await session.compact();

    const request = server.requests.find((entry) => entry.path.endsWith('/responses/compact'));
    expect(request?.status).toBe(200);
    expect(request?.body).toMatchObject({ model: 'gpt-5.6' });
    expect(request?.body).not.toHaveProperty('stream');
    expect(JSON.stringify(request?.body)).toContain('line 0: step passed');
    const part = compacting.content[0];
    expect(compacting.content).toHaveLength(1);
    expect(part?.type).toBe('compaction');
    const item = part?.providerData?.item as { type: string; encrypted_content: string; id: string };
    expect(item).toMatchObject({ type: 'compaction', id: expect.stringMatching(/^cmp_/) });
    // The history went with it: the log, cut to the default tool-result cap (900 tokens here).
    expect(compacting.usage?.inputTokens).toBeGreaterThan(500);

    // Saved: a session opened from the store sends the item back verbatim, and not the log it replaced.
    const reopened = await agent.session({ id: 'explicit', store: new FileSessionStore({ directory }) });
    expect(reopened.messages.at(-1)).toEqual(compacting);
    const result = await reopened.send({ role: 'user', content: 'Still green?' });
    expect(result.text).toBe('Yes, still green.');
    const last = server.modelCalls().at(-1);
    expect(last?.status).toBe(200);
    expect(last?.context?.compactionsSent).toEqual([item.encrypted_content]);
    const input = (last?.body as { input: Record<string, unknown>[] }).input;
    expect(input.find((entry) => entry.type === 'compaction')).toEqual(item);
    expect(JSON.stringify(last?.body)).not.toContain('line 0: step passed');
  });

  it('compact() on a model without standalone compaction is a typed error, and nothing is saved', async () => {
    const { createAnthropicAdapter } = await import('@episodic/providers/anthropic');
    // Haiku 4.5 has no on-demand compaction (Anthropic's standalone kind), so no compact() either.
    const agent = new Agent({ model: createAnthropicAdapter({ model: 'claude-haiku-4-5', apiKey: 'k', baseURL: server.url }) });
    const session = await agent.session({ history: [{ role: 'user', content: 'hi' }] });
    await expect(session.compact()).rejects.toMatchObject({ code: 'invalid_argument' });
    expect(session.messages).toHaveLength(1);
  });

  it('the server refuses a tampered compaction item and reasoning.context on models before GPT-5.6', async () => {
    const agent = new Agent({ model: adapter('gpt-5.1'), context: { policy: 'native', native: { reasoningContext: 'current-turn' } } });
    const session = await agent.session();
    await expect(session.send({ role: 'user', content: 'hi' })).rejects.toThrow(/reasoning\.context/);
    const tampered = await fetch(`${server.url}/responses`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer k' },
      body: JSON.stringify({ model: 'gpt-5.6', input: [{ type: 'compaction', encrypted_content: 'Zm9yZ2Vk' }, { role: 'user', content: 'hi' }] }),
    });
    expect(tampered.status).toBe(400);
    expect(((await tampered.json()) as { error: { code: string } }).error.code).toBe('invalid_encrypted_content');
  });
});

describe('the captured bodies', () => {
  it('type-check against the official SDK param types', () => {
    expect(captured.length).toBeGreaterThan(5);
    expect(sdkParamErrors(captured)).toEqual([]);
  }, 120_000);
});
