/**
 * The native-context round trip on the other request builders and paths: the
 * OpenAI-compatible adapter and the AI SDK path never write into a stored transcript;
 * kept OpenAI output items go back without their output-only `created_by`; gpt-5.6's
 * past reasoning by default and `reasoningContext` by policy; an Anthropic compaction
 * and an OpenAI compaction item continued through the AI SDK on the same model. Bodies the SDK types cover are
 * type-checked at the end (native-round-trip.test.ts has the rest).
 */
import { Agent, type AgentEvent, type Message, MemorySessionStore, type ModelRequest } from '@episodic/core';
import { createOpenAIResponsesAdapter } from '@episodic/providers/openai';
import { describe, expect, it } from 'vitest';
import { sdkParamErrors } from '../support/sdk-param-check.js';
import { startOpenAIResponsesServer } from '../servers/openai-responses-server.js';
import {
  answer,
  blocksOf,
  claude,
  compaction,
  deepFreeze,
  finish,
  openaiTag,
  start,
  storedTranscript,
  text,
  tools,
  roundTripFile,
} from './round-trip-harness.js';

/** Every body the tests captured (type-checked in the last test) and the servers to close. */
const { captured, closers, anthropicReplay } = roundTripFile();

describe('the other request builders never write into the stored transcript', () => {
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

describe('gpt-5.6 past reasoning', () => {
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

describe('an OpenAI compaction item continued through the AI SDK', () => {
  it('fromAISDK on the same model cannot send the opaque item: the history it stands for goes instead, never neither', async () => {
    const { createOpenAI } = await import('@ai-sdk/openai');
    const { fromAISDK } = await import('@episodic/ai-sdk');
    const server = await startOpenAIResponsesServer();
    closers.push(() => server.close());
    const store = new MemorySessionStore();
    const native = new Agent({ model: createOpenAIResponsesAdapter({ model: 'gpt-5.6', apiKey: 'k', baseURL: server.url }) });
    server.enqueue({ type: 'reply', text: 'The log has 10,000 lines.' }, { type: 'reply', text: 'It passed.' }, { type: 'reply', text: 'Still passing.' });
    const session = await native.session({ id: 'item-via-ai-sdk', store });
    await session.send('How long is the CI log?');
    await session.send('Did it pass?');
    await session.compact();
    const model = fromAISDK(createOpenAI({ baseURL: server.url, apiKey: 'k' }).responses('gpt-5.6'));
    const events: AgentEvent[] = [];
    const switched = await new Agent({ model }).session({ id: 'item-via-ai-sdk', store });
    expect((await switched.send('Still passing?', { onEvent: (event) => events.push(event) })).text).toBe('Still passing.');
    const last = server.modelCalls().at(-1);
    expect(last?.status).toBe(200);
    const body = JSON.stringify(last?.body);
    // The item cannot go through the AI SDK, so what it stands for does: the answers it replaced are read again.
    expect(body).not.toContain('"type":"compaction"');
    // Episodic's own answers keep their phase, which gpt-5.6 wants back on every assistant message.
    expect(body.split('"phase":"final_answer"')).toHaveLength(3);
    for (const said of ['How long is the CI log?', 'The log has 10,000 lines.', 'Did it pass?', 'It passed.', 'Still passing?']) expect(body).toContain(said);
    const warnings = events.flatMap((event) => (event.type === 'warning' ? [event.message] : []));
    expect(warnings.join('\n')).not.toContain('so is the history it replaced');
    expect(warnings).toContainEqual(expect.stringContaining('the messages it replaced'));
  });
});

describe('the captured bodies', () => {
  it('type-check against the official SDK param types', () => {
    expect(captured.length).toBeGreaterThanOrEqual(5);
    expect(sdkParamErrors(captured)).toEqual([]);
  }, 120_000);
});
