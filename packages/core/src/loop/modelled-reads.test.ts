import { describe, expect, it } from 'vitest';
import type { Message, ToolMessage } from '../message/message.js';
import { packContext } from '../packing/pack-context.js';
import { createTokenCounter } from '../tokens/token-counter.js';
import { CUT_RESULT_READER } from './cut-results/cut-result-reader.js';
import { modelledReads } from './modelled-reads.js';

const counter = createTokenCounter();
const words = (count: number) => Array.from({ length: count }, (_, index) => `word${index}`).join(' ');

function session(resultText: string): { messages: Message[]; result: ToolMessage } {
  const result: ToolMessage = { role: 'tool', toolCallId: 'call_1', toolName: 'read', content: resultText };
  const messages: Message[] = [
    { role: 'user', content: 'Read it.' },
    { role: 'assistant', content: [{ type: 'tool-call', id: 'call_1', name: 'read', args: {} }] },
    result,
  ];
  return { messages, result };
}

describe('modelledReads', () => {
  it('reads a fresh cut result back in slices of at most the read cap', () => {
    const { messages, result } = session(words(6_000));
    const packed = packContext({ messages, budget: 8_000, tokenizer: counter, currentToolResultCap: 500, resultReader: CUT_RESULT_READER });
    const sent = packed.messages[2] as ToolMessage;
    expect(sent).not.toBe(result);
    const omitted = counter.countText(result.content as string) - counter.countText(sent.content as string);
    const reads = modelledReads(packed.messages, [result], counter, 1_000);
    expect(reads).toHaveLength(Math.ceil(omitted / 1_000));
    const overhead = reads[0]! - 1_000;
    expect(overhead).toBeGreaterThan(10);
    expect(reads.reduce((sum, read) => sum + read - overhead, 0)).toBe(omitted);
  });

  it('models no read for a result sent whole, one seen before, or without a reader worth offering', () => {
    const { messages, result } = session(words(6_000));
    const cut = packContext({ messages, budget: 8_000, tokenizer: counter, currentToolResultCap: 500 }).messages;
    expect(modelledReads(cut, [], counter, 1_000)).toEqual([]);
    expect(modelledReads(cut, [result], counter, 100)).toEqual([]);
    const small = session('short output');
    const whole = packContext({ messages: small.messages, budget: 8_000, tokenizer: counter }).messages;
    expect(modelledReads(whole, [small.result], counter, 1_000)).toEqual([]);
  });
});
