/**
 * Vitest global setup of the unit project: says once, for the whole run, that the
 * real-data suites step aside because the shared fixtures are not beside the clone.
 */
import { realDataMode } from './shared-fixtures.js';

export default function setup(): void {
  const mode = realDataMode();
  if (!mode.run) console.log(mode.notice);
}
