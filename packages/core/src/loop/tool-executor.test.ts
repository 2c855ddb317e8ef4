import { describe, expect, it } from 'vitest';
import { EpisodicError } from '../errors/episodic-error.js';
import type { ToolCallPart } from '../message/message.js';
import type { AgentTool } from './tool.js';
import { executeToolCalls, toolsByName } from './tool-executor.js';

function tool(name: string, execute: AgentTool['execute'], timeoutMs?: number): AgentTool {
  return { spec: { name, description: name, inputSchema: { type: 'object' } }, execute, timeoutMs };
}

function call(name: string, args: unknown, id = `call_${name}`): ToolCallPart {
  return { type: 'tool-call', id, name, args };
}

const echo = tool('echo', async (args) => ({ content: JSON.stringify(args) }));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('executeToolCalls', () => {
  it('answers every call in call order with its result', async () => {
    const slow = tool('slow', async () => {
      await sleep(20);
      return { content: 'slow done' };
    });
    const results = await executeToolCalls([call('slow', {}), call('echo', { a: 1 })], {
      tools: toolsByName([echo, slow]),
    });
    expect(results).toEqual([
      { role: 'tool', toolCallId: 'call_slow', toolName: 'slow', content: 'slow done', isError: false },
      { role: 'tool', toolCallId: 'call_echo', toolName: 'echo', content: '{"a":1}', isError: false },
    ]);
  });

  it('runs at most maxConcurrency calls at once', async () => {
    let running = 0;
    let peak = 0;
    const counted = tool('counted', async () => {
      running += 1;
      peak = Math.max(peak, running);
      await sleep(5);
      running -= 1;
      return { content: 'ok' };
    });
    const calls = Array.from({ length: 7 }, (_, index) => call('counted', {}, `call_${index}`));
    const results = await executeToolCalls(calls, { tools: toolsByName([counted]), maxConcurrency: 3 });
    expect(peak).toBe(3);
    expect(results.map((result) => result.toolCallId)).toEqual(calls.map((value) => value.id));
  });

  it('passes every result, errors included, through redact before onResult sees it', async () => {
    const leaky = tool('leaky', async (args) => {
      if ((args as { fail?: boolean }).fail) throw new Error('bad key KEY-12345678');
      return { content: 'the key is KEY-12345678' };
    });
    const seen: string[] = [];
    const results = await executeToolCalls([call('leaky', {}, 'c1'), call('leaky', { fail: true }, 'c2')], {
      tools: toolsByName([leaky]),
      redact: (text) => text.replaceAll('KEY-12345678', '[redacted]'),
      onResult: (result) => seen.push(result.content as string),
    });
    expect(results.map((result) => result.content)).toEqual([
      'the key is [redacted]',
      'Tool "leaky" failed: bad key [redacted]',
    ]);
    expect(seen.sort()).toEqual(results.map((result) => result.content).sort());
  });

  it('redacts an error before cutting it: a cut through a key would leave all but its last character', async () => {
    const key = 'KEY-1234567890abcdef';
    const prefix = 'Tool "leaky" failed: ';
    // Padded so the 1,000-character cut falls one character before the key's end.
    const padding = 'x'.repeat(1_000 - prefix.length - key.length + 1);
    const leaky = tool('leaky', async () => {
      throw new Error(`${padding}${key} rejected`);
    });
    const [result] = await executeToolCalls([call('leaky', {})], {
      tools: toolsByName([leaky]),
      redact: (text) => text.replaceAll(key, '[redacted]'),
    });
    expect(result?.content).not.toContain(key.slice(0, -1));
    expect(result?.content).toContain('[redacted]');
  });

  it('turns an unknown tool name into an error result naming the available tools', async () => {
    const [result] = await executeToolCalls([call('nope', {})], { tools: toolsByName([echo]) });
    expect(result).toMatchObject({
      isError: true,
      toolName: 'nope',
      content: 'Unknown tool "nope". Available tools: echo.',
    });
  });

  it('reports arguments that are not valid JSON, and parses raw JSON text that is valid', async () => {
    const [bad, good, notObject] = await executeToolCalls(
      [call('echo', '{"a":', 'c1'), call('echo', '{"a":2}', 'c2'), call('echo', '[1]', 'c3')],
      { tools: toolsByName([echo]) },
    );
    expect(bad?.isError).toBe(true);
    expect(bad?.content).toMatch(
      /^Invalid JSON arguments for tool "echo" \(.+\)\. Send the arguments as one JSON object\.$/,
    );
    expect(good).toMatchObject({ isError: false, content: '{"a":2}' });
    expect(notObject).toMatchObject({ isError: true, content: 'Arguments for tool "echo" must be a JSON object.' });
  });

  it('turns input errors and thrown errors into short messages without a stack', async () => {
    const strict = tool('strict', async () => {
      // the shape of core's ToolInputError (thrown by @episodic/tools' defineTool): a message written for the model
      throw new EpisodicError('invalid_tool_input', 'Invalid arguments for tool strict: path: expected string.');
    });
    const broken = tool('broken', async () => {
      throw new TypeError('cannot read x of undefined');
    });
    const throwsValue = tool('value', () => {
      throw 'plain string';
    });
    const results = await executeToolCalls([call('strict', {}), call('broken', {}), call('value', {})], {
      tools: toolsByName([strict, broken, throwsValue]),
    });
    expect(results.map((result) => [result.isError, result.content])).toEqual([
      [true, 'Invalid arguments for tool strict: path: expected string.'],
      [true, 'Tool "broken" failed: cannot read x of undefined'],
      [true, 'Tool "value" failed: plain string'],
    ]);
    for (const result of results) expect(result.content).not.toMatch(/\bat .+:\d+:\d+/);
  });

  it('times a call out through its signal, even when the tool ignores the signal', async () => {
    let sawAbort = false;
    const polite = tool(
      'polite',
      (_args, context) =>
        new Promise((_resolve, reject) => {
          context.signal.addEventListener('abort', () => {
            sawAbort = true;
            reject(new Error('stopped'));
          });
        }),
      20,
    );
    const stubborn = tool('stubborn', () => new Promise(() => {}));
    const started = performance.now();
    const results = await executeToolCalls([call('polite', {}), call('stubborn', {})], {
      tools: toolsByName([polite, stubborn]),
      timeoutMs: 30,
    });
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(sawAbort).toBe(true);
    expect(results.map((result) => result.content)).toEqual([
      'Tool "polite" timed out after 20 ms.',
      'Tool "stubborn" timed out after 30 ms.',
    ]);
  });

  it("gives a tool that reads its signal late, or from a copy of its context, the call's signal", async () => {
    // The signal is made on first read: after the timeout it must come out aborted,
    // and a spread of the context must carry it (it is an own, enumerable field).
    const seen: boolean[] = [];
    const late = tool('late', async (_args, context) => {
      await new Promise((resolve) => setTimeout(resolve, 40));
      seen.push(context.signal.aborted);
      return { content: 'late' };
    }, 10);
    const copying = tool('copying', (_args, context) => {
      const copy = { ...context };
      return new Promise((_resolve, reject) => copy.signal.addEventListener('abort', () => reject(new Error('stopped'))));
    }, 10);
    const results = await executeToolCalls([call('late', {}), call('copying', {})], {
      tools: toolsByName([late, copying]),
    });
    expect(results.map((result) => result.content)).toEqual([
      'Tool "late" timed out after 10 ms.',
      'Tool "copying" timed out after 10 ms.',
    ]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(seen).toEqual([true]);
  });

  it('answers every call "aborted" when the run is aborted, started or not', async () => {
    const controller = new AbortController();
    const hang = tool('hang', () => new Promise(() => {}));
    const calls = [call('hang', {}, 'a'), call('hang', {}, 'b'), call('hang', {}, 'c')];
    setTimeout(() => controller.abort(), 10);
    const results = await executeToolCalls(calls, {
      tools: toolsByName([hang]),
      maxConcurrency: 1,
      signal: controller.signal,
    });
    expect(results.map((result) => [result.toolCallId, result.isError, result.content])).toEqual(
      ['a', 'b', 'c'].map((id) => [id, true, 'Tool "hang" was aborted before it finished.']),
    );
  });

  it('reports completion through onResult with a duration', async () => {
    const seen: string[] = [];
    await executeToolCalls([call('echo', { x: 1 })], {
      tools: toolsByName([echo]),
      onResult: (result, _call, durationMs) => {
        expect(durationMs).toBeGreaterThanOrEqual(0);
        seen.push(result.toolCallId);
      },
    });
    expect(seen).toEqual(['call_echo']);
  });

  it('treats an infinite timeout as no timeout (a timer that long would fire at once)', async () => {
    const slow = tool(
      'slow',
      async () => {
        await sleep(15);
        return { content: 'done' };
      },
      Number.POSITIVE_INFINITY,
    );
    const lenient = tool('lenient', async () => {
      await sleep(15);
      return { content: 'done too' };
    });
    const results = await executeToolCalls([call('slow', {}), call('lenient', {})], {
      tools: toolsByName([slow, lenient]),
      timeoutMs: 2 ** 31,
    });
    expect(results.map((result) => [result.content, result.isError])).toEqual([
      ['done', false],
      ['done too', false],
    ]);
  });

  it('answers every call even when the concurrency limit is not a usable number', async () => {
    const calls = [call('echo', { n: 1 }, 'a'), call('echo', { n: 2 }, 'b')];
    for (const maxConcurrency of [Number.NaN, 0, -3]) {
      const results = await executeToolCalls(calls, { tools: toolsByName([echo]), maxConcurrency });
      expect(results.map((result) => result?.content)).toEqual(['{"n":1}', '{"n":2}']);
    }
  });
});
