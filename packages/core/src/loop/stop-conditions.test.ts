import { describe, expect, it } from 'vitest';
import type { AssistantMessage } from '../message/message.js';
import { allOf, anyOf, hasToolCall, maxSteps, type StopContext } from './stop-conditions.js';

function context(steps: number, toolNames: string[]): StopContext {
  const message: AssistantMessage = {
    role: 'assistant',
    content: toolNames.map((name, index) => ({ type: 'tool-call', id: `call_${index}`, name, args: {} })),
  };
  return { steps, message, toolResults: [], messages: [message] };
}

describe('stop conditions', () => {
  it('maxSteps holds from the given step on', () => {
    expect(maxSteps(3)(context(2, []))).toBe(false);
    expect(maxSteps(3)(context(3, []))).toBe(true);
    expect(maxSteps(3)(context(4, []))).toBe(true);
  });

  it('hasToolCall looks at the tool calls of the last step only', () => {
    expect(hasToolCall('finish')(context(1, ['search', 'finish']))).toBe(true);
    expect(hasToolCall('finish')(context(1, ['search']))).toBe(false);
  });

  it('anyOf and allOf compose, and custom predicates mix in', () => {
    const afterTwo = (value: StopContext) => value.steps > 2;
    expect(anyOf(hasToolCall('finish'), afterTwo)(context(3, ['search']))).toBe(true);
    expect(anyOf(hasToolCall('finish'), afterTwo)(context(1, ['search']))).toBe(false);
    expect(allOf(hasToolCall('search'), afterTwo)(context(3, ['search']))).toBe(true);
    expect(allOf(hasToolCall('search'), afterTwo)(context(1, ['search']))).toBe(false);
    expect(anyOf(allOf(maxSteps(2), hasToolCall('a')), maxSteps(5))(context(2, ['a']))).toBe(true);
  });

  it('empty compositions never stop', () => {
    expect(anyOf()(context(100, ['x']))).toBe(false);
    expect(allOf()(context(100, ['x']))).toBe(false);
  });
});
