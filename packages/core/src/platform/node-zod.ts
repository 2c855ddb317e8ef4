/**
 * zod on Node for a check that cannot wait (`#zod` in package.json resolves here
 * under the `node` condition): zod's CommonJS build, required on first use. Core's
 * asynchronous paths import zod's ES module before they check anything (see
 * support/zod-loader.ts), the copy an application's own `import 'zod'` shares, so
 * this runs only when a synchronous function is the first to need zod.
 */
import { createRequire } from 'node:module';
import type { z } from 'zod/v4';

const require = createRequire(import.meta.url);

/** zod 4 (`zod/v4`, also zod 3.25's), loaded now. */
export function requireZod(): { z: typeof z } {
  return require('zod/v4') as { z: typeof z };
}

/** zod 4's ES module. */
export function importZod(): Promise<{ z: typeof z }> {
  return import('zod/v4');
}
