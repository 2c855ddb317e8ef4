// toNodeListener on a real Node http server: the episode stops when the client goes
// away mid-stream (and the chat is free again), the Host comes from the header, not
// from an absolute request target, and a body over the limit is answered, not drained.
import { createServer, request as httpRequest, type Server } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { Agent, MemorySessionStore } from '@episodic/core';
import { scriptedModel } from '@episodic/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createChatHandler } from './chat-handler.js';
import { toNodeListener } from './node-listener.js';

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

async function serve(handler: Parameters<typeof toNodeListener>[0]): Promise<number> {
  const server = createServer(toNodeListener(handler));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

const chatBody = (id: string) => JSON.stringify({ id, message: { role: 'user', parts: [{ type: 'text', text: 'Hi' }] } });

describe('toNodeListener', () => {
  it('aborts the episode when the client disconnects mid-stream, and frees the chat', async () => {
    const store = new MemorySessionStore();
    // The first reply would take 30 s; the next one comes at once.
    const model = scriptedModel({ steps: [{ text: 'Slow.', delayMs: 30_000 }, { text: 'Short.' }] });
    const port = await serve(createChatHandler({ agent: new Agent({ model, store }) }));
    await new Promise<void>((resolve, reject) => {
      const sent = httpRequest({ port, host: '127.0.0.1', method: 'POST', path: '/api/chat', headers: { 'content-type': 'application/json' } }, (response) => {
        response.once('data', () => {
          sent.destroy();
          resolve();
        });
      });
      sent.on('error', () => {});
      sent.on('close', () => resolve());
      setTimeout(() => reject(new Error('no first chunk')), 5_000);
      sent.end(chatBody('gone'));
    });
    const started = Date.now();
    let status = 409;
    while (status === 409 && Date.now() - started < 5_000) {
      const again = await fetch(`http://127.0.0.1:${port}/api/chat`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: chatBody('gone') });
      status = again.status;
      await again.text();
      if (status === 409) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(status).toBe(200);
    // Far sooner than the 30 s the first answer would have taken.
    expect(Date.now() - started).toBeLessThan(5_000);
    const assistant = (await store.load('gone'))?.messages.filter((message) => message.role === 'assistant') ?? [];
    expect(assistant.at(-1)).toMatchObject({ content: [{ type: 'text', text: 'Short.' }] });
  }, 20_000);

  it('takes the host from the Host header, and the path alone from an absolute target', async () => {
    const seen: string[] = [];
    const port = await serve(async (request) => {
      seen.push(request.url);
      return new Response('ok');
    });
    await new Promise<void>((resolve, reject) => {
      const sent = httpRequest({ port, host: '127.0.0.1', path: 'http://localhost/api/chat?id=1', headers: { host: 'elsewhere.example:81' } }, (response) => {
        response.resume();
        response.on('end', resolve);
      });
      sent.on('error', reject);
      sent.end();
    });
    expect(seen).toEqual(['http://elsewhere.example:81/api/chat?id=1']);
  });

  it('answers 400 to a request without a usable Host, whatever its path says', async () => {
    const seen: string[] = [];
    const port = await serve(async (request) => {
      seen.push(request.url);
      return new Response('ok');
    });
    for (const head of ['GET /localhost/api/chat HTTP/1.0\r\n', 'GET /api/chat HTTP/1.0\r\nhost: localhost@evil.example\r\n', 'GET /x HTTP/1.0\r\nhost: localhost/evil\r\n']) {
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1');
        let text = '';
        socket.setEncoding('utf8');
        socket.on('data', (chunk: string) => (text += chunk));
        socket.on('error', reject);
        socket.on('close', () => resolve(text));
        socket.end(`${head}\r\n`);
      });
      expect(answer, head).toMatch(/^HTTP\/1\.1 400 /);
    }
    expect(seen).toEqual([]);
  });
});
