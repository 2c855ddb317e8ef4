/**
 * Limits every transcript reader enforces at the edge, so that no input can exhaust
 * memory or the stack later. A line is one message: the longest real ones carry an
 * image as base64 (providers cap images at about 20 MB); nothing legitimate nests
 * anywhere near a hundred levels, while recursive code (`JSON.stringify`, the
 * adapters' converters) overflows the stack at a few thousand.
 */

/** Longest transcript line the readers accept, in bytes (32 MiB). */
export const MAX_LINE_BYTES = 32 * 1024 * 1024;

/** Deepest nesting of arrays and objects in one message, the message itself counting as 1. */
export const MAX_NESTING_DEPTH = 100;

/**
 * The field (first three levels of its path, such as `content[0].args`) under which
 * `value` nests deeper than `limit`, or undefined when it does not. Iterative, so it
 * cannot overflow the stack on the very input it guards against.
 */
export function tooDeepField(value: unknown, limit: number = MAX_NESTING_DEPTH): string | undefined {
  const stack: { value: unknown; depth: number; path: string }[] = [{ value, depth: 1, path: '' }];
  for (let entry = stack.pop(); entry; entry = stack.pop()) {
    if (typeof entry.value !== 'object' || entry.value === null) continue;
    if (entry.depth > limit) return entry.path || '(message)';
    const isArray = Array.isArray(entry.value);
    for (const [key, child] of Object.entries(entry.value)) {
      const step = isArray ? `[${key}]` : entry.path ? `.${key}` : key;
      const path = entry.depth <= 3 ? `${entry.path}${step}` : entry.path;
      stack.push({ value: child, depth: entry.depth + 1, path });
    }
  }
  return undefined;
}
