/**
 * Vitest global setup: the packages' runtime entries are their esbuild bundles
 * (`bundle/`, built from `dist` by scripts/bundle-packages.mjs). Tests import the
 * sources, but those that spawn Node on a built program or bundle an application
 * load the bundles; after a plain `tsc -b` they would be older than `dist`, so they
 * are rebuilt here when they are.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export default function setup(): void {
  const script = fileURLToPath(new URL('../../scripts/bundle-packages.mjs', import.meta.url));
  execFileSync(process.execPath, [script, '--if-stale'], { stdio: 'inherit' });
}
