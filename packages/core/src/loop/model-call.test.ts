import { describe, expect, it } from 'vitest';
import { Agent } from '../agent/agent.js';
import type { AgentEvent } from './agent-events.js';
import { ModelError } from '../model/model-adapter.js';
import { asModelError, OVERFLOW_REPACK_FACTOR, retryDelay } from './model-call.js';
import { scriptedModel } from '../testing/scripted-model.js';

function fakeSleep() {
  const delays: number[] = [];
  return { delays, sleep: async (ms: number) => void delays.push(ms) };
}

describe('model call retries', () => {
  it('retries a 429 after the provider-given delay, without really sleeping', async () => {
    const { delays, sleep } = fakeSleep();
    const model = scriptedModel({
      steps: [
        { error: { kind: 'rate-limit', message: 'slow down', retryAfter: 2, status: 429 } },
        { text: 'partial', error: { kind: 'overloaded', message: 'busy' } },
        { text: 'finally' },
      ],
    });
    const events: AgentEvent[] = [];
    const session = await new Agent({ model, retry: { sleep, baseDelayMs: 100 } }).session();
    const result = await session.send('hi', { onEvent: (event) => events.push(event) });
    expect(result.text).toBe('finally');
    expect(model.requests).toHaveLength(3);
    expect(delays[0]).toBe(2_000);
    expect(delays[1]).toBeGreaterThanOrEqual(100);
    expect(delays[1]).toBeLessThanOrEqual(200);
    const errors = events.filter((event) => event.type === 'error');
    expect(errors.map((event) => event.type === 'error' && [event.willRetry, event.retryInMs])).toEqual([
      [true, 2_000],
      [true, delays[1]],
    ]);
    // the half-streamed text of the failed attempt is not kept
    expect(session.messages.map((message) => message.role)).toEqual(['user', 'assistant']);
  });

  it('gives up after maxRetries and throws the last error', async () => {
    const { delays, sleep } = fakeSleep();
    const model = scriptedModel({ steps: () => ({ error: { kind: 'server', message: '502 bad gateway' } }) });
    const session = await new Agent({ model, retry: { sleep, maxRetries: 2 } }).session();
    await expect(session.send('hi')).rejects.toMatchObject({ code: 'model_server', message: '502 bad gateway' });
    expect(model.requests).toHaveLength(3);
    expect(delays).toHaveLength(2);
  });

  it('repacks once with a smaller budget after a context-overflow error', async () => {
    const model = scriptedModel({
      steps: [{ error: { kind: 'context-overflow', message: 'prompt is too long' } }, { text: 'fits now' }],
    });
    const events: AgentEvent[] = [];
    const session = await new Agent({ model, budget: 10_000 }).session();
    const result = await session.send('hi', { onEvent: (event) => events.push(event) });
    expect(result.text).toBe('fits now');
    const budgets = events.flatMap((event) => (event.type === 'context-packed' ? [event.budget] : []));
    expect(budgets).toEqual([10_000, Math.floor(10_000 * OVERFLOW_REPACK_FACTOR)]);
  });

  it('does not repack twice', async () => {
    const model = scriptedModel({ steps: () => ({ error: { kind: 'context-overflow', message: 'still too long' } }) });
    const session = await new Agent({ model, budget: 10_000 }).session();
    await expect(session.send('hi')).rejects.toMatchObject({ code: 'model_context_overflow' });
    expect(model.requests).toHaveLength(2);
  });

  it('stops waiting for a retry when the run is aborted', async () => {
    const model = scriptedModel({ steps: [{ error: { kind: 'rate-limit', retryAfter: 60 } }, { text: 'never' }] });
    const session = await new Agent({ model }).session();
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    const started = performance.now();
    await expect(session.send('hi', { signal: controller.signal })).rejects.toMatchObject({ code: 'run_aborted' });
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(model.requests).toHaveLength(1);
  });

  it('a retry-after of 3,000,000 s waits (the longest timer), not 1 ms as an overflowed setTimeout would', async () => {
    const model = scriptedModel({ steps: [{ error: { kind: 'rate-limit', retryAfter: 3_000_000, status: 429 } }, { text: 'too soon' }] });
    const events: AgentEvent[] = [];
    const session = await new Agent({ model }).session();
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    await expect(session.send('hi', { signal: controller.signal, onEvent: (event) => events.push(event) })).rejects.toMatchObject({
      code: 'run_aborted',
    });
    expect(model.requests).toHaveLength(1);
    expect(events.find((event) => event.type === 'error')).toMatchObject({ willRetry: true, retryInMs: 2 ** 31 - 1 });
  });

  it('computes backoff delays: retryAfter wins, else doubling up to the cap', () => {
    const limited = new ModelError('rate-limit', 'x', { retryable: true, retryAfter: 0.5 });
    const plain = new ModelError('server', 'x', { retryable: true });
    expect(retryDelay(limited, 5)).toBe(500);
    for (const attempt of [0, 1, 2, 10]) {
      const step = Math.min(1_000, 100 * 2 ** attempt);
      const delay = retryDelay(plain, attempt, { baseDelayMs: 100, maxDelayMs: 1_000 });
      expect(delay).toBeGreaterThanOrEqual(step / 2);
      expect(delay).toBeLessThanOrEqual(step);
    }
  });

  it('recognises model errors by code and kind', () => {
    expect(asModelError(new ModelError('auth', 'x'))?.kind).toBe('auth');
    expect(asModelError(new Error('x'))).toBeUndefined();
  });
});
