/**
 * zod, loaded when core first checks something with it rather than when core is
 * imported: an agent whose tools have plain JSON Schemas and whose store is in
 * memory never loads it (zod alone took longer to import than the rest of core).
 *
 * Core's own schemas (transcript lines, saved records, the reader of cut results)
 * are built on first use by {@link lazily}. A synchronous check takes zod as it is
 * ({@link zodNow}: on Node zod's CommonJS build; in browsers, edge runtimes and
 * bundles the copy bundled with core); an asynchronous path (a store's read, a
 * session opened with a history, an agent tool's call) awaits {@link loadZod} first,
 * which imports zod's ES module, the copy an application's own `import 'zod'`
 * shares. Whichever comes first is the one core keeps.
 */
import type { z } from 'zod/v4';
import { importZod, requireZod } from '#zod';

/** What core takes of the `zod/v4` module. */
export interface ZodModule {
  z: typeof z;
}

let loaded: ZodModule | undefined;

/** zod for a check that runs now. */
export function zodNow(): ZodModule {
  loaded ??= requireZod();
  return loaded;
}

/** Loads zod's ES module unless core already has zod; await it before a check on an asynchronous path. */
export async function loadZod(): Promise<void> {
  if (loaded) return;
  const module = await importZod();
  loaded ??= module;
}

/** `value` (read from a store), once zod's ES module is loaded to check it; at once when there is nothing to check. */
export async function checkable<T>(value: T | undefined): Promise<T | undefined> {
  if (value !== undefined) await loadZod();
  return value;
}

/** The value `build` makes from zod, built on the first call (with {@link zodNow}) and kept. */
export function lazily<T>(build: (z: ZodModule['z']) => T): () => T {
  let built: { value: T } | undefined;
  return () => {
    built ??= { value: build(zodNow().z) };
    return built.value;
  };
}

/**
 * An object that stands for the one `get` returns, which is made only when the
 * object is first used (a property read, `in`, its keys or prototype): for a zod
 * schema exported as a value, such as `DEFAULT_AGENT_TOOL_INPUT`. Reads go to the
 * real object (its getters see it, not the stand-in); its methods run on the
 * stand-in, which forwards every property they read.
 */
export function builtOnUse<T extends object>(get: () => T): T {
  return new Proxy({} as T, {
    get: (_target, key) => Reflect.get(get(), key),
    set: (_target, key, value) => Reflect.set(get(), key, value),
    has: (_target, key) => Reflect.has(get(), key),
    ownKeys: () => Reflect.ownKeys(get()),
    // Reported configurable: a proxy may not report a field its (empty) target lacks as fixed.
    getOwnPropertyDescriptor: (_target, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(get(), key);
      return descriptor && { ...descriptor, configurable: true };
    },
    defineProperty: (_target, key, descriptor) => Reflect.defineProperty(get(), key, descriptor),
    deleteProperty: (_target, key) => Reflect.deleteProperty(get(), key),
    getPrototypeOf: () => Reflect.getPrototypeOf(get()),
  });
}
