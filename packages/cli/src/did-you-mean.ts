/**
 * "Did you mean" for a mistyped option or command: the closest known name by edit
 * distance (fastest-levenshtein), offered only when it is close enough to be the
 * likely intent, or when what was typed is the start of exactly one known name.
 */
import { closest, distance } from 'fastest-levenshtein';

/** The known name `typed` most likely meant, or undefined. */
export function suggestion(typed: string, known: readonly string[]): string | undefined {
  if (typed === '' || known.length === 0) return undefined;
  const starting = known.filter((name) => name.startsWith(typed));
  if (starting.length === 1) return starting[0];
  const best = closest(typed, [...known]);
  // One edit in four characters, at least one: `--budget` for `--budgets`, not `--json` for `--html`.
  return distance(typed, best) <= Math.max(1, Math.floor(best.length / 4)) ? best : undefined;
}

/** `; did you mean X?` for the reason line, or nothing. */
export function didYouMean(typed: string, known: readonly string[]): string {
  const found = suggestion(typed, known);
  return found === undefined ? '' : `; did you mean ${found}?`;
}
