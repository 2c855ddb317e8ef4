import { createTokenCounter, type Message } from '@episodic/core';
import { messagesAfterCompaction } from '@episodic/core/packing';
import { describe, expect, it } from 'vitest';
import { budgetSession } from '../testing/budget-sessions.js';
import { replayPolicy } from './context-policies.js';
import { boundaryBetween, compactionMessages, OnDemandReplay } from './on-demand-replay.js';
import type { PolicyModel } from './policy-run.js';

const claude = { provider: 'anthropic', id: 'claude-sonnet-4-6' };
const pricing = { input: 3, cachedInput: 0.3, cacheWrite: 3.75, output: 15 };
// 8k: room for two kept episodes after a summary, so compactions happen at user boundaries without evictions first.
const model = (compaction: PolicyModel['compaction'], onDemand?: PolicyModel['onDemand']): PolicyModel => ({
  model: claude,
  budget: 8_000,
  cache: 'anthropic',
  minCacheableTokens: 1024,
  pricing,
  pastReasoning: 'billed',
  compaction,
  ...(onDemand ? { onDemand } : {}),
});
const session = budgetSession({ episodes: 30, steps: 3, resultWords: 120, model: claude });

/** `count` finished episodes: a question and an answer each, stamped `gapMs` apart from the user's side. */
function episodes(count: number, gapMs = 0): Message[] {
  return Array.from({ length: count }, (_, index) => [
    { role: 'user', content: `u${index + 1}`, timestamp: index * 2 * gapMs } as Message,
    { role: 'assistant', content: [{ type: 'text', text: `a${index + 1}` }], model: claude, timestamp: (index * 2 + 1) * gapMs } as Message,
  ]).flat();
}

describe('on-demand compaction in the replay', () => {
  it('bills each compaction request (its input, mostly read from the cache, and its summary) and the swap as a cache write', () => {
    const counter = createTokenCounter();
    const run = replayPolicy({ messages: session }, model('on-demand'), 'hybrid', counter);
    const onDemand = run.onDemand!;
    expect(run.compactions).toBeGreaterThan(0);
    expect(onDemand.requestTokens).toBeGreaterThan(0);
    // The request repeats the prefix the call before it sent: read from the cache, at most what it sent.
    expect(onDemand.requestCachedTokens).toBeGreaterThan(onDemand.requestTokens / 2);
    expect(onDemand.requestCachedTokens).toBeLessThan(onDemand.requestTokens);
    // Billed at least its cached input and a 500-token summary per request, at the output price.
    const floor = (onDemand.requestCachedTokens * pricing.cachedInput + run.compactions * 500 * pricing.output) / 1e6;
    expect(onDemand.requestCost!).toBeGreaterThan(floor);
    // The swap changes the prefix: the call after it writes at least the block (500 tokens or more) again.
    expect(onDemand.swapWriteTokens).toBeGreaterThanOrEqual(run.compactions * 500);
    // The summaries are the only output billed: a dearer output price raises the run's cost by exactly theirs.
    const dearer = replayPolicy({ messages: session }, { ...model('on-demand'), pricing: { ...pricing, output: 1_015 } }, 'hybrid', counter);
    const summaries = onDemand.requestTokens - run.compactedTokens;
    expect(summaries).toBeGreaterThanOrEqual(run.compactions * 500);
    expect(dearer.cost! - run.cost!).toBeCloseTo((summaries * 1_000) / 1e6, 6);
    // The calls after a swap send the block in place of the history: nothing had to be evicted, where packer alone evicts.
    const packer = replayPolicy({ messages: session }, model('on-demand'), 'packer', counter);
    expect(packer.evictingCalls).toBeGreaterThan(0);
    expect(run.evictingCalls).toBe(0);
    expect(run.inputTokens - onDemand.requestTokens).toBeLessThan(packer.inputTokens);
  });

  it('compacts only at user boundaries: one long episode never compacts on demand, while the threshold kind does', () => {
    const counter = createTokenCounter();
    const one = budgetSession({ episodes: 1, steps: 40, resultWords: 120, model: claude });
    expect(replayPolicy({ messages: one }, model('threshold'), 'hybrid', counter).compactions).toBeGreaterThan(0);
    const onDemand = replayPolicy({ messages: one }, model('on-demand'), 'hybrid', counter);
    expect(onDemand.compactions).toBe(0);
    expect(onDemand.onDemand?.requestTokens).toBe(0);
  });

  it('keeps the last episodes word for word after the block, and summarizes only what is before them', () => {
    const transcript = episodes(5);
    const replay = new OnDemandReplay(claude);
    let billedCut: number | undefined;
    const block = replay.atBoundary(
      { transcript, last: 10_000, threshold: 6_400, budget: 8_000, endedAt: undefined, userAt: undefined },
      (cut) => {
        billedCut = cut;
        return 700;
      },
    );
    // Two episodes kept: the cut is at the fourth question, and the request sends the three before it, not the kept ones.
    expect(billedCut).toBe(6);
    const request = compactionMessages(transcript, 6, claude);
    expect(request.messages.map((message) => message.content)).toEqual(transcript.slice(0, 6).map((message) => message.content));
    expect(request.opener).toEqual([transcript[6]]);
    // After the swap a call sends the block first, then the kept episodes as they were.
    const view = messagesAfterCompaction([...transcript, block!], claude).messages;
    expect(view[0]).toBe(block);
    expect(view.slice(1)).toEqual(transcript.slice(6));
    expect(block!.content[0]).toMatchObject({ type: 'compaction', tokens: 700, summarizedMessages: 6 });
  });

  it('swaps a background compaction in at the first user boundary after it arrived, by the recorded times', () => {
    const transcript = episodes(8, 20_000);
    const boundary = (upTo: number, last: number) => ({
      transcript: transcript.slice(0, upTo),
      last,
      threshold: 6_400,
      budget: 8_000,
      endedAt: (upTo - 1) * 20_000,
      userAt: upTo * 20_000,
    });
    // The user answered 20 s after the episode ended: a 60 s request has not arrived, the next episode runs on the full history.
    const background = new OnDemandReplay(claude);
    expect(background.atBoundary(boundary(6, 7_000), () => 600)).toBeUndefined();
    expect(background.atBoundary(boundary(8, 7_200), () => 600)).toMatchObject({ content: [{ summarizedMessages: 2 }] });
    expect(background.lateSwaps).toBe(1);
    // Waiting (background: false) swaps at the boundary where the request was sent.
    const waiting = new OnDemandReplay(claude, { background: false });
    expect(waiting.atBoundary(boundary(6, 7_000), () => 600)).toMatchObject({ content: [{ summarizedMessages: 2 }] });
    expect(waiting.lateSwaps).toBe(0);
    // So does a last call that filled the budget: the boundary waits for the answer.
    expect(new OnDemandReplay(claude).atBoundary(boundary(6, 8_000), () => 600)).toBeDefined();
    // A user who took longer than the request gets the swap before the next episode.
    expect(new OnDemandReplay(claude, { seconds: 10 }).atBoundary(boundary(6, 7_000), () => 600)).toBeDefined();
  });

  it('finds a user boundary only between calls of different episodes', () => {
    const transcript = episodes(2);
    expect(boundaryBetween(transcript, 1, 3)).toBe(2);
    const tool: Message[] = [
      { role: 'user', content: 'u' },
      { role: 'assistant', content: [{ type: 'tool-call', id: 't', name: 'read', args: {} }] },
      { role: 'tool', toolCallId: 't', toolName: 'read', content: 'r' },
      { role: 'assistant', content: [{ type: 'text', text: 'a' }] },
    ];
    expect(boundaryBetween(tool, 1, 3)).toBeUndefined();
  });
});
