/**
 * Token budgets on the command line: `16000`, `16k`, `1.5m` (k = 1,000, m = 1,000,000,
 * as context windows are quoted by providers).
 */
import { UsageError } from './command.js';

const multipliers: Readonly<Record<string, number>> = { '': 1, k: 1_000, m: 1_000_000 };

const budgetPattern = /^(\d+(?:\.\d+)?|\.\d+)([km]?)$/i;

/**
 * Parses a budget into a whole number of tokens (rounded down). Throws a
 * {@link UsageError} for anything else, including budgets below one token.
 */
export function parseBudget(text: string): number {
  const match = budgetPattern.exec(text.trim());
  if (!match) {
    throw new UsageError(`bad budget "${text}": use a number of tokens such as 16000, 16k or 1.5m`);
  }
  const tokens = Math.floor(Number(match[1]) * multipliers[match[2]!.toLowerCase()]!);
  if (!Number.isSafeInteger(tokens)) {
    const most = Number.MAX_SAFE_INTEGER.toLocaleString('en-US');
    throw new UsageError(`bad budget "${text}": it is too large (at most ${most} tokens)`);
  }
  if (tokens < 1) throw new UsageError(`bad budget "${text}": it must be at least 1 token`);
  return tokens;
}
