/**
 * Live check against the real Gemini API: a tool-using episode (thought
 * signatures sent back within the turn), then a second user turn. Needs
 * GEMINI_API_KEY (optionally GEMINI_LIVE_MODEL); skipped otherwise, e.g. in CI.
 */
import { createGoogleAdapter } from '@episodic/providers/google';
import { describe, expect, it } from 'vitest';
import { runLiveSession } from './live-tools.js';

const key = process.env.GEMINI_API_KEY;

describe.skipIf(!key)('live Gemini API (skipped: set GEMINI_API_KEY to run)', () => {
  it('runs a tool-using episode with thought signatures and a follow-up turn', { timeout: 180_000 }, async () => {
    const model = createGoogleAdapter({ model: process.env.GEMINI_LIVE_MODEL ?? 'gemini-2.5-flash', apiKey: key });
    const { session, first, second } = await runLiveSession(model, 8192);
    expect(first.reason).toBe('done');
    expect(session.messages.some((message) => message.role === 'tool')).toBe(true);
    const answer = first.message?.content.map((part) => (part.type === 'text' ? part.text : '')).join('') ?? '';
    expect(answer).toContain('test_dates');
    expect(second.reason).toBe('done');
  });
});
