/**
 * zod in browsers, edge runtimes and bundles (`#zod` outside plain Node; bundlers,
 * which resolve the `module` condition, take this file for Node too): bundled with
 * core and imported with it, since a bundle or these runtimes cannot require a
 * module synchronously.
 */
import { z } from 'zod/v4';

/** zod 4 (`zod/v4`, also zod 3.25's). */
export function requireZod(): { z: typeof z } {
  return { z };
}

/**
 * The same: loaded already, and no dynamic import for a bundler to wrap zod's
 * modules for.
 */
export function importZod(): Promise<{ z: typeof z }> {
  return Promise.resolve({ z });
}
