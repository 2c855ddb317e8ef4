import { describe, expect, it } from 'vitest';
import { ModelError, type ModelStreamEvent } from '../model/model-adapter.js';
import { generate } from '../model/model-response.js';
import { scriptedModel } from './scripted-model.js';

const request = { messages: [{ role: 'user' as const, content: 'hello there' }] };

async function events(stream: AsyncIterable<ModelStreamEvent>): Promise<ModelStreamEvent[]> {
  const out: ModelStreamEvent[] = [];
  for await (const event of stream) out.push(event);
  return out;
}

describe('scriptedModel', () => {
  it('streams reasoning, text and tool-call deltas, then a finish with the whole message', async () => {
    const model = scriptedModel({
      chunkSize: 4,
      steps: [
        { reasoning: 'think hard', text: 'answer', toolCalls: [{ name: 'f', args: { a: 1 } }], signature: 'sig' },
      ],
    });
    const all = await events(model.stream(request));
    expect(all.filter((event) => event.type === 'reasoning-delta').map((event) => event.text)).toEqual([
      'thin',
      'k ha',
      'rd',
    ]);
    expect(
      all
        .filter((event) => event.type === 'tool-call-delta')
        .map((event) => event.argsDelta)
        .join(''),
    ).toBe('{"a":1}');
    const finish = all.at(-1);
    expect(finish).toMatchObject({
      type: 'finish',
      stopReason: 'tool-calls',
      message: {
        role: 'assistant',
        model: { provider: 'scripted', id: 'scripted-model' },
        content: [
          { type: 'reasoning', text: 'think hard', signature: 'sig' },
          { type: 'text', text: 'answer' },
          { type: 'tool-call', id: 'call_1_1', name: 'f', args: { a: 1 } },
        ],
      },
    });
    expect(model.requests).toEqual([request]);
  });

  it('reports input tokens that grow with the request, and lets a step override usage', async () => {
    const model = scriptedModel({
      steps: [{ text: 'a' }, { text: 'b' }, { text: 'c', usage: { inputTokens: 7, cachedInputTokens: 3 } }],
    });
    const small = await generate(model, request);
    const large = await generate(model, { ...request, system: 'x'.repeat(400) });
    expect(large.usage.inputTokens).toBeGreaterThanOrEqual(small.usage.inputTokens + 100);
    expect((await generate(model, request)).usage).toMatchObject({ inputTokens: 7, cachedInputTokens: 3 });
  });

  it('computes steps from the request and fails a step with a typed, classified error', async () => {
    const model = scriptedModel({
      steps: (incoming, index) =>
        index === 0
          ? { error: { kind: 'rate-limit', retryAfter: 3 } }
          : { text: `${incoming.messages.length} messages` },
    });
    const failure = await generate(model, request).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ModelError);
    expect(failure).toMatchObject({ kind: 'rate-limit', retryable: true, retryAfter: 3 });
    expect((await generate(model, request)).message.content).toEqual([{ type: 'text', text: '1 messages' }]);
  });

  it('waits before streaming and stops waiting when aborted', async () => {
    const model = scriptedModel({ steps: [{ text: 'late' }], latencyMs: 10_000 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 10);
    const started = performance.now();
    await expect(generate(model, request, { signal: controller.signal })).rejects.toMatchObject({ kind: 'aborted' });
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});
