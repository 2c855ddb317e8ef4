import { describe, expect, it } from 'vitest';
import { Agent } from '../agent/agent.js';
import { RunAbortedError } from '../errors/run-aborted-error.js';
import type { AgentEvent } from './agent-events.js';
import { MemorySessionStore } from '../store/memory-session-store.js';
import { type AssistantMessage, type Message, type ToolMessage, toolCallsOf } from '../message/message.js';
import { pendingStep, stepsInEpisode } from './run-loop.js';
import { hasToolCall, maxSteps } from './stop-conditions.js';
import { type ScriptStep, scriptedModel } from '../testing/scripted-model.js';
import { createTokenCounter, type TokenCounter } from '../tokens/token-counter.js';
import type { AgentTool } from './tool.js';

function tool(name: string, execute: AgentTool['execute'], timeoutMs?: number): AgentTool {
  return { spec: { name, description: `the ${name} tool`, inputSchema: { type: 'object' } }, execute, timeoutMs };
}

const add = tool('add', async (args) => {
  const { a, b } = args as { a: number; b: number };
  return { content: String(a + b) };
});

function recorder() {
  const events: AgentEvent[] = [];
  return { events, onEvent: (event: AgentEvent) => events.push(event) };
}

/** Every tool call has exactly one result, and no result lacks its call. */
function expectPaired(messages: readonly Message[]) {
  const calls = messages.flatMap((message) => (message.role === 'assistant' ? toolCallsOf(message) : []));
  const results = messages.filter((message): message is ToolMessage => message.role === 'tool');
  expect(results.map((result) => result.toolCallId).sort()).toEqual(calls.map((call) => call.id).sort());
  expect(new Set(calls.map((call) => call.id)).size).toBe(calls.length);
}

describe('run loop', () => {
  it('answers without tools in one step and streams events in order', async () => {
    const model = scriptedModel({ steps: [{ reasoning: 'The user greets me.', text: 'Hello there, friend!' }] });
    const session = await new Agent({ model, system: 'Be brief.' }).session();
    const { events, onEvent } = recorder();
    const result = await session.send('hi', { onEvent });
    expect(result).toMatchObject({ reason: 'done', text: 'Hello there, friend!', steps: 1 });
    const types = events.map((event) => event.type).filter((type, index, all) => type !== all[index - 1]);
    expect(types).toEqual([
      'episode-start',
      'context-packed',
      'reasoning-delta',
      'text-delta',
      'reasoning-stats',
      'step-finish',
      'reasoning-stats',
      'episode-finish',
    ]);
    const text = events.flatMap((event) => (event.type === 'text-delta' ? [event.text] : [])).join('');
    expect(text).toBe('Hello there, friend!');
    expect(session.messages).toHaveLength(2);
    expect(session.messages[1]).toMatchObject({
      role: 'assistant',
      model: model.model,
      usage: { outputTokens: expect.any(Number) },
    });
    expect(model.requests[0]?.system).toBe('Be brief.');
  });

  it('runs tool calls, appends results and calls the model again with the reasoning of the episode', async () => {
    const model = scriptedModel({
      steps: [
        { reasoning: 'I should add.', toolCalls: [{ id: 'c1', name: 'add', args: { a: 2, b: 3 } }] },
        { text: 'It is 5.' },
      ],
    });
    const session = await new Agent({ model, tools: [add] }).session();
    const { events, onEvent } = recorder();
    const result = await session.send('2+3?', { onEvent });
    expect(result.text).toBe('It is 5.');
    expect(session.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(session.messages[2]).toEqual({
      role: 'tool',
      toolCallId: 'c1',
      toolName: 'add',
      content: '5',
      isError: false,
    });
    const second = model.requests[1]!;
    // The reader of cut results is offered from the first call of an agent with tools (cut-results/cut-result-offer.ts).
    expect(second.tools?.map((spec) => spec.name)).toEqual(['add', 'read_cut_result']);
    expect((second.messages[1] as AssistantMessage).content[0]).toMatchObject({
      type: 'reasoning',
      text: 'I should add.',
    });
    const order = events
      .filter((event) => ['tool-call', 'tool-result', 'step-finish', 'context-packed'].includes(event.type))
      .map((event) => `${event.type}:${'step' in event ? event.step : ''}`);
    expect(order).toEqual([
      'context-packed:1',
      'tool-call:1',
      'tool-result:1',
      'step-finish:1',
      'context-packed:2',
      'step-finish:2',
    ]);
  });

  it('turns unknown tools, invalid JSON, thrown errors and timeouts into error results and goes on', async () => {
    const failing = tool('failing', async () => {
      throw new Error('disk on fire');
    });
    const slow = tool('slow', () => new Promise(() => {}), 20);
    const model = scriptedModel({
      steps: [
        {
          toolCalls: [
            { id: 'u', name: 'missing', args: {} },
            { id: 'j', name: 'add', args: '{"a": 1,' },
            { id: 'f', name: 'failing', args: {} },
            { id: 's', name: 'slow', args: {} },
          ],
        },
        { text: 'Sorry, everything failed.' },
      ],
    });
    const session = await new Agent({ model, tools: [add, failing, slow] }).session();
    const result = await session.send('go');
    expect(result.reason).toBe('done');
    const results = model.requests[1]!.messages.filter((message): message is ToolMessage => message.role === 'tool');
    expect(results.map((message) => [message.toolCallId, message.isError])).toEqual([
      ['u', true],
      ['j', true],
      ['f', true],
      ['s', true],
    ]);
    expect(results.map((message) => message.content)).toEqual([
      'Unknown tool "missing". Available tools: add, failing, slow, read_cut_result.',
      expect.stringMatching(/^Invalid JSON arguments for tool "add"/),
      'Tool "failing" failed: disk on fire',
      'Tool "slow" timed out after 20 ms.',
    ]);
    // the raw, unparsable arguments stay in the transcript as the model produced them
    expect(toolCallsOf(session.messages[1] as AssistantMessage)[1]?.args).toBe('{"a": 1,');
    expectPaired(session.messages);
  });

  it('stops after maxSteps when the model keeps calling tools', async () => {
    let counter = 0;
    const model = scriptedModel({
      steps: () => ({ toolCalls: [{ id: `loop_${++counter}`, name: 'add', args: { a: 1, b: 1 } }] }),
    });
    const session = await new Agent({ model, tools: [add], stopWhen: maxSteps(3) }).session();
    const result = await session.send('loop forever');
    expect(result).toMatchObject({ reason: 'stop-condition', steps: 3 });
    expect(model.requests).toHaveLength(3);
    expect(session.messages.at(-1)?.role).toBe('tool');
    expectPaired(session.messages);
  });

  it('stops after a step that called the named tool, with any of several conditions', async () => {
    const done = tool('done', async () => ({ content: 'recorded' }));
    const model = scriptedModel({
      steps: [
        { toolCalls: [{ name: 'add', args: { a: 1, b: 2 } }] },
        { toolCalls: [{ name: 'done', args: {} }] },
        { text: 'never reached' },
      ],
    });
    const agent = new Agent({ model, tools: [add, done], stopWhen: [maxSteps(10), hasToolCall('done')] });
    const result = await (await agent.session()).send('work');
    expect(result).toMatchObject({ reason: 'stop-condition', steps: 2 });
    expect(model.requests).toHaveLength(2);
  });

  it('abort in the middle of tools answers every call "aborted" and persists a consistent transcript', async () => {
    const controller = new AbortController();
    const hang = tool('hang', (_args, context) => {
      // the run is aborted while this tool runs
      setTimeout(() => controller.abort(), 5);
      return new Promise((_resolve, reject) => context.signal.addEventListener('abort', () => reject(new Error('x'))));
    });
    const model = scriptedModel({
      steps: [
        {
          toolCalls: [
            { id: 'h1', name: 'hang' },
            { id: 'a1', name: 'add', args: { a: 1, b: 1 } },
            { id: 'h2', name: 'hang' },
          ],
        },
        { text: 'resumed' },
      ],
    });
    const store = new MemorySessionStore();
    const session = await new Agent({ model, tools: [add, hang], maxConcurrency: 1 }).session({ store, id: 's1' });
    const { events, onEvent } = recorder();
    await expect(session.send('go', { signal: controller.signal, onEvent })).rejects.toBeInstanceOf(RunAbortedError);
    expectPaired(session.messages);
    const results = session.messages.filter((message): message is ToolMessage => message.role === 'tool');
    expect(results.map((result) => [result.toolCallId, result.isError])).toEqual([
      ['h1', true],
      ['a1', true],
      ['h2', true],
    ]);
    expect(results[0]?.content).toBe('Tool "hang" was aborted before it finished.');
    expect((await store.load('s1'))?.messages).toEqual(session.messages);
    expect(events.at(-1)).toMatchObject({ type: 'episode-finish', reason: 'aborted' });
    expect(events.at(-2)).toMatchObject({ type: 'error', willRetry: false });
    // the episode continues where it stopped
    expect(session.unfinished).toBe(true);
    expect((await session.resume()).text).toBe('resumed');
  });

  it('abort during a model call keeps nothing of the half-streamed answer', async () => {
    const controller = new AbortController();
    const model = scriptedModel({ steps: [{ text: 'never kept', delayMs: 5_000 }] });
    const store = new MemorySessionStore();
    const session = await new Agent({ model }).session({ store, id: 's2' });
    setTimeout(() => controller.abort(), 10);
    await expect(session.send('hello', { signal: controller.signal })).rejects.toMatchObject({ code: 'run_aborted' });
    expect(session.messages.map((message) => message.role)).toEqual(['user']);
    expect((await store.load('s2'))?.messages).toHaveLength(1);
  });

  it("a context that cannot fit even after packing ends the episode with the packer's error", async () => {
    const model = scriptedModel({ steps: [{ text: 'unreachable' }] });
    const session = await new Agent({ model, budget: 60, system: 'rules '.repeat(200) }).session();
    await expect(session.send('hi')).rejects.toMatchObject({ code: 'context_overflow' });
    expect(model.requests).toHaveLength(0);
  });

  it('a model error that cannot be retried ends the episode with an error event and throws it', async () => {
    const model = scriptedModel({ steps: [{ error: { kind: 'auth', message: 'bad key' } }] });
    const session = await new Agent({ model }).session();
    const { events, onEvent } = recorder();
    await expect(session.send('hi', { onEvent })).rejects.toMatchObject({ code: 'model_auth', message: 'bad key' });
    expect(model.requests).toHaveLength(1);
    expect(events.slice(-2).map((event) => event.type)).toEqual(['error', 'episode-finish']);
    expect(session.messages.map((message) => message.role)).toEqual(['user']);
  });
});

describe('pendingStep', () => {
  const user: Message = { role: 'user', content: 'q' };
  const call = (id: string) => ({ type: 'tool-call' as const, id, name: 'add', args: {} });
  const assistant = (...ids: string[]): AssistantMessage => ({ role: 'assistant', content: ids.map(call) });
  const result = (id: string): ToolMessage => ({ role: 'tool', toolCallId: id, toolName: 'add', content: '1' });

  it('tells what an interrupted transcript needs next', () => {
    expect(pendingStep([])).toBeUndefined();
    expect(pendingStep([user])).toEqual({ type: 'call-model' });
    expect(pendingStep([user, assistant()])).toBeUndefined();
    expect(pendingStep([user, assistant('a', 'b'), result('a'), result('b')])).toEqual({ type: 'call-model' });
    const partial = pendingStep([user, assistant('a', 'b'), result('a')]);
    expect(partial).toMatchObject({ type: 'run-tools', calls: [call('b')] });
  });

  it('counts the steps of the current episode only', () => {
    const messages = [user, assistant('a'), result('a'), assistant(), user, assistant('b'), result('b')];
    expect(stepsInEpisode(messages)).toBe(1);
    expect(stepsInEpisode(messages.slice(0, 4))).toBe(2);
  });
});

describe('scripted model', () => {
  it('fails with a clear error when the script runs out', async () => {
    const steps: ScriptStep[] = [{ text: 'only one' }];
    const session = await new Agent({ model: scriptedModel({ steps }) }).session();
    await session.send('one');
    await expect(session.send('two')).rejects.toThrow(/called 2 times but its script has 1 steps/);
  });

  it('counts each message when it is appended, so the next pack only adds cached numbers (as the README says)', async () => {
    const real = createTokenCounter();
    const counted = new Set<object>();
    const tokenizer: TokenCounter = {
      encoding: real.encoding,
      calibration: real.calibration,
      countText: (text) => real.countText(text),
      countCached: (owner, text) => real.countCached(owner, text),
      countMessage: (message) => {
        counted.add(message);
        return real.countMessage(message);
      },
      countSystem: (system) => real.countSystem(system),
      countTools: (tools) => real.countTools(tools),
    };
    const model = scriptedModel({
      steps: [{ toolCalls: [{ name: 'add', args: { a: 1, b: 2 } }] }, { text: 'It is 3.' }],
    });
    const session = await new Agent({ model, tools: [add], tokenizer }).session();
    await session.send('1 + 2?');
    // The final answer was never packed, yet it is counted: the next call will not tokenize it.
    expect(session.messages.every((message) => counted.has(message))).toBe(true);
  });

  it('an event handler that throws during a tool batch still leaves every call with its real result', async () => {
    let slowFinished = false;
    const slow = tool('slow', async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      slowFinished = true;
      return { content: 'slow result' };
    });
    const model = scriptedModel({
      steps: [
        {
          toolCalls: [
            { id: 'a1', name: 'add', args: { a: 1, b: 2 } },
            { id: 's1', name: 'slow' },
          ],
        },
        { text: 'next' },
      ],
    });
    const store = new MemorySessionStore();
    const session = await new Agent({ model, tools: [add, slow] }).session({ store, id: 'h' });
    const broken = new Error('the UI socket is closed');
    const onEvent = (event: AgentEvent) => {
      if (event.type === 'tool-result') throw broken;
    };
    await expect(session.send('go', { onEvent })).rejects.toBe(broken);
    expect(slowFinished).toBe(true);
    expectPaired(session.messages);
    const results = session.messages.filter((message): message is ToolMessage => message.role === 'tool');
    expect(results.map((result) => result.content)).toEqual(['3', 'slow result']);
    expect((await store.load('h'))?.messages).toEqual(session.messages);
  });
});
