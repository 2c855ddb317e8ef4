import { describe, expect, it } from 'vitest';
import type { Message } from '../../message/message.js';
import { createApproximateCounter, createTokenCounter, type TokenCounter } from '../../tokens/token-counter.js';
import { reasoningStats } from './reasoning-stats.js';

// The approximate counter counts ceil(characters / 4), which makes expected values easy to state.
const counter = createApproximateCounter();

const transcript: Message[] = [
  { role: 'system', content: 'You debug CI.' },
  { role: 'user', content: 'CI is red' },
  {
    role: 'assistant',
    content: [
      { type: 'reasoning', text: 'x'.repeat(40) },
      { type: 'tool-call', id: 'call_1', name: 'get_ci_log', args: { run: 42 } },
    ],
    usage: { inputTokens: 100, outputTokens: 30, reasoningTokens: 12 },
  },
  { role: 'tool', toolCallId: 'call_1', toolName: 'get_ci_log', content: 'FAIL' },
  {
    role: 'assistant',
    content: [
      { type: 'reasoning', text: 'y'.repeat(8) },
      { type: 'text', text: 'z'.repeat(24) },
    ],
  },
  { role: 'user', content: 'thanks' },
  { role: 'assistant', content: [{ type: 'text', text: 'w'.repeat(12) }] },
];

describe('reasoningStats', () => {
  it('counts reasoning and visible tokens per step', () => {
    expect(reasoningStats(transcript, counter).steps).toEqual([
      {
        messageIndex: 2,
        episodeIndex: 0,
        reasoningTokens: 10,
        visibleTokens: 0,
        ratio: 1,
        reportedReasoningTokens: 12,
      },
      { messageIndex: 4, episodeIndex: 0, reasoningTokens: 2, visibleTokens: 6, ratio: 0.25 },
      { messageIndex: 6, episodeIndex: 1, reasoningTokens: 0, visibleTokens: 3, ratio: 0 },
    ]);
  });

  it('sums steps per episode and in total', () => {
    const stats = reasoningStats(transcript, counter);
    expect(stats.episodes).toEqual([
      {
        episodeIndex: 0,
        preamble: false,
        steps: 2,
        reasoningTokens: 12,
        visibleTokens: 6,
        ratio: 12 / 18,
        reportedReasoningTokens: 12,
      },
      { episodeIndex: 1, preamble: false, steps: 1, reasoningTokens: 0, visibleTokens: 3, ratio: 0 },
    ]);
    expect(stats.total).toEqual({
      steps: 3,
      reasoningTokens: 12,
      visibleTokens: 9,
      ratio: 12 / 21,
      reportedReasoningTokens: 12,
    });
  });

  it('reports a zero ratio for empty output and no episodes for an empty transcript', () => {
    const empty = reasoningStats(
      [
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: [] },
      ],
      counter,
    );
    expect(empty.steps).toEqual([{ messageIndex: 1, episodeIndex: 0, reasoningTokens: 0, visibleTokens: 0, ratio: 0 }]);
    expect(reasoningStats([], counter)).toEqual({
      steps: [],
      episodes: [],
      total: { steps: 0, reasoningTokens: 0, visibleTokens: 0, ratio: 0 },
    });
  });

  it('uses the given counter’s tokenizer', () => {
    const tiktoken = createTokenCounter();
    const text = 'The fixture loader fails because the path is relative.';
    const stats = reasoningStats(
      [
        { role: 'user', content: 'why?' },
        { role: 'assistant', content: [{ type: 'reasoning', text }] },
      ],
      tiktoken,
    );
    expect(stats.total.reasoningTokens).toBe(tiktoken.countText(text));
    expect(stats.total.reasoningTokens).not.toBe(counter.countText(text));
  });

  it('reuses the counts made when the messages were packed instead of tokenizing them again', () => {
    const real = createTokenCounter();
    let tokenized = 0;
    const counting: TokenCounter = {
      encoding: real.encoding,
      calibration: real.calibration,
      countText: (text) => {
        tokenized += 1;
        return real.countText(text);
      },
      countCached: (owner, text) => real.countCached(owner, text),
      countMessage: (message) => real.countMessage(message),
      countSystem: (system) => real.countSystem(system),
      countTools: (tools) => real.countTools(tools),
    };
    for (const message of transcript) counting.countMessage(message); // what packing does
    const first = reasoningStats(transcript, counting);
    expect(reasoningStats(transcript, counting)).toEqual(first);
    expect(first.total.reasoningTokens).toBe(real.countText('x'.repeat(40)) + real.countText('y'.repeat(8)));
    expect(tokenized).toBe(0);
  });
});
