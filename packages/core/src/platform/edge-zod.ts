/**
 * zod in browsers and edge runtimes (`#zod` outside Node): bundled with core and
 * imported with it, since these runtimes cannot load a module synchronously.
 */
import * as zod from 'zod/v4';

/** zod 4 (`zod/v4`, also zod 3.25's). */
export function requireZod(): typeof zod {
  return zod;
}
