/**
 * The web chat example's page from the attacker's side: the page is served through
 * the chat handler's `fallback`, so the handler's guards hold for it too (a
 * DNS-rebound page cannot read it) and it carries its own content security policy.
 * The API's guards are attacked in chat-handler-attacks.test.ts.
 */
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPage } from '../../examples/web-chat/src/build-page.js';
import { type ChatServer, startChatServer } from '../../examples/web-chat/src/chat-server.js';
import { createDemoAgent } from '../../examples/web-chat/src/demo-agent.js';

function get(url: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: Record<string, unknown> }>((resolve, reject) => {
    const sent = httpRequest(url, { headers }, (response) => {
      response.resume();
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers }));
    });
    sent.on('error', reject);
    sent.end();
  });
}

describe('web chat page under attack', () => {
  let chat: ChatServer;

  beforeAll(async () => {
    await buildPage();
    chat = await startChatServer({ agent: createDemoAgent(), port: 0 });
  }, 90_000);

  afterAll(async () => {
    await chat?.close();
  });

  it('refuses the page and its script to a foreign Host (DNS rebinding)', async () => {
    const port = new URL(chat.url).port;
    for (const path of ['', 'chat.js']) {
      expect((await get(`${chat.url}${path}`, { host: 'attacker.example' })).status).toBe(403);
      expect((await get(`${chat.url}${path}`, { host: `attacker.example:${port}` })).status).toBe(403);
    }
  });

  it('serves the page with frame-ancestors and nosniff', async () => {
    const page = await get(chat.url);
    expect(page.status).toBe(200);
    expect(String(page.headers['content-security-policy'])).toMatch(/frame-ancestors 'none'/);
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['x-frame-options']).toBe('DENY');
  });
});
