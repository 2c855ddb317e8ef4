/**
 * Live check against the real Anthropic API: a tool-using episode with thinking,
 * then a second user turn. Needs ANTHROPIC_API_KEY (optionally
 * ANTHROPIC_LIVE_MODEL); skipped otherwise, e.g. in CI.
 */
import { createAnthropicAdapter } from '@episodic/providers/anthropic';
import { describe, expect, it } from 'vitest';
import { runLiveSession } from './live-tools.js';

const key = process.env.ANTHROPIC_API_KEY;

describe.skipIf(!key)('live Anthropic API (skipped: set ANTHROPIC_API_KEY to run)', () => {
  it('runs a tool-using episode with thinking and a follow-up turn', { timeout: 180_000 }, async () => {
    const model = createAnthropicAdapter({
      model: process.env.ANTHROPIC_LIVE_MODEL ?? 'claude-haiku-4-5',
      maxRetries: 2,
    });
    const { session, first, second } = await runLiveSession(model, 16_000);
    expect(first.reason).toBe('done');
    expect(session.messages.some((message) => message.role === 'tool')).toBe(true);
    const answer = first.message?.content.map((part) => (part.type === 'text' ? part.text : '')).join('') ?? '';
    expect(answer).toContain('test_dates');
    expect(second.reason).toBe('done');
    expect(session.totals.inputTokens).toBeGreaterThan(0);
  });
});
