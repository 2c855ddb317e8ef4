/**
 * The chat handler of `@episodic/chat`, mounted on Node's http server with
 * `toNodeListener`, from the attacker's side, in a real browser (chromium): a page
 * on another origin (a second loopback server, another port) tries to drive episodes
 * with requests a browser sends without asking (a `no-cors` text/plain fetch, a
 * `<form enctype=text/plain>` post); a DNS-rebound request carries a foreign Host, or
 * hides it behind an absolute request target or a look-alike name; bodies too large
 * to hold, declared or chunked without end; one client opens sessions until others
 * are evicted; a chat id is posted to twice while its first episode still streams.
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { createChatHandler, toNodeListener } from '@episodic/chat';
import { MemorySessionStore } from '@episodic/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

/** A request written by hand on a socket: a request line and Host no HTTP client would send. */
function rawRequest(port: string, line: string, host: string, payload?: string, extra?: string) {
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1');
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), text }));
    const length = payload === undefined ? '' : `content-length: ${Buffer.byteLength(payload)}\r\n`;
    const headers = `host: ${host}\r\ncontent-type: application/json\r\nconnection: close\r\n${length}${extra ? `${extra}\r\n` : ''}`;
    socket.write(`${line}\r\n${headers}\r\n${payload ?? ''}`);
  });
}

describe('chat handler under attack', () => {
  const store = new MemorySessionStore();
  let chat: { url: string; server: Server };
  let attacker: Server;
  let attackerUrl: string;
  let browser: ChromiumSession | undefined;

  beforeAll(async () => {
    const handler = createChatHandler({
      agent: createDemoAgent({ store, offline: { latencyMs: 200, chunkSize: 6, deltaDelayMs: 20 } }),
      maxSessions: 4,
      newSessionsPerClient: { count: 3, windowMs: 60_000 },
      maxBodyBytes: 64_000,
    });
    const server = createServer(toNodeListener(handler));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    chat = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, server };
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
    chat?.server.closeAllConnections();
    await new Promise<void>((resolve) => (chat ? chat.server.close(() => resolve()) : resolve()));
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

  it('refuses a foreign Host behind an absolute request target, a look-alike name or a null Origin', async () => {
    const port = new URL(chat.url).port;
    const url = `${chat.url}api/chat`;
    // The request line names localhost; the Host header (what a rebound browser sends) does not.
    expect((await rawRequest(port, `POST http://localhost:${port}/api/chat HTTP/1.1`, 'attacker.example', body('absolute'))).status).toBe(403);
    for (const host of ['localhost.attacker.example', '127.0.0.1.attacker.example', `attacker.example:${port}`, 'LOCALHOST.attacker.example']) {
      expect((await send(url, { headers: { ...json, host }, body: body('lookalike') })).status, host).toBe(403);
    }
    for (const origin of ['null', `http://localhost.attacker.example:${port}`, `http://127.0.0.1:${port}.attacker.example`]) {
      expect((await send(url, { headers: { ...json, origin }, body: body('origin') })).status, origin).toBe(403);
    }
    // Its own origin is served (the guard is not refusing everything).
    const own = await send(url, { headers: { ...json, origin: `http://127.0.0.1:${port}` }, body: body('own-origin') });
    expect(own.status).toBe(200);
    expect(own.headers['x-content-type-options']).toBe('nosniff');
    expect(await store.list()).toEqual(['own-origin']);
  }, 30_000);

  it('refuses a body over the limit, declared or chunked without end, without reading it all', async () => {
    const port = Number(new URL(chat.url).port);
    const declared = await rawRequest(String(port), 'POST /api/chat HTTP/1.1', `127.0.0.1:${port}`, undefined, 'content-length: 10000000000');
    expect(declared.status).toBe(413);
    // An endless chunked body: the answer comes, and the server closes the connection, long before 200 MB.
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.on('error', () => {});
    socket.write(`POST /api/chat HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n`);
    const chunk = `10000\r\n${'a'.repeat(0x10000)}\r\n`;
    let sent = 0;
    let open = true;
    void closed.then(() => (open = false));
    while (open && sent < 200_000_000) {
      if (!socket.write(chunk)) await Promise.race([new Promise((resolve) => socket.once('drain', resolve)), closed]);
      sent += 0x10000;
    }
    await closed;
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer.toLowerCase()).toContain('connection: close');
    expect(sent).toBeLessThan(50_000_000);
    expect(await store.list()).toEqual(['own-origin']);
  }, 60_000);

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
