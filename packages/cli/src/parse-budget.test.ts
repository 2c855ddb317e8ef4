import { describe, expect, it } from 'vitest';
import { UsageError } from './command.js';
import { parseBudget } from './parse-budget.js';

describe('parseBudget', () => {
  it.each([
    ['16000', 16_000],
    ['16k', 16_000],
    ['16K', 16_000],
    ['1.5m', 1_500_000],
    ['0.5k', 500],
    ['.5k', 500],
    ['200000', 200_000],
    ['1.2345k', 1_234],
    [' 32k ', 32_000],
  ])('reads %j as %d tokens', (text, tokens) => {
    expect(parseBudget(text)).toBe(tokens);
  });

  it.each(['', 'lots', '16 k', '16kb', '-5', '1e5', '0', '0.0001k', '16,000', '1.5g', 'k'])(
    'rejects %j as a usage error that names the value',
    (text) => {
      expect(() => parseBudget(text)).toThrow(UsageError);
      expect(() => parseBudget(text)).toThrow(`bad budget "${text}"`);
    },
  );

  it('says a budget is too large rather than below one token', () => {
    expect(() => parseBudget('99999999999999999999')).toThrow(
      'bad budget "99999999999999999999": it is too large (at most 9,007,199,254,740,991 tokens)',
    );
    expect(() => parseBudget('0.1')).toThrow('bad budget "0.1": it must be at least 1 token');
  });
});
