import { describe, expect, it } from 'vitest';
import type { ModelAdapter, ModelStreamEvent } from './model-adapter.js';
import { collectResponse, generate } from './model-response.js';

const usage = { inputTokens: 3, outputTokens: 1 };
const finish: ModelStreamEvent = {
  type: 'finish',
  message: { role: 'assistant', content: [{ type: 'text', text: 'hi' }] },
  usage,
  stopReason: 'stop',
};

function adapterOf(events: ModelStreamEvent[]): ModelAdapter {
  return {
    model: { provider: 'test', id: 'm' },
    async* stream() {
      yield* events;
    },
  };
}

describe('collectResponse', () => {
  it('shows every event to the listener and folds them into the finish event with its warnings', async () => {
    const events: ModelStreamEvent[] = [
      { type: 'warning', message: 'careful' },
      { type: 'text-delta', text: 'hi' },
      finish,
    ];
    const seen: ModelStreamEvent[] = [];
    const response = await collectResponse(adapterOf(events), { messages: [] }, {}, (event) => seen.push(event));
    expect(seen).toEqual(events);
    expect(response).toEqual({ message: (finish as { message: unknown }).message, usage, stopReason: 'stop', warnings: ['careful'] });
    expect(await generate(adapterOf(events), { messages: [] })).toEqual(response);
  });

  it('fails with a retryable protocol error when the stream ends without finish', async () => {
    await expect(generate(adapterOf([{ type: 'text-delta', text: 'h' }]), { messages: [] })).rejects.toMatchObject({
      kind: 'protocol',
      retryable: true,
      message: 'test stream ended without a finish event',
    });
  });
});
