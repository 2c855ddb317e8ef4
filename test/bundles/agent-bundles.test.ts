/**
 * A one-provider agent bundled as an application would ship it, run against the
 * strict OpenAI Responses server on 127.0.0.1: in Chromium (a browser bundle,
 * which must hold no Node built-in), and in Node from a folder with no
 * node_modules (so nothing, not even tiktoken's WASM file, comes from outside the
 * bundle). Both must finish the episode with the server's answer and count tokens
 * (with the UTF-8 byte bound, which ships no rank table).
 */
import { execFile } from 'node:child_process';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OpenAIScriptedServer, startOpenAIResponsesServer } from '../servers/openai-responses-server.js';
import { type ChromiumSession, launchChromium, watchPage } from '../support/chromium.js';
import { bundleAgent } from './bundle-agent.js';

const answer = 'Hello from the loopback server.';

/** Serves the page and its bundle, and passes /v1/* on to the model server, so the page calls its own origin. */
async function startPageServer(bundle: string, upstream: string): Promise<{ url: string; server: Server }> {
  const page = '<!doctype html><meta charset="utf-8"><title>agent</title><link rel="icon" href="data:,"><script type="module" src="/agent.js"></script>';
  const server = createServer((request, response) => {
    if (request.url === '/') return void response.writeHead(200, { 'content-type': 'text/html' }).end(page);
    if (request.url === '/agent.js') return void response.writeHead(200, { 'content-type': 'text/javascript' }).end(bundle);
    const target = new URL(request.url ?? '/', upstream);
    const forward = httpRequest(target, { method: request.method, headers: request.headers }, (upstreamResponse) => {
      response.writeHead(upstreamResponse.statusCode ?? 502, upstreamResponse.headers);
      upstreamResponse.pipe(response);
    });
    request.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  return { url: `http://127.0.0.1:${address.port}/`, server };
}

describe('a bundled one-provider agent', () => {
  let model: OpenAIScriptedServer;
  let browser: ChromiumSession | undefined;
  let pageServer: Server | undefined;
  let folder: string | undefined;

  beforeAll(async () => {
    model = await startOpenAIResponsesServer();
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => (pageServer ? pageServer.close(resolve) : resolve(undefined)));
    await model.close();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it('builds for the browser without Node built-ins and runs in Chromium', { timeout: 120_000 }, async () => {
    const bundle = await bundleAgent('browser', '`${location.origin}/v1`');
    // esbuild refuses a node: import for the browser platform, so building is the check for built-ins.
    model.enqueue({ type: 'reply', reasoning: ['Greet them.'], text: answer });
    const served = await startPageServer(bundle, model.url);
    pageServer = served.server;
    browser = await launchChromium({ viewport: { width: 800, height: 600 } });
    const page = await browser.context.newPage();
    const watched = watchPage(page);
    await page.goto(served.url);
    await page.waitForFunction('globalThis.agentResult !== undefined || document.readyState === "never"', undefined, { timeout: 60_000 });
    const result = (await page.evaluate('globalThis.agentResult')) as { text: string; inputTokens: number; tokens: number };
    expect(watched.errors).toEqual([]);
    expect(result.text).toBe(answer);
    expect(result.inputTokens).toBeGreaterThan(0);
    // The browser's default counter: the UTF-8 length of "hello world", an upper bound of its 2 o200k tokens; no ranks shipped.
    expect(result.tokens).toBe(11);
    expect(bundle.length).toBeLessThan(1024 * 1024);
    expect(model.modelCalls()).toHaveLength(1);
  });

  it('builds for Node and runs from a folder without node_modules', { timeout: 120_000 }, async () => {
    const bundle = await bundleAgent('node', JSON.stringify(`${model.url}/v1`));
    folder = await mkdtemp(join(tmpdir(), 'episodic-node-bundle-'));
    const file = join(folder, 'agent.mjs');
    await writeFile(file, `${bundle}\nconsole.log(JSON.stringify(globalThis.agentResult));\n`);
    model.enqueue({ type: 'reply', text: answer });
    const environment = { PATH: process.env.PATH };
    const { stdout } = await promisify(execFile)(process.execPath, [file], { cwd: folder, timeout: 60_000, env: environment });
    const result = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as { text: string; tokens: number };
    expect(result.text).toBe(answer);
    expect(result.tokens).toBe(11); // the byte bound, as in the browser (edge-light)
  });
});
