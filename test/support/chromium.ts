/**
 * The browser the browser tests drive: Debian's chromium package (playwright-core
 * downloads no browser of its own). A test that needs it fails when it is missing,
 * never skips: CI installs it in .ci/run.
 */
import { existsSync } from 'node:fs';

/** Where Debian installs chromium. */
export const CHROMIUM_PATH = '/usr/bin/chromium';

/** Headless, offline, no first-run or background traffic. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Throws, saying how to install it, when chromium is not there. */
export function requireChromium(): void {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `${CHROMIUM_PATH} is missing: this test drives Debian's chromium. Install it with ` +
        '`apt-get install -y chromium` (CI does this in .ci/run).',
    );
  }
}
