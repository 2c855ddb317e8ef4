import { describe, expect, it } from 'vitest';
import type { ModelStreamEvent } from '@episodic/core';
import { AISDKStreamFold } from './ai-sdk-stream.js';
import type { AISDKStreamPart } from './ai-sdk-types.js';

const model = { provider: 'anthropic', id: 'claude-sonnet-4-5' };
const finish = { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_use' }, usage: {
  inputTokens: { total: 120, noCache: 20, cacheRead: 90, cacheWrite: 10 },
  outputTokens: { total: 30, text: 10, reasoning: 20 },
} };

function fold(parts: Record<string, unknown>[]) {
  const folder = new AISDKStreamFold(model);
  const events: ModelStreamEvent[] = [];
  for (const part of parts) events.push(...folder.accept(part as unknown as AISDKStreamPart));
  return { events, result: () => folder.result() };
}

describe('AISDKStreamFold', () => {
  it('folds parts in order with their metadata merged over start, deltas and end', () => {
    const { events, result } = fold([
      { type: 'reasoning-start', id: 'r', providerMetadata: { anthropic: { redactedData: undefined } } },
      { type: 'reasoning-delta', id: 'r', delta: 'think' },
      { type: 'reasoning-delta', id: 'r', delta: '', providerMetadata: { anthropic: { signature: 'sig' } } },
      { type: 'reasoning-end', id: 'r' },
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: 'Looking.' },
      { type: 'text-end', id: 't' },
      { type: 'tool-input-start', id: 'c1', toolName: 'read_log' },
      { type: 'tool-input-delta', id: 'c1', delta: '{"run":' },
      { type: 'tool-input-delta', id: 'c1', delta: '1}' },
      { type: 'tool-call', toolCallId: 'c1', toolName: 'read_log', input: '{"run":1}' },
      { type: 'custom', kind: 'anthropic.message_start', providerMetadata: { anthropic: { id: 'msg_1' } } },
      finish,
    ]);
    expect(events.map((event) => event.type)).toEqual(['reasoning-delta', 'text-delta', 'tool-call-start', 'tool-call-delta', 'tool-call-delta']);
    const done = result();
    expect(done.stopReason).toBe('tool-calls');
    expect(done.usage).toEqual({ inputTokens: 120, cachedInputTokens: 90, cacheWriteTokens: 10, outputTokens: 30, reasoningTokens: 20 });
    expect(done.message.content).toEqual([
      { type: 'reasoning', text: 'think', providerData: { provider: 'anthropic', model: 'claude-sonnet-4-5', providerOptions: { anthropic: { redactedData: undefined, signature: 'sig' } } } },
      { type: 'text', text: 'Looking.' },
      { type: 'tool-call', id: 'c1', name: 'read_log', args: { run: 1 } },
      {
        type: 'provider-tool',
        name: 'ai-sdk:custom',
        kind: 'call',
        providerData: { provider: 'anthropic', model: 'claude-sonnet-4-5', part: { type: 'custom', kind: 'anthropic.message_start', providerOptions: { anthropic: { id: 'msg_1' } } } },
      },
    ]);
  });

  it('takes a tool call given whole (no input deltas) and keeps bad JSON arguments as text', () => {
    const { events, result } = fold([{ type: 'tool-call', toolCallId: 'c1', toolName: 'read_log', input: '{"run":' }, finish]);
    expect(events).toEqual([
      { type: 'tool-call-start', id: 'c1', name: 'read_log' },
      { type: 'tool-call-delta', id: 'c1', argsDelta: '{"run":' },
    ]);
    expect(result().message.content).toEqual([{ type: 'tool-call', id: 'c1', name: 'read_log', args: '{"run":' }]);
  });

  it('throws the typed error of an error part, and a retryable protocol error for a stream without finish', () => {
    expect(() => fold([{ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }])).toThrow(/Overloaded/);
    const { result } = fold([{ type: 'text-delta', id: 't', delta: 'partial' }]);
    expect(() => result()).toThrow(/without a finish part/);
  });
});
