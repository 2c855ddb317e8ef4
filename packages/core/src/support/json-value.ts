/**
 * Whether a value is plain JSON all the way down: what a JSON Schema from a user's
 * converter must be before it is cleaned (recursively) and, with every request,
 * serialised. A cycle overflowed the stack and a BigInt made every `send()` throw;
 * both are found here, once, when the tool is defined.
 */
import { hasPlainPrototype } from './plain-object.js';

/** Deepest nesting accepted (real schemas nest a few dozen levels at most; recursion uses `$ref`). */
const MAX_DEPTH = 200;

/**
 * What makes `value` not plain JSON, with where (`a BigInt at properties.n.default`),
 * or undefined when it is plain JSON. Iterative, and each shared object is walked
 * once, so neither a cycle nor a deep or widely shared value can exhaust the stack.
 */
export function jsonValueProblem(value: unknown): string | undefined {
  type Frame = { value: unknown; path: string; depth: number; leave?: object };
  const onPath = new Set<object>();
  const done = new Set<object>();
  const stack: Frame[] = [{ value, path: '', depth: 0 }];
  for (let frame = stack.pop(); frame; frame = stack.pop()) {
    if (frame.leave) {
      onPath.delete(frame.leave);
      done.add(frame.leave);
      continue;
    }
    const problem = leafProblem(frame.value);
    const where = frame.path || '(root)';
    if (problem) return `${problem} at ${where}`;
    if (typeof frame.value !== 'object' || frame.value === null || done.has(frame.value)) continue;
    if (onPath.has(frame.value)) return `a cycle at ${where}`;
    if (frame.depth >= MAX_DEPTH) return `nesting deeper than ${MAX_DEPTH} levels at ${where}`;
    onPath.add(frame.value);
    stack.push({ value: undefined, path: frame.path, depth: frame.depth, leave: frame.value });
    const isArray = Array.isArray(frame.value);
    for (const [key, child] of Object.entries(frame.value)) {
      const path = isArray ? `${frame.path}[${key}]` : frame.path ? `${frame.path}.${key}` : key;
      stack.push({ value: child, path, depth: frame.depth + 1 });
    }
  }
  return undefined;
}

/** What is wrong with one value regardless of its children, or undefined. */
function leafProblem(value: unknown): string | undefined {
  switch (typeof value) {
    case 'bigint':
      return 'a BigInt';
    case 'function':
      return 'a function';
    case 'symbol':
      return 'a symbol';
    case 'number':
      return Number.isFinite(value) ? undefined : `the number ${value}`;
    case 'object':
      if (value === null || Array.isArray(value) || hasPlainPrototype(value)) return undefined;
      return `an object of class ${(value as object).constructor?.name ?? 'unknown'}`;
    default:
      return undefined;
  }
}
