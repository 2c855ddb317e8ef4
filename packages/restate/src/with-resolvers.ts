/**
 * `Promise.withResolvers` for Node 20. The Restate SDK calls it (Node 22 has it);
 * Episodic supports Node 20, so this package installs the standard behaviour when
 * the runtime lacks it, and leaves a native one alone. Imported by the package's
 * entry point before anything runs a Restate handler.
 */

/** What `Promise.withResolvers()` returns. */
interface Resolvers<T> {
  promise: Promise<T>;
  resolve: (value: T | PromiseLike<T>) => void;
  reject: (reason?: unknown) => void;
}

/** Installs `Promise.withResolvers` if missing; returns true when it did. */
export function installWithResolvers(target: PromiseConstructor = Promise): boolean {
  const holder = target as unknown as { withResolvers?: <T>() => Resolvers<T> };
  if (typeof holder.withResolvers === 'function') return false;
  Object.defineProperty(target, 'withResolvers', {
    configurable: true,
    writable: true,
    value: function withResolvers<T>(this: PromiseConstructor): Resolvers<T> {
      let resolve!: Resolvers<T>['resolve'];
      let reject!: Resolvers<T>['reject'];
      // `this`, as the standard says, so a subclass gets its own kind of promise.
      const promise = new this<T>((yes, no) => {
        resolve = yes;
        reject = no;
      });
      return { promise, resolve, reject };
    },
  });
  return true;
}

installWithResolvers();
