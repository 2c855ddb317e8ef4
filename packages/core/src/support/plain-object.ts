/**
 * Whether an object is plain data: made by a literal, `JSON.parse` or
 * `Object.create(null)`, so its own fields are all it holds. Anything else (a `Date`,
 * a `Map`, a class instance) has a prototype of its own.
 */

/** An object whose prototype is `Object.prototype` or null (arrays and class instances are not). */
export function hasPlainPrototype(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}
