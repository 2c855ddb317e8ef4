/**
 * Traces of a real agent run on the scripted model, collected by the OpenTelemetry
 * SDK's in-memory exporter: three episodes of one session (tool calls with a failing
 * tool and a retried rate limit; a model failure; an abort while a tool runs).
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import { Agent } from '../agent/agent.js';
import type { AgentTool } from '../loop/tool.js';
import { scriptedModel } from '../testing/scripted-model.js';
import { createTelemetry, type TelemetryOptions } from './create-telemetry.js';

const SECRET = 'customer-4711 secret prompt';

const lookup: AgentTool = {
  spec: { name: 'lookup', description: 'Looks a build up.', inputSchema: { type: 'object' } },
  async execute(args) {
    if ((args as { id?: string }).id === 'broken') throw new Error(`no build ${SECRET}`);
    return { content: `build ${(args as { id?: string }).id} is red` };
  },
};
const hang: AgentTool = {
  spec: { name: 'hang', description: 'Never finishes.', inputSchema: { type: 'object' } },
  execute: (_args, { signal }) => new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason))),
};

/** Runs the three episodes and returns the finished spans. */
async function traceSession(options: Omit<TelemetryOptions, 'tracer'> = {}): Promise<ReadableSpan[]> {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const telemetry = await createTelemetry({ ...options, tracer: provider.getTracer('test') });
  expect(telemetry.enabled).toBe(true);
  const model = scriptedModel({
    steps: [
      {
        reasoning: `Check both builds for ${SECRET}.`,
        toolCalls: [{ name: 'lookup', args: { id: '7' } }, { name: 'lookup', args: { id: 'broken' } }],
        usage: { inputTokens: 900, cachedInputTokens: 600, outputTokens: 40, reasoningTokens: 12 },
      },
      { error: { kind: 'rate-limit', retryAfter: 0 } },
      { text: 'Build 7 is red.', usage: { inputTokens: 1000, cachedInputTokens: 800, outputTokens: 9 } },
      { toolCalls: [{ name: 'lookup', args: { id: '8' } }] },
      { error: { kind: 'invalid-request', message: 'tools[0] is not valid' } },
      { toolCalls: [{ name: 'hang' }] },
    ],
  });
  const agent = new Agent({ model, tools: [lookup, hang], context: { budget: 20_000 }, modelCalls: { retry: { sleep: async () => {} } } });
  const session = await agent.session({ id: 'session-1' });
  const onEvent = telemetry.handler();
  await session.send(`Why is CI red for ${SECRET}?`, { onEvent });
  await expect(session.send('And build 8?', { onEvent })).rejects.toThrow(/tools\[0\] is not valid/);
  const controller = new AbortController();
  const aborted = session.send('Wait for it', {
    signal: controller.signal,
    onEvent: (event) => {
      onEvent(event);
      if (event.type === 'tool-call') setTimeout(() => controller.abort(), 20);
    },
  });
  await expect(aborted).rejects.toMatchObject({ code: 'run_aborted' });
  await provider.forceFlush();
  return exporter.getFinishedSpans();
}

/**
 * The span tree as `name` lines, children indented under their parent. Siblings in
 * run order: by step, then a step's model call attempts, then its tool calls by id
 * (tools of one step run at the same time, so their start times do not order them).
 */
function tree(spans: readonly ReadableSpan[]): string[] {
  const order = (span: ReadableSpan) => {
    const { attributes } = span;
    const step = Number(attributes['episodic.step'] ?? 0);
    const attempt = Number(attributes['episodic.attempt'] ?? 1000);
    return [step, attempt, String(attributes['gen_ai.tool.call.id'] ?? ''), hrMs(span.startTime)] as const;
  };
  const compare = (a: ReadableSpan, b: ReadableSpan) => {
    const [x, y] = [order(a), order(b)];
    return x[0] - y[0] || x[1] - y[1] || x[2].localeCompare(y[2]) || x[3] - y[3];
  };
  const lines: string[] = [];
  const walk = (parent: string | undefined, depth: number) => {
    for (const span of spans.filter((item) => item.parentSpanContext?.spanId === parent).sort(compare)) {
      const failed = span.status.code === 2 ? ` [error ${span.attributes['error.type']}]` : '';
      lines.push(`${'  '.repeat(depth)}${span.name}${failed}`);
      walk(span.spanContext().spanId, depth + 1);
    }
  };
  walk(undefined, 0);
  return lines;
}

const find = (spans: readonly ReadableSpan[], predicate: (span: ReadableSpan) => boolean) => {
  const found = spans.filter(predicate);
  expect(found.length).toBeGreaterThan(0);
  return found;
};

describe('createTelemetry', () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('traces each episode as a tree of model calls and tool calls, with failures and the abort recorded', async () => {
    const spans = await traceSession();
    expect(tree(spans)).toEqual([
      'invoke_agent episodic',
      '  chat scripted-model',
      '  execute_tool lookup',
      '  execute_tool lookup [error tool_error]',
      '  chat scripted-model [error model_rate_limit]',
      '  chat scripted-model',
      'invoke_agent episodic [error model_invalid_request]',
      '  chat scripted-model',
      '  execute_tool lookup',
      '  chat scripted-model [error model_invalid_request]',
      'invoke_agent episodic [error run_aborted]',
      '  chat scripted-model',
      '  execute_tool hang [error tool_error]',
    ]);
    // One trace per episode, all parented explicitly.
    const roots = spans.filter((span) => span.name === 'invoke_agent episodic');
    for (const span of spans) {
      const root = roots.find((candidate) => candidate.spanContext().traceId === span.spanContext().traceId);
      expect(root).toBeDefined();
    }
  });

  it('sets the GenAI attributes and what the packer knows', async () => {
    const spans = await traceSession();
    const [first] = find(spans, (span) => span.name === 'chat scripted-model' && span.attributes['episodic.step'] === 1);
    expect(first!.kind).toBe(2);
    expect(first!.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'scripted',
      'gen_ai.system': 'scripted',
      'gen_ai.request.model': 'scripted-model',
      'gen_ai.response.model': 'scripted-model',
      'gen_ai.usage.input_tokens': 900,
      'gen_ai.usage.output_tokens': 40,
      'gen_ai.usage.cache_read.input_tokens': 600,
      'gen_ai.usage.reasoning.output_tokens': 12,
      'gen_ai.response.finish_reasons': ['tool_call'],
      'episodic.cache.reported_reuse_tokens': 600,
      'episodic.attempt': 1,
      'episodic.pack.budget': 20_000,
      'episodic.pack.evicted_episodes': 0,
      'episodic.reasoning.dropped_parts': 0,
    });
    expect(first!.attributes['episodic.pack.tokens.total']).toBeGreaterThan(0);
    expect(first!.attributes['episodic.cache.predicted_reuse_tokens']).toBeTypeOf('number');
    // The model span ends when the answer is in, before the tools ran.
    const tools = spans.filter((span) => span.name === 'execute_tool lookup');
    expect(hrMs(first!.endTime)).toBeLessThanOrEqual(hrMs(tools[0]!.startTime) + 1);

    const retried = find(spans, (span) => span.attributes['episodic.attempt'] === 2)[0]!;
    expect(retried.attributes).toMatchObject({ 'episodic.step': 2, 'gen_ai.response.finish_reasons': ['stop'] });
    // Past reasoning is dropped once the next episode starts.
    const secondEpisodeCall = spans.find(
      (span) => span.name === 'chat scripted-model' && span.attributes['episodic.reasoning.dropped_parts'] === 1,
    );
    expect(secondEpisodeCall).toBeDefined();

    const [episode] = find(spans, (span) => span.name === 'invoke_agent episodic' && span.status.code !== 2);
    expect(episode!.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.conversation.id': 'session-1',
      'gen_ai.usage.input_tokens': 1900,
      'gen_ai.usage.cache_read.input_tokens': 1400,
      'episodic.episode.finish_reason': 'done',
      'episodic.episode.model_calls': 2,
      'episodic.retries': 1,
    });
    expect(episode!.events.map((event) => event.name)).toEqual(['episodic.retry']);

    const [tool] = find(spans, (span) => span.name === 'execute_tool lookup' && span.status.code === 2);
    expect(tool!.attributes).toMatchObject({ 'gen_ai.tool.name': 'lookup', 'gen_ai.tool.call.id': 'call_1_2' });
    const [aborted] = find(spans, (span) => span.attributes['episodic.episode.finish_reason'] === 'aborted');
    expect(aborted!.events.map((event) => event.name)).toContain('exception');
  });

  it('keeps content out of spans unless asked', async () => {
    const leaks = (spans: readonly ReadableSpan[]) =>
      JSON.stringify(spans.map((span) => [span.attributes, span.events.filter((event) => event.name !== 'exception')]))
        .includes('secret prompt');
    expect(leaks(await traceSession())).toBe(false);

    const spans = await traceSession({ recordContent: true });
    expect(leaks(spans)).toBe(true);
    const [episode] = find(spans, (span) => span.attributes['gen_ai.input.messages'] !== undefined);
    expect(JSON.parse(String(episode!.attributes['gen_ai.input.messages']))).toEqual([
      { role: 'user', parts: [{ type: 'text', content: `Why is CI red for ${SECRET}?` }] },
    ]);
    const [tool] = find(spans, (span) => span.attributes['gen_ai.tool.call.arguments'] === '{"id":"7"}');
    expect(tool!.attributes['gen_ai.tool.call.result']).toBe('build 7 is red');
    const [call] = find(spans, (span) => String(span.attributes['gen_ai.output.messages'] ?? '').includes('reasoning'));
    expect(JSON.parse(String(call!.attributes['gen_ai.output.messages']))[0].parts[0]).toEqual({
      type: 'reasoning',
      content: `Check both builds for ${SECRET}.`,
    });
  });

  it('does nothing, and imports nothing at load, when @opentelemetry/api is not installed', async () => {
    const core = pathToFileURL(fileURLToPath(new URL('../../dist/index.js', import.meta.url))).href;
    const testing = pathToFileURL(fileURLToPath(new URL('../../dist/testing/index.js', import.meta.url))).href;
    const telemetryEntry = pathToFileURL(fileURLToPath(new URL('../../dist/telemetry.js', import.meta.url))).href;
    dir = await mkdtemp(join(tmpdir(), 'episodic-no-otel-'));
    // A resolve hook that makes the package look absent, as in a project that never installed it.
    await writeFile(
      join(dir, 'hook.mjs'),
      `export async function resolve(specifier, context, next) {
        if (specifier.startsWith('@opentelemetry/api')) return next('@opentelemetry/api-not-installed', context);
        return next(specifier, context);
      }`,
    );
    await writeFile(
      join(dir, 'main.mjs'),
      `import { register } from 'node:module';
      register(new URL('./hook.mjs', import.meta.url));
      await import('@opentelemetry/api').then(() => { throw new Error('the hook did not hide the API'); }, () => {});
      const { Agent } = await import(${JSON.stringify(core)});
      const { createTelemetry } = await import(${JSON.stringify(telemetryEntry)});
      const { scriptedModel } = await import(${JSON.stringify(testing)});
      const telemetry = await createTelemetry();
      const agent = new Agent({ model: scriptedModel({ steps: [{ text: 'fine' }] }), budget: 5000 });
      const result = await (await agent.session()).send('hi', { onEvent: telemetry.handler() });
      console.log(JSON.stringify({ enabled: telemetry.enabled, text: result.text }));`,
    );
    const output = execFileSync(process.execPath, [join(dir, 'main.mjs')], { encoding: 'utf8' });
    expect(JSON.parse(output)).toEqual({ enabled: false, text: 'fine' });
  }, 60_000);

  it('names the model of each call when a fallback model takes over', async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const telemetry = await createTelemetry({ tracer: provider.getTracer('test') });
    const primary = scriptedModel({ model: { provider: 'lab-a', id: 'model-a' }, steps: [{ error: { kind: 'overloaded', status: 529 } }] });
    const secondary = scriptedModel({ model: { provider: 'lab-b', id: 'model-b' }, steps: [{ text: 'ok' }] });
    const modelCalls = { fallback: [secondary], retry: { maxRetries: 0 } };
    const agent = new Agent({ model: primary, context: { budget: 20_000 }, modelCalls });
    await (await agent.session()).send('hi', { onEvent: telemetry.handler() });
    const spans = exporter.getFinishedSpans();
    expect(spans.filter((span) => span.name.startsWith('chat ')).map((span) => span.name)).toEqual(['chat model-a', 'chat model-b']);
    const episode = spans.find((span) => span.name.startsWith('invoke_agent'));
    const fallback = episode?.events.find((event) => event.name === 'episodic.model_fallback');
    expect(fallback?.attributes).toMatchObject({
      'episodic.fallback.from': 'lab-a/model-a',
      'episodic.fallback.to': 'lab-b/model-b',
      'episodic.fallback.reason': 'overloaded',
    });
  });
});

function hrMs([seconds, nanos]: [number, number]): number {
  return seconds * 1000 + nanos / 1e6;
}
