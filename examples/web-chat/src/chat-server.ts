/**
 * The web chat's server: Node's `http` module, no framework. It serves the page and
 * one route, `POST /api/chat`, that runs an episode of the chat's session and
 * streams it back as the AI SDK UI message stream.
 *
 * Each chat id names one Episodic session; the page sends only its new message, and
 * the session keeps the rest (reasoning included), so a follow-up continues the
 * same conversation with its context packed per episode.
 */
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { type Agent, pipeUIMessageStreamToResponse, type Session, toUIMessageStream } from '@episodic/core';
import { z } from 'zod';
import { PUBLIC_DIR } from './build-page.js';

/** Options of {@link startChatServer}. */
export interface ChatServerOptions {
  agent: Agent;
  /** Default 3000; 0 picks a free port. */
  port?: number;
  /** Default 127.0.0.1 (this machine only). */
  host?: string;
  /** Sessions kept in memory; the oldest is dropped past this. Default 100. */
  maxSessions?: number;
}

/** A running server. */
export interface ChatServer {
  url: string;
  close(): Promise<void>;
}

/** What the page posts (see prepareSendMessagesRequest in page/chat.js). */
const ChatRequest = z.object({
  id: z.string().regex(/^[\w-]{1,100}$/),
  message: z.object({
    role: z.literal('user'),
    parts: z.array(z.object({ type: z.string(), text: z.string().max(20_000).optional() })).max(50),
  }),
});

const STATIC: Readonly<Record<string, { file: string; type: string }>> = {
  '/': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/chat.js': { file: 'chat.js', type: 'text/javascript; charset=utf-8' },
  '/style.css': { file: 'style.css', type: 'text/css; charset=utf-8' },
};
const MAX_BODY_BYTES = 256_000;

/** Starts the server; resolves once it listens. */
export async function startChatServer(options: ChatServerOptions): Promise<ChatServer> {
  const sessions = new Map<string, Session>();
  const server = createServer((request, response) => {
    handle(request, response, options, sessions).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain' });
      response.end(`Internal error: ${error instanceof Error ? error.message : String(error)}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 3000, options.host ?? '127.0.0.1', resolve));
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

async function handle(
  request: IncomingMessage,
  response: ServerResponse,
  options: ChatServerOptions,
  sessions: Map<string, Session>,
): Promise<void> {
  const path = new URL(request.url ?? '/', 'http://localhost').pathname;
  const asset = STATIC[path];
  if (request.method === 'GET' && asset) {
    const body = await readFile(join(PUBLIC_DIR, asset.file));
    response.writeHead(200, {
      'content-type': asset.type,
      // The page loads nothing from elsewhere.
      'content-security-policy': "default-src 'self'",
    });
    return void response.end(body);
  }
  if (request.method === 'POST' && path === '/api/chat') return chat(request, response, options, sessions);
  // Browsers ask for an icon; there is none (and a 404 would be a console error).
  if (path === '/favicon.ico') return void response.writeHead(204).end();
  response.writeHead(404, { 'content-type': 'text/plain' });
  response.end('Not found');
}

async function chat(
  request: IncomingMessage,
  response: ServerResponse,
  options: ChatServerOptions,
  sessions: Map<string, Session>,
): Promise<void> {
  const parsed = ChatRequest.safeParse(await readJson(request));
  if (!parsed.success) {
    response.writeHead(400, { 'content-type': 'text/plain' });
    return void response.end(`Bad chat request: ${parsed.error.issues.map((issue) => issue.message).join('; ')}`);
  }
  const { id, message } = parsed.data;
  const text = message.parts.map((part) => (part.type === 'text' ? (part.text ?? '') : '')).join('');
  if (!text.trim()) {
    response.writeHead(400, { 'content-type': 'text/plain' });
    return void response.end('Bad chat request: the message has no text.');
  }
  const session = sessions.get(id) ?? (await options.agent.session({ id }));
  sessions.delete(id);
  sessions.set(id, session);
  if (sessions.size > (options.maxSessions ?? 100)) sessions.delete(sessions.keys().next().value!);
  // The user closed the page or pressed Stop: end the episode (the transcript stays consistent).
  const controller = new AbortController();
  response.on('close', () => {
    if (!response.writableFinished) controller.abort();
  });
  const events = session.stream(text, { signal: controller.signal });
  await pipeUIMessageStreamToResponse(toUIMessageStream(events), response);
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    // Not JSON: the schema check answers 400.
    return undefined;
  }
}
