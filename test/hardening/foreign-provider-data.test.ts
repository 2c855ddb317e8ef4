/**
 * Another model's opaque parts, from the attacker's side: a session that holds a
 * compaction block or a provider-run tool turn made by one Anthropic model is sent
 * to another (a fallback during the first model's outage, or another agent opening
 * the session). The foreign-reasoning strip takes the opaque data off those parts;
 * every reader after it (the compaction cut, the token counter, the adapter) must
 * still work, and the request must go out without the foreign blocks.
 */
import type { BetaRawMessageStreamEvent as RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/beta/messages/messages';
import { Agent, type AgentEvent, type AssistantMessage, MemorySessionStore, type Message } from '@episodic/core';
import { createAnthropicAdapter } from '@episodic/providers/anthropic';
import { afterEach, describe, expect, it } from 'vitest';
import { mapAnthropicStream } from '../../packages/providers/src/anthropic/anthropic-stream.js';
import { readLogTool } from '../context/native-context-harness.js';
import { startAnthropicServer } from '../servers/anthropic-server.js';
import type { ScriptedServer } from '../servers/scripted-server.js';

const servers: ScriptedServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});
async function server(): Promise<ScriptedServer> {
  const started = await startAnthropicServer();
  servers.push(started);
  return started;
}
const adapter = (at: ScriptedServer, model: string) =>
  createAnthropicAdapter({ model, baseURL: at.url, apiKey: 'test-key', thinking: { type: 'disabled' }, maxRetries: 0 });
const retry = { maxRetries: 0, sleep: async () => {} };

/** A web search Anthropic ran itself, in the shape of the recorded stream (vercel/ai anthropic-web-search-tool.1). */
const webSearchEvents = [
  { type: 'message_start', message: { usage: { input_tokens: 2_100, output_tokens: 1 } } },
  { type: 'content_block_start', index: 0, content_block: { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: {} } },
  { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"query": "vitest testTimeout default"}' } },
  { type: 'content_block_stop', index: 0 },
  {
    type: 'content_block_start',
    index: 1,
    content_block: {
      type: 'web_search_tool_result',
      tool_use_id: 'srvtoolu_1',
      content: [{ type: 'web_search_result', title: 'Vitest config', url: 'https://vitest.dev/config/', encrypted_content: 'EpgaCioICBgCIiRi', page_age: null }],
    },
  },
  { type: 'content_block_stop', index: 1 },
  { type: 'content_block_start', index: 2, content_block: { type: 'text', text: '' } },
  { type: 'content_block_delta', index: 2, delta: { type: 'text_delta', text: 'The default testTimeout is 5 s.' } },
  { type: 'content_block_stop', index: 2 },
  { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 40 } },
  { type: 'message_stop' },
] as unknown as RawMessageStreamEvent[];

async function webSearchTurn(model: string): Promise<AssistantMessage> {
  async function* source() {
    yield* webSearchEvents;
  }
  for await (const event of mapAnthropicStream(source(), { provider: 'anthropic', id: model }, 'prefix'))
    if (event.type === 'finish') return event.message;
  throw new Error('the stream did not finish');
}

describe("another model's opaque parts reach a model that cannot read them", () => {
  it('a compaction made by the primary: the fallback answers during its outage, without the block', async () => {
    const primary = await server();
    const fallback = await server();
    const agent = new Agent({
      model: adapter(primary, 'claude-sonnet-4-6'),
      tools: [readLogTool()],
      store: new MemorySessionStore(),
      context: { policy: 'native', native: { compaction: { threshold: 50_000, onDemand: false } } },
      modelCalls: { fallback: [adapter(fallback, 'claude-opus-4-5')], retry },
    });
    primary.enqueue({ type: 'reply', toolCalls: [{ name: 'read_log', args: {} }] }, { type: 'reply', text: 'CI is green.' });
    const session = await agent.session();
    await session.send('Is CI green?');
    expect(session.messages.some((message) => message.role === 'assistant' && message.content[0]?.type === 'compaction')).toBe(true);

    // The primary's outage: the next episode fails over to a model that cannot read the compaction.
    primary.enqueue({ type: 'error', status: 529 });
    fallback.enqueue({ type: 'reply', text: 'Still green.' });
    const events: AgentEvent[] = [];
    const result = await session.send('And now?', { onEvent: (event) => events.push(event) });
    expect(result.text).toBe('Still green.');
    expect(result.message?.model).toEqual({ provider: 'anthropic', id: 'claude-opus-4-5' });
    const [call] = fallback.modelCalls();
    expect(call?.status).toBe(200);
    expect(call?.context?.compactionsSent).toEqual([]);
    expect(JSON.stringify(call?.body)).not.toContain('"compaction"');
  });

  it('a compaction made by one model: another agent opening the session on another model sends its readable summary instead', async () => {
    const first = await server();
    const store = new MemorySessionStore();
    const compacting = new Agent({
      model: adapter(first, 'claude-sonnet-4-6'),
      tools: [readLogTool()],
      store,
      context: { policy: 'native', native: { compaction: { threshold: 50_000, onDemand: false } } },
    });
    first.enqueue({ type: 'reply', toolCalls: [{ name: 'read_log', args: {} }] }, { type: 'reply', text: 'CI is green.' });
    await (await compacting.session({ id: 'shared' })).send('Is CI green?');

    const second = await server();
    second.enqueue({ type: 'reply', text: 'Yes, green.' });
    const other = new Agent({ model: adapter(second, 'claude-opus-4-5'), tools: [readLogTool()], store, context: { budget: 150_000 } });
    const result = await (await other.session({ id: 'shared' })).send('Still?');
    expect(result.text).toBe('Yes, green.');
    const [call] = second.modelCalls();
    expect(call?.status).toBe(200);
    expect(call?.context?.compactionsSent).toEqual([]);
    // The compaction's readable summary stands in for the history it replaced (a portable
    // checkpoint): the other model reads the summary, not the compacted tool turns.
    expect(call?.view?.toolResultIds).toHaveLength(0);
    expect(call?.view?.userTexts[0]).toMatch(/^\[Summary of earlier episodes that are left out here\]\nSummary of 3 earlier messages/);
  });

  it('a web search the provider ran for one model: another model gets the turn without its blocks', async () => {
    const history: Message[] = [
      { role: 'user', content: 'What is the default testTimeout?' },
      await webSearchTurn('claude-sonnet-4-6'),
    ];
    expect((history[1] as AssistantMessage).content.map((part) => part.type)).toEqual(['provider-tool', 'provider-tool', 'text']);
    const at = await server();
    at.enqueue({ type: 'reply', text: 'Raise it to 10 s.' });
    const agent = new Agent({ model: adapter(at, 'claude-opus-4-5') });
    const session = await agent.session({ history });
    const warnings: string[] = [];
    const result = await session.send('How do I raise it?', {
      onEvent: (event) => (event.type === 'warning' ? warnings.push(event.code ?? '') : undefined),
    });
    expect(result.text).toBe('Raise it to 10 s.');
    const [call] = at.modelCalls();
    expect(call?.status).toBe(200);
    expect(JSON.stringify(call?.body)).not.toMatch(/server_tool_use|web_search_tool_result/);
    expect(warnings).toContain('provider-tool-dropped');
  });
});
