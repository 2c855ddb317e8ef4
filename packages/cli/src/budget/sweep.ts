/**
 * The budgets a sweep tries when none are asked: from the session's smallest useful
 * budget (the largest minimum context any call needs: below it some call cannot be
 * made at all) up to the model's context window, spaced evenly on a log scale and
 * rounded to whole thousands.
 */

/** Budgets in a sweep, the ends included. */
export const sweepPoints = 10;

/** Rounds up to a whole thousand (or ten thousand above 100k), so labels read well. */
function roundUp(tokens: number): number {
  const step = tokens >= 100_000 ? 10_000 : 1_000;
  return Math.ceil(tokens / step) * step;
}

/** Ascending budgets from `smallest` to `window`, without repeats. */
export function sweepBudgets(smallest: number, window: number, points = sweepPoints): number[] {
  const low = roundUp(Math.max(1_000, smallest));
  if (low >= window) return [window];
  const ratio = (window / low) ** (1 / (points - 1));
  const budgets = new Set<number>();
  for (let index = 0; index < points - 1; index += 1) budgets.add(Math.min(window, roundUp(low * ratio ** index)));
  budgets.add(window);
  return [...budgets].sort((a, b) => a - b);
}

/** The smallest useful budget from a replay at a budget nothing fits: the largest minimum context. */
export function smallestUsefulBudget(calls: readonly { fit: boolean; requiredTokens?: number; tokens: { total: number } }[]): number {
  return calls.reduce((largest, call) => Math.max(largest, call.fit ? call.tokens.total : (call.requiredTokens ?? 0)), 0);
}
