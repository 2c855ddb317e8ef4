/**
 * Runs a bundled agent as a web page in headless Chromium (Debian's, driven by
 * playwright-core, which downloads no browser): a page server on 127.0.0.1 serves
 * an HTML page and the bundle, the page calls the loopback Responses server on
 * another port (cross-origin, so with a CORS preflight, as a page calling
 * api.openai.com would), and the agent's answer is read back from the page.
 *
 * Every run gets a fresh browser context (its own HTTP, code and preflight caches),
 * so each is a cold load of the page. Times are taken in this process from when the
 * page server received the page's document request (the navigation's start as the
 * network sees it) and the bundle's request, to the model request's arrival.
 */
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import { performance } from 'node:perf_hooks';
import { chromium } from 'playwright-core';
import { ANSWER } from './responses-server.js';

/** Where Debian installs chromium (the browser tests use the same one). */
export const CHROMIUM_PATH = '/usr/bin/chromium';

const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Headless Chromium; throws, saying how to install it, when it is missing. */
export async function launchBrowser() {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`${CHROMIUM_PATH} is missing: the browser bench drives Debian's chromium (apt-get install -y chromium).`);
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: ARGS });
}

/**
 * A page server for `bundles` (`{ name: source }`): `/<name>/` is a page that sets
 * `globalThis.BASE_URL` to `baseURL` and loads `/<name>/agent.js`. `state.page` and
 * `state.script` are the arrival times of the latest document and bundle requests.
 */
export async function startPageServer(bundles, baseURL) {
  const state = { page: undefined, script: undefined };
  const server = createServer((request, reply) => {
    const now = performance.now();
    const [, name, file] = /^\/([\w-]+)\/(agent\.js)?$/.exec(request.url ?? '') ?? [];
    if (!name || !(name in bundles)) return void reply.writeHead(404).end();
    if (file) {
      state.script = now;
      return void reply.writeHead(200, { 'content-type': 'text/javascript', 'cache-control': 'no-store' }).end(bundles[name]);
    }
    state.page = now;
    const page = `<!doctype html><meta charset="utf-8"><title>${name}</title><link rel="icon" href="data:,">
<script>globalThis.BASE_URL = ${JSON.stringify(baseURL)};</script>
<script type="module" src="/${name}/agent.js"></script>`;
    reply.writeHead(200, { 'content-type': 'text/html', 'cache-control': 'no-store' }).end(page);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    state,
    url: (name) => `http://127.0.0.1:${server.address().port}/${name}/`,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/**
 * One cold load of bundle `name` in a fresh context: waits for the page's
 * `globalThis.agentResult`, fails on any page error or an answer other than the
 * server's, and returns the ms from the document request and from the bundle request
 * to the model request's arrival at `loopback` (a started responses server), and the
 * page's CPU ms by then (Chromium's metrics, read while the answer is held): its
 * renderer process (with compiling off the main thread) and its main thread.
 */
export async function runPage(browser, pages, name, loopback) {
  loopback.resetArrivals();
  pages.state.page = undefined;
  pages.state.script = undefined;
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    // Durations in thread time, so the CPU figures do not grow while the machine is busy.
    await cdp.send('Performance.enable', { timeDomain: 'threadTicks' });
    let metrics;
    loopback.state.onArrival = async () => {
      metrics = Object.fromEntries((await cdp.send('Performance.getMetrics')).metrics.map(({ name, value }) => [name, value]));
    };
    const errors = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
    await page.goto(pages.url(name));
    await page.waitForFunction('globalThis.agentResult !== undefined || globalThis.agentError !== undefined', undefined, { timeout: 60_000 });
    const [result, failure] = await page.evaluate('[globalThis.agentResult, globalThis.agentError]');
    if (failure !== undefined || errors.length > 0 || result?.text !== ANSWER || loopback.state.arrival === undefined) {
      throw new Error(`the ${name} page failed: ${JSON.stringify({ result, failure, errors }).slice(0, 2000)}`);
    }
    const { arrival, preflight } = loopback.state;
    return {
      fromNavigation: arrival - pages.state.page,
      fromScript: arrival - pages.state.script,
      preflight: preflight === undefined ? undefined : arrival - preflight,
      processCpu: metrics.ProcessTime * 1000,
      mainThreadCpu: metrics.ThreadTime * 1000,
      bodies: loopback.state.bodies,
    };
  } finally {
    await context.close();
  }
}
