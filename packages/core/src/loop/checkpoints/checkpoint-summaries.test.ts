/**
 * The text summaries of opaque compactions, on their own: which compaction needs one,
 * what range it covers (chained from an earlier checkpoint), one in flight at a time,
 * failures warned once and redacted, and lines that stand for a compaction kept out of
 * the summaries of evicted episodes.
 */
import { describe, expect, it } from 'vitest';
import type { Message, ModelRequest, SummaryMessage } from '../../index.js';
import { Summaries } from '../../packing/pack-summary.js';
import { scriptedModel, type ScriptStep } from '../../testing/scripted-model.js';
import { createTokenCounter } from '../../tokens/token-counter.js';
import { SecretRedactor } from '../../support/secret-redactor.js';
import { CheckpointSummarizer, checkpointRange, isOpaqueCompaction } from './checkpoint-summaries.js';

const item = (id: string) => ({ provider: 'openai', model: 'gpt-5.6', item: { type: 'compaction', id, encrypted_content: `enc-${id}` } });
const session = (): Message[] => [
  { role: 'user', content: 'Is CI green?' },
  { role: 'assistant', content: [{ type: 'tool-call', id: 'a', name: 'read_log', args: {} }] },
  { role: 'tool', toolCallId: 'a', toolName: 'read_log', content: 'line 0: step passed' },
  { role: 'assistant', content: [{ type: 'compaction', providerData: item('cmp_1') }, { type: 'text', text: 'Green.' }] },
  { role: 'user', content: 'And the deploy?' },
  { role: 'assistant', content: [{ type: 'tool-call', id: 'b', name: 'read_log', args: {} }] },
  { role: 'tool', toolCallId: 'b', toolName: 'read_log', content: 'deploy: 3 hosts updated' },
  { role: 'assistant', content: [{ type: 'compaction', providerData: item('cmp_2') }, { type: 'text', text: 'Deployed.' }] },
];

function summarizerModel(seen: ModelRequest[], step: () => ScriptStep = () => ({ text: 'Checkpoint summary.' })) {
  return scriptedModel({
    model: { provider: 'scripted', id: 'summarizer' },
    steps: (request: ModelRequest) => {
      seen.push(request);
      return step();
    },
  });
}

describe('CheckpointSummarizer', () => {
  it('summarizes the latest opaque compaction in the background, names its item, and hands the line out once', async () => {
    const seen: ModelRequest[] = [];
    const checkpoints = new CheckpointSummarizer({}, summarizerModel(seen), true);
    const messages = session();
    expect(checkpoints.missing(messages)).toBe(7);
    checkpoints.request(messages);
    checkpoints.request(messages);
    await checkpoints.settle();
    expect(seen).toHaveLength(1);
    const { lines, warnings } = checkpoints.take();
    expect(warnings).toEqual([]);
    expect(lines).toEqual([
      expect.objectContaining({
        role: 'summary',
        content: 'Checkpoint summary.',
        checkpoint: { message: 7, id: 'cmp_2' },
        episodes: { from: 0, to: 2 },
        model: { provider: 'scripted', id: 'summarizer' },
      }),
    ]);
    expect(checkpoints.take().lines).toEqual([]);
    // Once it is in the transcript, nothing is missing.
    expect(checkpoints.missing([...messages, ...lines])).toBeUndefined();
  });

  it('chains from the previous checkpoint: its text, and only the messages after the compaction it stands for', () => {
    const messages = session();
    const earlier: SummaryMessage = { role: 'summary', content: 'CI was green.', episodes: { from: 0, to: 1 }, checkpoint: { message: 3, id: 'cmp_1' } };
    const range = checkpointRange([...messages.slice(0, 4), earlier, ...messages.slice(4)], 8);
    expect(range.previous).toBe('CI was green.');
    expect(range.messages[0]).toBe(messages[3]);
    expect(range.messages.map((message) => message.role)).toEqual(['assistant', 'user', 'assistant', 'tool']);
    // Without one, everything before the compaction.
    expect(checkpointRange(messages, 7)).toMatchObject({ previous: undefined, messages: messages.slice(0, 7) });
  });

  it('does nothing in the background when off, but makes one on demand', async () => {
    const seen: ModelRequest[] = [];
    const checkpoints = new CheckpointSummarizer({}, summarizerModel(seen), false);
    checkpoints.request(session());
    await checkpoints.settle();
    expect(seen).toHaveLength(0);
    const line = await checkpoints.summarizeNow(session(), 7);
    expect(line.checkpoint).toEqual({ message: 7, id: 'cmp_2' });
    expect(String(seen[0]?.messages[0]?.content)).toContain('deploy: 3 hosts updated');
    expect(checkpoints.take().lines).toEqual([line]);
  });

  it('warns once, without secrets, when the summarizer fails, and does not ask again', async () => {
    const seen: ModelRequest[] = [];
    const failing = summarizerModel(seen, () => ({ error: { kind: 'invalid-request', message: 'bad key sk-secret-123' } }));
    const checkpoints = new CheckpointSummarizer({}, failing, true, new SecretRedactor(['sk-secret-123']));
    checkpoints.request(session());
    await checkpoints.settle();
    checkpoints.request(session());
    await checkpoints.settle();
    expect(seen).toHaveLength(1);
    const { lines, warnings } = checkpoints.take();
    expect(lines).toEqual([]);
    expect(warnings).toEqual([expect.objectContaining({ code: 'checkpoint-summary-failed' })]);
    expect(warnings[0]?.message).toContain('bad key');
    expect(warnings[0]?.message).not.toContain('sk-secret-123');
  });

  it('tells opaque compactions from readable and failed ones', () => {
    const providerData = { provider: 'anthropic', model: 'claude-sonnet-4-6' };
    expect(isOpaqueCompaction({ type: 'compaction', providerData } as never)).toBe(true);
    expect(isOpaqueCompaction({ type: 'compaction', text: 'summary', providerData } as never)).toBe(false);
    expect(isOpaqueCompaction({ type: 'compaction', failed: true, providerData } as never)).toBe(false);
    expect(isOpaqueCompaction({ type: 'text' })).toBe(false);
  });
});

describe('checkpoint lines and the summaries of evicted episodes', () => {
  it('a checkpoint line never stands for evicted episodes', () => {
    const counter = createTokenCounter();
    const line = (checkpoint?: { message: number }): SummaryMessage => ({
      role: 'summary',
      content: 'summary text',
      episodes: { from: 0, to: 2 },
      ...(checkpoint ? { checkpoint } : {}),
    });
    expect(new Summaries([...session(), line({ message: 7 })], counter).chain(0, 2)).toBeUndefined();
    expect(new Summaries([...session(), line()], counter).chain(0, 2)).toEqual({ to: 2, text: 'summary text' });
    // Counted like any line (the packer sends its text as one user message).
    expect(counter.countMessage(line({ message: 7 }))).toBeGreaterThan(0);
  });
});
