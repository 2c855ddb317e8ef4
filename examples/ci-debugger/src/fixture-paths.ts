/**
 * Where the example's fixtures live, found relative to this module so that it works
 * from `src/` (tests) and from `dist/` (npm start) alike.
 */
import { fileURLToPath } from 'node:url';

/** The fixture project the agent debugs. */
export const FIXTURE_PROJECT = fileURLToPath(new URL('../fixtures/tiny-queue/', import.meta.url));

/** The recorded CI runs: `runs.json` and one log per run. */
export const FIXTURE_LOGS = fileURLToPath(new URL('../fixtures/logs/', import.meta.url));
