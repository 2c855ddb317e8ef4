/**
 * Cross-model hand-off through the agent loop and real adapters over the strict
 * loopback servers: an episode started on Anthropic (signed thinking) continues on
 * an OpenAI-compatible host (Kimi) and back. The other model's signed or plain
 * reasoning never reaches the wire; with hand-off on, its text arrives as the
 * framed note in the system prompt, and both servers accept every request.
 */
import { Agent, type AgentEvent, type AgentTool, MemorySessionStore, maxSteps } from '@episodic/core';
import { createAnthropicAdapter } from '@episodic/providers/anthropic';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createOpenAICompatibleAdapter } from '../../packages/providers/src/openai-compatible/openai-compatible-adapter.js';
import { startAnthropicServer } from '../servers/anthropic-server.js';
import { startOpenAIChatServer } from '../servers/openai-chat-server.js';
import type { OpenAIScriptedServer } from '../servers/openai-responses-server.js';
import type { ScriptedServer } from '../servers/scripted-server.js';

const getLog: AgentTool = {
  spec: { name: 'get_ci_log', description: 'Reads a CI log', inputSchema: { type: 'object', properties: {} } },
  execute: async () => ({ content: 'FAIL test/fixtures.test.ts: timeout' }),
};
const system = 'You debug CI failures.';
const claudeTrace = 'The log points at fixtures.ts; ```ts blocks``` aside, read its config next.';

let anthropic: ScriptedServer;
let kimi: OpenAIScriptedServer;
beforeEach(async () => {
  anthropic = await startAnthropicServer();
  kimi = await startOpenAIChatServer('kimi');
});
afterEach(async () => {
  await anthropic.close();
  await kimi.close();
});

const claudeAdapter = () =>
  createAnthropicAdapter({ model: 'claude-opus-4-5', baseURL: anthropic.url, apiKey: 'test-key' });
const kimiAdapter = () =>
  createOpenAICompatibleAdapter({ provider: 'moonshot', model: 'kimi-k2.6', baseURL: kimi.url, apiKey: 'test-key' });

/** Claude reasons (signed) and calls a tool; the episode is then handed over. */
async function startOnClaude(store: MemorySessionStore): Promise<void> {
  anthropic.enqueue({ type: 'reply', reasoning: [claudeTrace], toolCalls: [{ name: 'get_ci_log', args: {} }] });
  const agent = new Agent({
    model: claudeAdapter(),
    system,
    tools: [getLog],
    store,
    stopWhen: maxSteps(1),
    context: { budget: 100_000 },
  });
  expect((await (await agent.session({ id: 's' })).send('CI is red')).reason).toBe('stop-condition');
}

type ChatBody = { messages: Record<string, unknown>[] };

describe('hand-off over the wire', () => {
  it('Anthropic to Kimi: the note carries the trace, the signature never leaves', async () => {
    const store = new MemorySessionStore();
    await startOnClaude(store);
    kimi.enqueue({ type: 'reply', reasoning: ['kimi goes on'], text: 'The fixture timeout is 1 s.' });
    const agent = new Agent({ model: kimiAdapter(), system, tools: [getLog], store, context: { budget: 100_000 } });
    const events: AgentEvent[] = [];
    const session = await agent.session({ id: 's', handoff: true });
    await session.resume({ onEvent: (event) => events.push(event) });

    const [call] = kimi.modelCalls();
    expect(call?.status).toBe(200);
    const body = call?.body as ChatBody;
    const systemText = String(body.messages[0]?.content);
    expect(systemText.startsWith(`${system}\n\n[Continuation note`)).toBe(true);
    expect(systemText).toContain(claudeTrace);
    expect(systemText).toContain('anthropic/claude-opus-4-5');
    const assistant = body.messages.find((message) => message.role === 'assistant');
    // Kimi wants the field on tool-call messages; it gets none of Claude's text or signature.
    expect(assistant?.reasoning_content).toBe('');
    expect(JSON.stringify(body.messages.slice(1))).not.toContain('fixtures.ts; ');
    expect(anthropic.modelCalls()).toHaveLength(1);
    expect(events.find((event) => event.type === 'reasoning-handoff')).toMatchObject({ traces: 1 });
  });

  it('back to Anthropic: Kimi`s trace is quoted, Claude`s own signed thinking goes back verbatim', async () => {
    const store = new MemorySessionStore();
    await startOnClaude(store);
    kimi.enqueue({
      type: 'reply',
      reasoning: ['kimi wants the config file too'],
      toolCalls: [{ name: 'get_ci_log', args: {} }],
    });
    const kimiAgent = new Agent({
      model: kimiAdapter(),
      system,
      tools: [getLog],
      store,
      stopWhen: maxSteps(2),
      context: { budget: 100_000 },
    });
    await (await kimiAgent.session({ id: 's' })).resume();

    anthropic.enqueue({ type: 'reply', reasoning: ['claude concludes'], text: 'Raise the fixture timeout.' });
    const claude = new Agent({ model: claudeAdapter(), system, tools: [getLog], store, context: { budget: 100_000 } });
    await (await claude.session({ id: 's', handoff: { maxTraces: 1 } })).resume();

    const call = anthropic.modelCalls().at(-1);
    expect(call?.status).toBe(200);
    const body = call?.body as { system: { text: string }[] | string; messages: unknown[] };
    const systemText = typeof body.system === 'string' ? body.system : body.system.map((block) => block.text).join('');
    expect(systemText).toContain('kimi wants the config file too');
    expect(systemText).not.toContain(claudeTrace);
    expect(call?.view?.echoedReasoning).toEqual([claudeTrace]);
    expect(JSON.stringify(body.messages)).not.toContain('kimi wants the config file too');
  });
});
