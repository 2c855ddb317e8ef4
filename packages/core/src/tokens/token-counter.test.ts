import { get_encoding } from 'tiktoken';
import { describe, expect, it, vi } from 'vitest';
import { Calibration } from './calibration.js';
import type { AssistantMessage, Message } from '../message/message.js';
import { createTokenCounter, FRAMING } from './token-counter.js';

describe('token counting', () => {
  it('counts with o200k_base by default and cl100k_base on request', () => {
    const o200k = createTokenCounter();
    const cl100k = createTokenCounter({ encoding: 'cl100k_base' });
    expect(o200k.encoding).toBe('o200k_base');
    expect(o200k.countText('hello world')).toBe(2);
    expect(cl100k.countText('hello world')).toBe(2);
    // The encodings differ on non-English text.
    const text = 'Привет, как дела? 今日はいい天気ですね。';
    expect(o200k.countText(text)).not.toBe(cl100k.countText(text));
    expect(o200k.countText('<|endoftext|>')).toBeGreaterThan(1);
  });

  it('adds framing per message and per part', () => {
    const counter = createTokenCounter();
    const message: Message = { role: 'user', content: 'hello world' };
    expect(counter.countMessage(message)).toBe(2 + FRAMING.message);
    const assistant: AssistantMessage = {
      role: 'assistant',
      content: [
        { type: 'reasoning', text: 'hello world' },
        { type: 'tool-call', id: 'c', name: 'x', args: { a: 1 } },
      ],
    };
    const args = counter.countText(JSON.stringify({ a: 1 }));
    expect(counter.countMessage(assistant)).toBe(FRAMING.message + FRAMING.reasoning + 2 + FRAMING.toolCall + 1 + args);
  });

  it('tokenizes each system prompt once while sessions with different prompts interleave', () => {
    const counter = createTokenCounter();
    const probe = get_encoding('o200k_base');
    const tiktoken = Object.getPrototypeOf(probe) as { encode_ordinary(text: string): Uint32Array };
    probe.free();
    const spy = vi.spyOn(tiktoken, 'encode_ordinary');
    try {
      const prompts = ['You help tenant A with billing.', 'You help tenant B with shipping.'];
      const first = prompts.map((prompt) => counter.countSystem(prompt));
      spy.mockClear();
      for (let call = 0; call < 3; call += 1) expect(prompts.map((prompt) => counter.countSystem(prompt))).toEqual(first);
      expect(spy).not.toHaveBeenCalled();
    } finally {
      spy.mockRestore();
    }
  });

  it('tokenizes a message once: the count is cached per object', () => {
    const counter = createTokenCounter();
    const message: Message = { role: 'user', content: 'first' };
    const before = counter.countMessage(message);
    // Mutating the cached object does not change its count: proof that it was not re-tokenized.
    message.content = 'a much longer content that would count differently';
    expect(counter.countMessage(message)).toBe(before);
    expect(counter.countMessage({ ...message })).toBeGreaterThan(before);
  });

  it('scales counts by the calibration factor and learns it from reported usage', () => {
    const calibration = new Calibration({ safetyMargin: 0.05 });
    const counter = createTokenCounter({ calibration });
    const message: Message = { role: 'user', content: 'hello world '.repeat(100) };
    const raw = counter.countMessage(message);
    calibration.observe(raw, Math.round(raw * 1.2));
    expect(calibration.factor).toBeCloseTo(1.2 * 1.05, 2);
    expect(counter.countMessage(message)).toBe(Math.ceil(raw * calibration.factor));
    // A lower ratio is followed slowly (the factor stays above the latest ratio).
    const predicted = counter.countMessage(message);
    calibration.observe(predicted, raw);
    expect(calibration.factor).toBeGreaterThan(1.05);
    expect(calibration.factor).toBeLessThan(1.2 * 1.05);
  });

  it('rejects an unknown encoding with a clear error', () => {
    expect(() => createTokenCounter({ encoding: 'p50k' as 'o200k_base' })).toThrow(/unknown encoding "p50k"/);
  });
});
