/**
 * The web chat's server: Node's `http` module with the chat handler of
 * `@episodic/chat` mounted on it (`POST /api/chat` and the approval routes, with
 * its Host/Origin, content-type, size and session guards), and the page served by
 * the handler's `fallback` so the page passes the same guards.
 */
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { type ChatHandlerOptions, createChatHandler, PAGE_CSP, toNodeListener } from '@episodic/chat';
import { PUBLIC_DIR } from './build-page.js';

/** Options of {@link startChatServer}: the handler's, and where to listen. */
export interface ChatServerOptions extends Omit<ChatHandlerOptions, 'fallback'> {
  /** Default 3000; 0 picks a free port. */
  port?: number;
  /** Default 127.0.0.1 (this machine only); any other address is added to `allowedHosts`. */
  host?: string;
}

/** A running server. */
export interface ChatServer {
  url: string;
  close(): Promise<void>;
}

const STATIC: Readonly<Record<string, { file: string; type: string }>> = {
  '/': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/chat.js': { file: 'chat.js', type: 'text/javascript; charset=utf-8' },
  '/style.css': { file: 'style.css', type: 'text/css; charset=utf-8' },
};

/** Serves the page's files; 404 for anything else. */
async function page(request: Request): Promise<Response> {
  const path = new URL(request.url).pathname;
  const asset = STATIC[path];
  if (request.method === 'GET' && asset) {
    const body = await readFile(join(PUBLIC_DIR, asset.file));
    return new Response(body, { headers: { 'content-type': asset.type, 'content-security-policy': PAGE_CSP } });
  }
  // Browsers ask for an icon; there is none (and a 404 would be a console error).
  if (path === '/favicon.ico') return new Response(null, { status: 204 });
  return new Response('Not found', { status: 404, headers: { 'content-type': 'text/plain' } });
}

/** Starts the server; resolves once it listens. */
export async function startChatServer(options: ChatServerOptions): Promise<ChatServer> {
  const listening = options.host ?? '127.0.0.1';
  const handler = createChatHandler({
    ...options,
    allowedHosts: [listening, ...(options.allowedHosts ?? [])],
    fallback: page,
  });
  const server = createServer(toNodeListener(handler));
  await new Promise<void>((resolve) => server.listen(options.port ?? 3000, listening, resolve));
  const { address, port } = server.address() as AddressInfo;
  return {
    url: `http://${address}:${port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
