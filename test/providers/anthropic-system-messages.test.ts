/**
 * Mid-session system lines on the strict Anthropic server (docs/providers.md,
 * "Mid-session system messages"): on a model that binds its thinking, a system line
 * added after the first turn goes in place as a `role: "system"` message, so the top-level
 * `system` and every earlier thinking block's prefix stay as they were and the server
 * refuses nothing; where it cannot go in place it folds into `system`, and the thinking
 * that costs is reported. Every captured body is type-checked against the SDK's params.
 */
import { Agent, type AgentEvent, type AssistantMessage, MemorySessionStore, type Message, type ModelRequest, type ModelStreamEvent, toolCallsOf } from '@episodic/core';
import { createAnthropicAdapter } from '@episodic/providers/anthropic';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startAnthropicServer } from '../servers/anthropic-server.js';
import { clearAtBeta, takesSystemMessages } from '../servers/anthropic-system-messages.js';
import type { ScriptedServer } from '../servers/scripted-server.js';
import { type CapturedBody, capturedRequests, sdkParamErrors } from '../support/sdk-param-check.js';
import { testAgentTools, testToolSpecs } from './conformance-tools.js';

/** Every body an SDK client sent in this file, type-checked at the end. */
const captured: CapturedBody[] = [];

type Adapter = ReturnType<typeof createAnthropicAdapter>;
const user = (content: string): Message => ({ role: 'user', content });
const system = 'You debug CI failures.';

interface WireBody {
  system?: { text: string }[];
  thinking?: unknown;
  messages: { role: string; content: { type: string; text?: string }[] }[];
}

describe('anthropic mid-session system lines', () => {
  let server: ScriptedServer;
  beforeEach(async () => {
    server = await startAnthropicServer();
  });
  afterEach(async () => {
    captured.push(...capturedRequests(server.requests, 'mid-session system'));
    await server.close();
  });
  const adapterFor = (model: string, options: { systemMessages?: 'in-place' | 'fold' } = {}) =>
    createAnthropicAdapter({ model, baseURL: server.url, apiKey: 'test-key', prefixMismatch: 'error', ...options });

  /** One call: its answer and the warnings the adapter gave. */
  async function call(adapter: Adapter, messages: readonly Message[]) {
    const events: ModelStreamEvent[] = [];
    const request: ModelRequest = { system, messages, tools: testToolSpecs };
    for await (const event of adapter.stream(request)) events.push(event);
    const finish = events.find((event) => event.type === 'finish');
    if (finish?.type !== 'finish') throw new Error('no finish event');
    const warnings = events.flatMap((event) => (event.type === 'warning' ? [event] : []));
    return { message: finish.message, warnings };
  }

  /** A tool step and its answer, both with thinking: the history a system line is then added to. */
  async function thoughtThrough(adapter: Adapter): Promise<Message[]> {
    server.enqueue(
      { type: 'reply', reasoning: ['look at the log'], toolCalls: [{ name: 'get_ci_log', args: { run: 1 } }] },
      { type: 'reply', reasoning: ['one test is flaky'], text: 'A flaky test.' },
    );
    const messages: Message[] = [user('CI is red')];
    const first = await call(adapter, messages);
    messages.push(first.message, toolResult(first.message));
    const second = await call(adapter, messages);
    messages.push(second.message);
    return messages;
  }

  const bodyOf = (index: number) => server.requests[index]?.body as WireBody;

  it('a bound model keeps every earlier thinking block when a system line is added, and the server refuses nothing', async () => {
    const adapter = adapterFor('claude-fable-5-1');
    const messages = await thoughtThrough(adapter);
    messages.push({ role: 'system', content: 'Answer in one line from now on.' }, user('and the fix?'));
    server.enqueue({ type: 'reply', reasoning: ['retry it'], text: 'Retry the test.' });
    const third = await call(adapter, messages);
    expect(server.requests.map((request) => request.status)).toEqual([200, 200, 200]);
    expect(server.modelCalls()[2]?.binding).toMatchObject({ checkedBlocks: 2, failedBlocks: 0 });
    expect(bodyOf(2).system).toEqual(bodyOf(0).system);
    expect(bodyOf(2).messages.at(-1)).toMatchObject({ role: 'system', content: [{ type: 'text', text: 'Answer in one line from now on.' }] });
    expect(bodyOf(2).messages.at(-2)).toMatchObject({ role: 'user', content: [{ type: 'text', text: 'and the fix?' }] });
    expect(third.warnings.filter((warning) => warning.code === 'thinking-dropped')).toEqual([]);
    // The prompt cache still reads the conversation before the line: more than the call before read.
    expect(third.message.usage?.cachedInputTokens).toBeGreaterThan((messages[3] as AssistantMessage).usage?.cachedInputTokens ?? 0);
    // The next call sends the system message where it was, before the answer that followed it.
    messages.push(third.message, user('thanks'));
    server.enqueue({ type: 'reply', text: 'You are welcome.' });
    await call(adapter, messages);
    expect(server.requests[3]?.status).toBe(200);
    expect(server.modelCalls()[3]?.binding).toMatchObject({ checkedBlocks: 3, failedBlocks: 0 });
    expect(bodyOf(3).messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user', 'system', 'assistant', 'user']);
  });

  it('a system line added inside a tool-use turn leaves its last turn the thinking it began with', async () => {
    const adapter = adapterFor('claude-opus-5-5');
    server.enqueue({ type: 'reply', reasoning: ['read the log first'], toolCalls: [{ name: 'get_ci_log', args: { run: 7 } }] });
    const messages: Message[] = [user('CI is red')];
    const first = await call(adapter, messages);
    messages.push(first.message, toolResult(first.message), { role: 'system', content: 'The user is away: do not ask questions.' });
    server.enqueue({ type: 'reply', reasoning: ['it is flaky'], text: 'A flaky test.' });
    const second = await call(adapter, messages);
    expect(server.requests.map((request) => request.status)).toEqual([200, 200]);
    expect(server.modelCalls()[1]?.binding).toMatchObject({ lostLastThinking: false, lastTurnBlocks: 1, failedBlocks: 0 });
    expect(bodyOf(1).thinking).toBeDefined();
    expect(bodyOf(1).messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user', 'system']);
    expect(second.warnings).toEqual([]);
  });

  it("with systemMessages: 'fold', the line joins the top-level system and the thinking that costs is reported", async () => {
    const adapter = adapterFor('claude-fable-5-1', { systemMessages: 'fold' });
    const messages = await thoughtThrough(adapter);
    messages.push({ role: 'system', content: 'Answer in one line from now on.' }, user('and the fix?'));
    server.enqueue({ type: 'reply', text: 'Retry the test.' });
    const third = await call(adapter, messages);
    expect(server.requests[2]?.status).toBe(200);
    expect(bodyOf(2).system?.map((block) => block.text)).toEqual([system, 'Answer in one line from now on.']);
    expect(bodyOf(2).messages.some((message) => message.role === 'system')).toBe(false);
    expect(server.modelCalls()[2]?.binding).toMatchObject({ checkedBlocks: 0 });
    const dropped = third.warnings.filter((warning) => warning.code === 'thinking-dropped');
    expect(dropped).toHaveLength(1);
    expect(dropped[0]?.message).toContain('1 mid-session system line(s) went into the top-level system');
    expect(dropped[0]?.message).toContain('2 thinking block(s) left out');
    // A changed top-level system: of the conversation the call before read from the cache, nothing is read now.
    const before = (messages[3] as AssistantMessage).usage?.cachedInputTokens ?? 0;
    expect(third.message.usage?.cachedInputTokens).toBeLessThan(before);
  });

  it('a model without mid-conversation system messages gets the line, and a developer line, in the top-level system', async () => {
    const adapter = adapterFor('claude-opus-4-6');
    server.enqueue({ type: 'reply', text: 'Hello.' }, { type: 'reply', text: 'Retry the test.' });
    const messages: Message[] = [user('CI is red')];
    messages.push((await call(adapter, messages)).message);
    messages.push({ role: 'developer', content: 'Prefer short answers.' }, { role: 'system', content: 'No tools now.' }, user('and?'));
    const second = await call(adapter, messages);
    expect(server.requests.map((request) => request.status)).toEqual([200, 200]);
    expect(bodyOf(1).system?.map((block) => block.text)).toEqual([system, 'Prefer short answers.', 'No tools now.']);
    expect(second.warnings.filter((warning) => warning.code === 'thinking-dropped')).toEqual([]);
  });

  it('a line with no user turn after the assistant turn before it folds, and on a bound model says what that cost', async () => {
    const adapter = adapterFor('claude-fable-5-1');
    const messages = await thoughtThrough(adapter);
    // The system line stands between two assistant turns (after a user message with no visible text): no user turn for it to follow.
    messages.push(user(' '), { role: 'system', content: 'Be brief.' }, { role: 'assistant', content: [{ type: 'text', text: 'In short:' }] }, user('go on'));
    server.enqueue({ type: 'reply', text: 'Retry.' });
    const third = await call(adapter, messages);
    expect(server.requests[2]?.status).toBe(200);
    expect(bodyOf(2).system?.map((block) => block.text)).toEqual([system, 'Be brief.']);
    expect(third.warnings.find((warning) => warning.code === 'thinking-dropped')?.message).toContain('cannot go in place');
  });

  it('through the agent: a session resumed with a system line after its tool results goes on with its thinking', async () => {
    const adapter = adapterFor('claude-fable-5-1');
    server.enqueue({ type: 'reply', reasoning: ['look at the log'], toolCalls: [{ name: 'get_ci_log', args: { run: 1 } }] });
    const first = await call(adapter, [user('CI is red')]);
    const history = [user('CI is red'), first.message, toolResult(first.message), { role: 'system', content: 'The user is away: do not ask.' } as Message];
    // Without the cut-result reader, the agent's tools are the ones the first call was made with.
    const agent = new Agent({ model: adapter, system, tools: testAgentTools, store: new MemorySessionStore(), context: { cutResults: 'cut' } });
    server.enqueue({ type: 'reply', reasoning: ['it is flaky'], text: 'A flaky test.' });
    const events: AgentEvent[] = [];
    for await (const event of (await agent.session({ id: 'mid-system', history })).resumeStream()) events.push(event);
    expect(server.requests.map((request) => request.status)).toEqual([200, 200]);
    expect(server.modelCalls()[1]?.binding).toMatchObject({ checkedBlocks: 1, failedBlocks: 0, lostLastThinking: false });
    expect(bodyOf(1).system).toEqual(bodyOf(0).system);
    expect(bodyOf(1).messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user', 'system']);
    expect(events.filter((event) => event.type === 'warning')).toEqual([]);
  });

  it.each([
    ['claude-opus-4-8', true],
    ['claude-opus-4-8-20260528', true],
    ['claude-fable-5-2', true],
    ['claude-haiku-5-5', true],
    ['claude-opus-5', false],
    ['claude-sonnet-5', false],
    ['claude-opus-4-7', false],
    ['claude-sonnet-4-6', false],
  ])('%s takes mid-conversation system messages: %s', (model, takes) => {
    expect(createAnthropicAdapter({ model, apiKey: 'k' }).profile.midConversationSystem).toBe(takes);
    expect(takesSystemMessages(model)).toBe(takes);
  });

  it('refuses an unknown systemMessages when the adapter is made', () => {
    expect(() => createAnthropicAdapter({ model: 'claude-fable-5-1', apiKey: 'k', systemMessages: 'user' as never })).toThrow(
      /systemMessages must be 'in-place' or 'fold'/,
    );
  });

  describe('the server', () => {
    const post = (body: unknown, beta?: string) =>
      fetch(`${server.url}/v1/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': 'k', 'anthropic-version': '2023-06-01', ...(beta ? { 'anthropic-beta': beta } : {}) },
        body: JSON.stringify({ max_tokens: 1024, ...(body as object) }),
      });
    const turns = [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'hello' },
      { role: 'user', content: 'go on' },
    ];

    it('refuses a system message on a model without the feature, with the API text', async () => {
      const response = await post({ model: 'claude-opus-4-6', messages: [...turns, { role: 'system', content: 'Be brief.' }] });
      expect(response.status).toBe(400);
      expect(await response.text()).toContain("role 'system' is not supported on this model");
    });

    it.each([
      ['right after an assistant turn', [...turns.slice(0, 2), { role: 'system', content: 'x' }]],
      ['before a user message', [...turns, { role: 'system', content: 'x' }, { role: 'user', content: 'more' }]],
      ['first', [{ role: 'system', content: 'x' }, ...turns]],
      ['next to another system message', [...turns, { role: 'system', content: 'x' }, { role: 'system', content: 'y' }]],
    ])('refuses a system message %s', async (_where, messages) => {
      const response = await post({ model: 'claude-fable-5-1', messages });
      expect(response.status).toBe(400);
      expect(await response.text()).toMatch(/system message/);
    });

    it('refuses clear_at without its beta header, and a non-text block', async () => {
      const late = { role: 'system', content: 'x', clear_at: 'next_user_message' };
      const refused = await post({ model: 'claude-fable-5-1', messages: [...turns, late] });
      expect(refused.status).toBe(400);
      expect(await refused.text()).toContain(clearAtBeta);
      const image = { role: 'system', content: [{ type: 'image', source: { type: 'url', url: 'https://example.com/a.png' } }] };
      const blocks = await post({ model: 'claude-fable-5-1', messages: [...turns, image] });
      expect(blocks.status).toBe(400);
      expect(await blocks.text()).toContain('only `text` blocks');
      server.enqueue({ type: 'reply', text: 'ok' });
      const accepted = await post({ model: 'claude-fable-5-1', stream: true, messages: [...turns, late] }, clearAtBeta);
      expect(accepted.status).toBe(200);
      await accepted.text();
    });
  });
});

/** The result of the answer's one tool call. */
function toolResult(message: AssistantMessage): Message {
  const toolCall = toolCallsOf(message)[0];
  if (!toolCall) throw new Error('no tool call');
  return { role: 'tool', toolCallId: toolCall.id, toolName: toolCall.name, content: 'run 1: 1 test failed' };
}

describe('the captured bodies', () => {
  it('type-check against the official SDK param types', () => {
    expect(captured.length).toBeGreaterThan(8);
    expect(sdkParamErrors(captured)).toEqual([]);
  }, 120_000);
});
