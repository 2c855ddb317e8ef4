/**
 * The shared conformance suite every model adapter runs against its loopback
 * wire server (one call per adapter, like hono's router suite). Scenarios are
 * scripted in neutral terms; assertions read the neutral view of what each
 * server received, and provider-specific checks plug in through `hooks`.
 *
 * Usage:
 * ```ts
 * runConformance({
 *   name: 'anthropic',
 *   startServer: () => startAnthropicServer(),
 *   createAdapter: (url, { model }) => new AnthropicAdapter({ model, baseURL: url, apiKey: 'test' }),
 *   models: { primary: 'claude-sonnet-4-5', secondary: 'claude-haiku-4-5' },
 * });
 * ```
 */
import {
  type AssistantMessage,
  assistantText,
  generate,
  type Message,
  type ModelAdapter,
  ModelError,
  type ReasoningPart,
  toolCallsOf,
} from '@episodic/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RecordedRequest, RequestView, ScriptedServer } from '../servers/scripted-server.js';
import { runAgentLoopConformance } from './conformance-agent.js';
import { type DriverSession, newSession, runEpisode, testToolSpecs } from './conformance-driver.js';

export type ScenarioName =
  | 'three-tool-steps'
  | 'second-user-turn'
  | 'parallel-tool-calls'
  | 'tool-error'
  | 'abort-mid-stream'
  | 'rate-limit-then-success'
  | 'context-overflow-repack'
  | 'model-switch';

/** What a scenario leaves for provider-specific hooks to inspect. */
export interface ScenarioResult {
  server: ScriptedServer;
  session: DriverSession;
  calls: RecordedRequest[];
}

export interface ConformanceTarget {
  name: string;
  startServer(): Promise<ScriptedServer>;
  createAdapter(baseUrl: string, options: { model: string }): ModelAdapter;
  /** Two models of this provider; `secondary` is switched to mid-session. */
  models: { primary: string; secondary: string };
  /** False for wire APIs that never send reasoning back (Chat Completions). Default true. */
  echoesReasoning?: boolean;
  hooks?: {
    /** Provider-specific assertions after each scenario (breakpoints, headers, wire fields). */
    afterScenario?(scenario: ScenarioName, result: ScenarioResult): void | Promise<void>;
  };
}

const viewOf = (request: RecordedRequest | undefined): RequestView => {
  if (!request?.view) throw new Error('expected a recorded model call');
  return request.view;
};

/** Every model call was accepted, and no request sent a tool call without its result or vice versa. */
export function expectNoOrphans(calls: readonly RecordedRequest[]): void {
  for (const call of calls) {
    const view = viewOf(call);
    expect([...view.toolResultIds].sort()).toEqual([...view.toolCallIds].sort());
  }
}

/** Defines the suite for one adapter. */
export function runConformance(target: ConformanceTarget): void {
  const echoes = target.echoesReasoning ?? true;
  const expectEcho = (request: RecordedRequest | undefined, expected: string[]) =>
    expect(viewOf(request).echoedReasoning).toEqual(echoes ? expected : []);

  describe(`${target.name} conformance`, () => {
    let server: ScriptedServer;
    let adapter: ModelAdapter;
    let session: DriverSession;
    const run = (text: string, adapterFor: (step: number) => ModelAdapter = () => adapter) =>
      runEpisode(session, text, { adapterFor });
    const runHook = async (scenario: ScenarioName) =>
      target.hooks?.afterScenario?.(scenario, { server, session, calls: server.modelCalls() });

    beforeEach(async () => {
      server = await target.startServer();
      adapter = target.createAdapter(server.url, { model: target.models.primary });
      session = newSession('episode');
    });
    afterEach(async () => {
      await server.close();
    });

    it('runs one episode with three tool steps, echoing the current reasoning with its opaque data', async () => {
      server.enqueue(
        { type: 'reply', reasoning: ['r1: read the log'], toolCalls: [{ name: 'get_ci_log', args: { run: 1 } }] },
        {
          type: 'reply',
          reasoning: ['r2: open the test'],
          toolCalls: [{ name: 'read_file', args: { path: 'a.test.ts' } }],
        },
        { type: 'reply', reasoning: ['r3: compare runs'], toolCalls: [{ name: 'get_ci_log', args: { run: 2 } }] },
        { type: 'reply', reasoning: ['r4: conclude'], text: 'The expectation is off by one.' },
      );
      const final = await run('CI is red on main');
      const calls = server.modelCalls();
      expect(calls.map((call) => call.status)).toEqual([200, 200, 200, 200]);
      expectEcho(calls[0], []);
      expectEcho(calls[1], ['r1: read the log']);
      expectEcho(calls[2], ['r1: read the log', 'r2: open the test']);
      expectEcho(calls[3], ['r1: read the log', 'r2: open the test', 'r3: compare runs']);
      expectNoOrphans(calls);
      expect(final && assistantText(final)).toBe('The expectation is off by one.');
      const assistants = session.messages.filter(
        (message): message is AssistantMessage => message.role === 'assistant',
      );
      expect(assistants).toHaveLength(4);
      for (const message of assistants) {
        expect(message.model).toEqual(adapter.model);
        const reasoning = message.content.filter((part): part is ReasoningPart => part.type === 'reasoning');
        if (echoes) expect(reasoning.length).toBeGreaterThan(0);
        for (const part of reasoning)
          expect(part.providerData).toMatchObject({ provider: adapter.model.provider, model: adapter.model.id });
      }
      expect(session.usage.every((usage) => usage.inputTokens > 0 && usage.outputTokens > 0)).toBe(true);
      await runHook('three-tool-steps');
    });

    it('drops past-episode reasoning at the next user message and keeps the new episode`s', async () => {
      server.enqueue(
        { type: 'reply', reasoning: ['e1: look'], toolCalls: [{ name: 'get_ci_log', args: { run: 7 } }] },
        { type: 'reply', reasoning: ['e1: answer'], text: 'Flaky test.' },
        { type: 'reply', reasoning: ['e2: look again'], toolCalls: [{ name: 'read_file', args: { path: 'b.ts' } }] },
        { type: 'reply', reasoning: ['e2: answer'], text: 'Fixed in b.ts.' },
      );
      await run('Why is CI red?');
      await run('And the second failure?');
      const calls = server.modelCalls();
      expect(calls.map((call) => call.status)).toEqual([200, 200, 200, 200]);
      const second = viewOf(calls[2]);
      expect(second.reasoningItems).toBe(0);
      expect(second.userTexts).toEqual(['Why is CI red?', 'And the second failure?']);
      expect(second.toolCallIds).toHaveLength(1);
      expectEcho(calls[3], ['e2: look again']);
      expectNoOrphans(calls);
      await runHook('second-user-turn');
    });

    it('sends parallel tool calls and their results together, in order', async () => {
      server.enqueue(
        {
          type: 'reply',
          reasoning: ['p: both at once'],
          toolCalls: [
            { name: 'get_ci_log', args: { run: 1 } },
            { name: 'read_file', args: { path: 'c.ts' } },
          ],
        },
        { type: 'reply', text: 'Both checked.' },
      );
      await run('Check run 1 and c.ts');
      const calls = server.modelCalls();
      expect(calls.map((call) => call.status)).toEqual([200, 200]);
      const view = viewOf(calls[1]);
      expect(view.toolCallIds).toHaveLength(2);
      expect(view.toolResultIds).toEqual(view.toolCallIds);
      expectEcho(calls[1], ['p: both at once']);
      await runHook('parallel-tool-calls');
    });

    it('sends a failing tool`s result flagged as an error and goes on', async () => {
      server.enqueue(
        { type: 'reply', reasoning: ['t: try it'], toolCalls: [{ name: 'failing_tool', args: {} }] },
        { type: 'reply', text: 'The tool failed; giving up.' },
      );
      await run('Use the failing tool');
      const calls = server.modelCalls();
      expect(calls.map((call) => call.status)).toEqual([200, 200]);
      const view = viewOf(calls[1]);
      expect(view.toolErrorIds).toEqual(view.toolCallIds);
      const result = session.messages.find((message) => message.role === 'tool');
      expect(result).toMatchObject({ isError: true, content: 'Error: disk on fire' });
      await runHook('tool-error');
    });

    it('aborts mid-stream with a typed error and serves the next call normally', async () => {
      server.enqueue({ type: 'stall', text: 'partial answer' });
      const controller = new AbortController();
      const request = { system: 'sys', messages: [{ role: 'user', content: 'go' } as Message], tools: testToolSpecs };
      const started = Date.now();
      const consume = async () => {
        for await (const event of adapter.stream(request, { signal: controller.signal })) {
          if (event.type === 'text-delta') controller.abort();
        }
      };
      const error = await consume().then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      expect(error).toBeInstanceOf(ModelError);
      expect((error as ModelError).kind).toBe('aborted');
      expect(Date.now() - started).toBeLessThan(5000);
      server.enqueue({ type: 'reply', text: 'back' });
      const response = await generate(adapter, request);
      expect(assistantText(response.message)).toBe('back');
      await runHook('abort-mid-stream');
    });

    it('maps 429 to a retryable rate-limit error, then succeeds on retry', async () => {
      server.enqueue({ type: 'error', status: 429, retryAfterSeconds: 0 }, { type: 'reply', text: 'after the limit' });
      const final = await run('Try despite limits');
      expect(final && assistantText(final)).toBe('after the limit');
      const [error] = session.errors;
      expect(error).toBeInstanceOf(ModelError);
      expect(error).toMatchObject({ kind: 'rate-limit', retryable: true, status: 429, retryAfter: 0 });
      expect(server.modelCalls().map((call) => call.status)).toEqual([429, 200]);
      await runHook('rate-limit-then-success');
    });

    it('maps a context-length error to context-overflow and succeeds after one repack', async () => {
      server.enqueue(
        { type: 'reply', text: 'first answer' },
        { type: 'context-overflow' },
        { type: 'reply', text: 'fits now' },
      );
      await run('First question');
      const final = await run('Second question');
      expect(final && assistantText(final)).toBe('fits now');
      expect(session.errors.map((error) => error.kind)).toEqual(['context-overflow']);
      expect(session.errors[0]?.retryable).toBe(false);
      const calls = server.modelCalls();
      expect(calls.map((call) => call.status)).toEqual([200, 400, 200]);
      expect(viewOf(calls[2]).messageCount).toBeLessThan(viewOf(calls[1]).messageCount);
      expect(viewOf(calls[2]).userTexts).toEqual(['Second question']);
      await runHook('context-overflow-repack');
    });

    it('switches model mid-episode without sending the other model`s opaque reasoning', async () => {
      const other = target.createAdapter(server.url, { model: target.models.secondary });
      server.enqueue(
        { type: 'reply', reasoning: ['a: primary thinks'], toolCalls: [{ name: 'get_ci_log', args: { run: 3 } }] },
        { type: 'reply', reasoning: ['b: secondary thinks'], text: 'Secondary answers.' },
        { type: 'reply', reasoning: ['b: next episode'], toolCalls: [{ name: 'read_file', args: { path: 'd.ts' } }] },
        { type: 'reply', text: 'Done.' },
      );
      await run('Start with the primary model', (step) => (step === 0 ? adapter : other));
      await run('Continue with the secondary', () => other);
      const calls = server.modelCalls();
      expect(calls.map((call) => call.status)).toEqual([200, 200, 200, 200]);
      expect(viewOf(calls[1]).model).toBe(target.models.secondary);
      expect(viewOf(calls[1]).echoedReasoning).toEqual([]);
      expect(viewOf(calls[1]).reasoningItems).toBe(0);
      expectEcho(calls[3], ['b: next episode']);
      const lastAssistant = session.messages.filter((message) => message.role === 'assistant').at(-1);
      expect(lastAssistant?.model).toEqual(other.model);
      expectNoOrphans(calls);
      expect(toolCallsOf(session.messages[1] as AssistantMessage)).toHaveLength(1);
      await runHook('model-switch');
    });
  });

  runAgentLoopConformance(target);
}
