/**
 * The base of every error Episodic throws on purpose: a stable `code` (a union of
 * string literals per class) and a message that says what to do.
 *
 * `isInstance` works across duplicated copies of the package (two versions in one
 * `node_modules` tree): it reads global symbol markers set at construction, not the
 * class identity. Each instance records the names of its class and the classes it
 * extends, so `SessionBusyError.isInstance(error)` is true only for a session-busy
 * error (or a subclass), while `EpisodicError.isInstance(error)` is true for all.
 */
const marker = Symbol.for('episodic.error');
const lineage = Symbol.for('episodic.error.lineage');

/** The names of `target` and of the classes it extends, up to and including `EpisodicError`. */
function classNames(target: abstract new (...args: never[]) => unknown): string[] {
  const names: string[] = [];
  for (let type: unknown = target; typeof type === 'function' && type !== Error; type = Object.getPrototypeOf(type)) {
    names.push((type as { name: string }).name);
  }
  return names;
}

/** Base class of every error Episodic throws on purpose. */
export class EpisodicError<Code extends string = string> extends Error {
  readonly [marker] = true;
  readonly [lineage]: readonly string[];
  /** A stable, machine-readable code such as `invalid_transcript`. */
  readonly code: Code;

  constructor(code: Code, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
    this[lineage] = classNames(new.target);
  }

  /**
   * True when `value` is an error of this class or a subclass, even one thrown by
   * another copy of this package. On `EpisodicError` itself: true for any Episodic error.
   */
  static isInstance<T>(this: abstract new (...args: never[]) => T, value: unknown): value is T {
    if (typeof value !== 'object' || value === null) return false;
    const record = value as Record<symbol, unknown>;
    if (record[marker] !== true) return false;
    if (this.name === 'EpisodicError') return true;
    const names = record[lineage];
    return Array.isArray(names) && names.includes(this.name);
  }
}
