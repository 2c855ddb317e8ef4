import { describe, expect, it } from 'vitest';
import { classifyModelError, errorRules, matchErrorRule, parseRetryAfter } from './error-classification.js';

describe('error classification table', () => {
  it.each(errorRules.map((rule, index) => [index, rule] as const))(
    'row %i classifies its own sample',
    (_index, rule) => {
      const error = classifyModelError({ provider: 'test', ...rule.sample });
      expect(error.kind).toBe(rule.kind);
      expect(error.retryable).toBe(rule.retryable);
    },
  );

  it('prefers a message pattern over the status (context overflow arrives as a plain 400)', () => {
    expect(matchErrorRule({ status: 400, message: 'prompt is too long: 5 tokens > 4 maximum' })?.kind).toBe(
      'context-overflow',
    );
    expect(matchErrorRule({ status: 400, message: 'bad field' })?.kind).toBe('invalid-request');
  });

  it.each([
    ['groq', 'Please reduce the length of the messages or completion.'],
    ['cerebras', 'Please reduce the length of the messages or completion. Current length is 42328 while limit is 40000'],
    ['moonshot', 'Invalid request: Your request exceeded model token limit: 262144 (requested: 269030)'],
    [
      'anthropic',
      'input length and `max_tokens` exceed context limit: 178959 + 64000 > 200000, decrease input length or `max_tokens` and try again',
    ],
  ])('recognises the context overflow wording of %s', (provider, message) => {
    expect(classifyModelError({ provider, status: 400, message })).toMatchObject({
      kind: 'context-overflow',
      retryable: false,
    });
  });

  it('keeps status, retry-after and a message that says what to do', () => {
    const error = classifyModelError({ provider: 'anthropic', status: 429, message: 'slow down', retryAfter: 3 });
    expect(error).toMatchObject({ kind: 'rate-limit', status: 429, retryAfter: 3, code: 'model_rate_limit' });
    expect(error.message).toContain('anthropic (HTTP 429): slow down');
    expect(error.message).toMatch(/retry/i);
  });

  it('falls back to a non-retryable protocol error for unknown shapes', () => {
    expect(classifyModelError({ provider: 'x', message: 'weird' })).toMatchObject({
      kind: 'protocol',
      retryable: false,
    });
  });

  it('parses retry-after as seconds or an HTTP date', () => {
    expect(parseRetryAfter('12')).toBe(12);
    expect(parseRetryAfter(new Date(10_000).toUTCString(), 4_000)).toBe(6);
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(parseRetryAfter(null)).toBeUndefined();
  });
});
