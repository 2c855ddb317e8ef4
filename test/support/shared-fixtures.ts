/**
 * Where the real-data suites (test/recorded, test/real-sessions.test.ts) find the
 * shared fixtures, and whether they run. The fixtures are public data kept outside
 * this repository, so a bare clone has none: there the suites step aside with one
 * line instead of failing on every file. CI sets `EPISODIC_REQUIRE_FIXTURES=1`, which
 * turns a missing folder back into a failure of every placed file. A folder that is
 * present always runs, so a file present with the wrong sha256 fails in both modes.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

const repository = resolve(import.meta.dirname, '../..');

/** The folder that holds the shared fixtures: `EPISODIC_SHARED_FIXTURES`, or `shared/fixtures` beside the clone. */
export function sharedFixturesRoot(env: NodeJS.ProcessEnv = process.env): string {
  return env.EPISODIC_SHARED_FIXTURES ?? resolve(repository, '../shared/fixtures');
}

/** What the real-data suites do: run (the folder is there, or CI requires it), or step aside. */
export type RealDataMode = { run: true } | { run: false; notice: string };

/** Decides {@link RealDataMode} from the environment and whether the folder exists. */
export function realDataMode(env: NodeJS.ProcessEnv = process.env, exists: (path: string) => boolean = existsSync): RealDataMode {
  const root = sharedFixturesRoot(env);
  if (exists(root) || env.EPISODIC_REQUIRE_FIXTURES === '1') return { run: true };
  return {
    run: false,
    notice:
      `real-data suites skipped: no fixtures at ${root}; see test/fixtures/sessions/README.md ` +
      '(set EPISODIC_SHARED_FIXTURES, or EPISODIC_REQUIRE_FIXTURES=1 to fail instead)',
  };
}
