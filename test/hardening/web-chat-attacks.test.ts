/**
 * The web chat server from the attacker's side, in a real browser (chromium): a page
 * on another origin (a second loopback server, another port) tries to drive episodes
 * with requests a browser sends without asking (a `no-cors` text/plain fetch, a
 * `<form enctype=text/plain>` post); a DNS-rebound request carries a foreign Host;
 * one client opens sessions until others are evicted; a chat id is posted to twice
 * while its first episode still streams.
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MemorySessionStore } from '@episodic/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPage } from '../../examples/web-chat/src/build-page.js';
import { type ChatServer, startChatServer } from '../../examples/web-chat/src/chat-server.js';
import { createDemoAgent } from '../../examples/web-chat/src/demo-agent.js';
import { type ChromiumSession, launchChromium } from '../support/chromium.js';

const body = (id: string) => JSON.stringify({ id, message: { role: 'user', parts: [{ type: 'text', text: 'What is this project?' }] } });

/** A raw request with the headers an attacker picks; resolves status, headers and body. */
function send(url: string, options: { method?: string; headers?: Record<string, string>; body?: string }) {
  return new Promise<{ status: number; headers: Record<string, unknown>; text: string }>((resolve, reject) => {
    const sent = httpRequest(url, { method: options.method ?? 'POST', headers: options.headers ?? {} }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, text }));
    });
    sent.on('error', reject);
    sent.end(options.body);
  });
}
const json = { 'content-type': 'application/json' };

describe('web chat server under attack', () => {
  const store = new MemorySessionStore();
  let chat: ChatServer;
  let attacker: Server;
  let attackerUrl: string;
  let browser: ChromiumSession | undefined;

  beforeAll(async () => {
    await buildPage();
    chat = await startChatServer({
      agent: createDemoAgent({ store, offline: { latencyMs: 200, chunkSize: 6, deltaDelayMs: 20 } }),
      port: 0,
      maxSessions: 4,
      newSessionsPerClient: { count: 3, windowMs: 60_000 },
    });
    const target = `${chat.url}api/chat`;
    // A text/plain form posts `name=value`: the name ends in an open string the value closes, so the body is JSON.
    const formValue = `${body('form-attack').slice(0, -4)},"x":"`;
    const page = `<!doctype html><html><body>
      <iframe name="sink"></iframe>
      <form id="attack" method="POST" enctype="text/plain" action="${target}" target="sink">
        <input name='${formValue}' value='"}]}}'>
      </form>
      <script>
        fetch(${JSON.stringify(target)}, { method: 'POST', mode: 'no-cors', headers: { 'content-type': 'text/plain' },
          body: ${JSON.stringify(body('fetch-attack'))} }).then(() => { document.body.dataset.fetched = 'yes'; },
          () => { document.body.dataset.fetched = 'failed'; });
        document.getElementById('attack').submit();
      </script></body></html>`;
    attacker = createServer((_request, response) => response.writeHead(200, { 'content-type': 'text/html' }).end(page));
    await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
    attackerUrl = `http://localhost:${(attacker.address() as AddressInfo).port}/`;
    browser = await launchChromium({ viewport: { width: 800, height: 600 } });
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await chat?.close();
    await new Promise<void>((resolve) => (attacker ? attacker.close(() => resolve()) : resolve()));
  }, 30_000);

  it('runs no episode for a page on another origin (no-cors text/plain fetch, text/plain form post)', async () => {
    const page = await browser!.context.newPage();
    const answered: number[] = [];
    page.on('response', (response) => {
      if (response.url().includes('/api/chat')) answered.push(response.status());
    });
    await page.goto(attackerUrl);
    await page.waitForFunction(`document.body.dataset.fetched !== undefined`, undefined, { timeout: 20_000 });
    await expect.poll(() => answered.length, { timeout: 20_000 }).toBeGreaterThanOrEqual(1);
    // Long enough for an episode of the demo model to be stored, had one started.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(await store.list()).toEqual([]);
    expect(answered.every((status) => status >= 400), `statuses ${answered.join(', ')}`).toBe(true);
  }, 60_000);

  it('refuses a foreign Host (DNS rebinding) on the page and the API, and a non-JSON content type', async () => {
    expect((await send(chat.url, { method: 'GET', headers: { host: 'attacker.example' } })).status).toBe(403);
    const port = new URL(chat.url).port;
    const rebound = await send(`${chat.url}api/chat`, { headers: { ...json, host: `attacker.example:${port}` }, body: body('rebound') });
    expect(rebound.status).toBe(403);
    const plain = await send(`${chat.url}api/chat`, { headers: { 'content-type': 'text/plain' }, body: body('plain') });
    expect(plain.status).toBe(415);
    expect(await store.list()).toEqual([]);
  });

  it('serves the page with frame-ancestors and nosniff', async () => {
    const page = await send(chat.url, { method: 'GET' });
    expect(page.status).toBe(200);
    expect(String(page.headers['content-security-policy'])).toMatch(/frame-ancestors 'none'/);
    expect(page.headers['x-content-type-options']).toBe('nosniff');
  });

  it('never runs one chat twice at once, and one client cannot evict the others', async () => {
    const url = `${chat.url}api/chat`;
    const streaming = send(url, { headers: json, body: body('victim') });
    await expect.poll(async () => (await store.load('victim'))?.messages.length ?? 0).toBeGreaterThan(0);
    // The same chat again while its episode streams: refused, not run beside it.
    expect((await send(url, { headers: json, body: body('victim') })).status).toBe(409);
    // New sessions from one client: limited, and never evicting a session that is streaming.
    const statuses = [];
    for (let index = 0; index < 6; index += 1) statuses.push((await send(url, { headers: json, body: body(`flood-${index}`) })).status);
    expect(statuses.filter((status) => status === 429).length, `statuses ${statuses.join(', ')}`).toBeGreaterThan(0);
    expect((await streaming).status).toBe(200);
    expect((await send(url, { headers: json, body: body('victim') })).status).toBe(200);
    const roles = (await store.load('victim'))?.messages.filter((message) => message.role === 'user').length;
    expect(roles).toBe(2);
  }, 60_000);
});
