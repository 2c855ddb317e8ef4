/**
 * Deep copies for the memory store. Strings cannot be changed, so a copy that no
 * caller can reach into needs new arrays and objects only: `structuredClone` also
 * copies every string, which for a step's tool output (kilobytes of log) or a pack
 * state's message keys (one per packed message) cost more than the rest of the write.
 */
import { hasPlainPrototype } from '../support/plain-object.js';

/** Nesting past which the copy is left to `structuredClone` (which also handles cycles). */
const MAX_DEPTH = 200;

/** Thrown inside {@link plainCopy} when the value nests deeper than {@link MAX_DEPTH}. */
const tooDeep = Symbol('too deep');

/**
 * A deep copy of `value` sharing nothing mutable with it: plain objects and arrays
 * are copied, strings and other primitives kept, and anything else (a `Date`, a typed
 * array, a class instance, a function) handed to `structuredClone`, so the result
 * and the errors are structuredClone's.
 */
export function plainCopy<T>(value: T): T {
  try {
    return copy(value, 0) as T;
  } catch (error) {
    if (error === tooDeep) return structuredClone(value);
    throw error;
  }
}

function copy(value: unknown, depth: number): unknown {
  if (value === null || (typeof value !== 'object' && typeof value !== 'function' && typeof value !== 'symbol')) {
    return value;
  }
  if (depth > MAX_DEPTH) throw tooDeep;
  if (Array.isArray(value)) {
    const copied: unknown[] = new Array(value.length);
    for (let index = 0; index < value.length; index += 1) copied[index] = copy(value[index], depth + 1);
    return copied;
  }
  if (!hasPlainPrototype(value)) return structuredClone(value);
  const copied: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const field = copy(value[key], depth + 1);
    // An own `__proto__` (JSON.parse makes one) assigned would set the copy's prototype instead.
    if (key === '__proto__') Object.defineProperty(copied, key, { value: field, enumerable: true, writable: true, configurable: true });
    else copied[key] = field;
  }
  return copied;
}
