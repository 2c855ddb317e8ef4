/**
 * The browser the browser tests drive: Debian's chromium package (playwright-core
 * downloads no browser of its own). A test that needs it fails when it is missing,
 * never skips: CI installs it in .ci/run.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';

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

/** A browser with a fresh profile; `close` ends it and deletes the profile. */
export interface ChromiumSession {
  context: BrowserContext;
  close(): Promise<void>;
}

/** Launches chromium (failing when it is missing) with a fresh user-data-dir. */
export async function launchChromium(options: {
  viewport: { width: number; height: number };
  bypassCSP?: boolean;
}): Promise<ChromiumSession> {
  requireChromium();
  const userDataDir = await mkdtemp(join(tmpdir(), 'episodic-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
    ...options,
  });
  return {
    context,
    async close() {
      await context.close();
      await rm(userDataDir, { recursive: true, force: true });
    },
  };
}

/** Collects a page's console errors, uncaught errors and requested URLs from now on. */
export function watchPage(page: Page): { errors: string[]; requests: string[] } {
  const errors: string[] = [];
  const requests: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('request', (request) => requests.push(request.url()));
  return { errors, requests };
}
